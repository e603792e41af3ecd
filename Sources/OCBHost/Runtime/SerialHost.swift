// What both hosts share around their one serial queue: the queue hop, event and completion delivery, the state.

import Dispatch
import OCBHCI

/// A host whose state lives on one private serial queue and whose events and completions go to the handler's
/// queue, in order: ``HostController`` and ``KernelHost`` (on `queue` only unless said otherwise).
///
/// The extension gives both the same delivery (``emit(_:)``, ``deliver(_:)``, ``setState(_:)``) and the queue hop
/// ``onQueue(_:)`` that lets a synchronous call work from a `withGATT` body, which already runs on `queue`.
protocol SerialHost: DiscoveryRecordRecycling {
    /// The private serial queue every piece of state is touched on.
    var queue: DispatchQueue { get }
    /// Where events and completions go, in order: a private serial queue that drops events until
    /// ``replaceEventHandler(queue:_:)`` (``HostDelivery/outbox(queue:handler:)``).
    var outbox: SerialBatcher<HostDelivery> { get set }
    /// The bound on discoveries waiting in ``outbox``.
    var discoveryGate: DiscoveryGate { get }
    /// The state last reported with ``HostEvent/stateChanged(_:)``.
    var currentState: HostState { get set }
    /// The scan in progress, nil when none.
    var scan: ScanSession? { get set }
    /// True while the host waits for an answer that may be among bytes its transport has not read yet (a command's,
    /// in full-host mode an ATT response or a fresh connection attempt's): advertising reports are then skipped unread
    /// where the reads are behind (``receive(_:behind:awaiting:skipped:_:)``), and the discoveries taken before wait
    /// (``SerialBatcher``'s `holdsBulk`) until the transport has read all it had (``HCITransport/hasInputWaiting``).
    var awaitsAnswer: Bool { get }
    /// True while the transport has read less than the controller sent (``HCITransport/hasInputWaiting``); on `queue`.
    var transportHasInputWaiting: Bool { get }
    /// Arms the host's one timer for its earliest deadline.
    func rescheduleTimer()
    /// Where the host reads the time (the system's clock, or its transport's; touched on ``queue``).
    var clock: any HostClock { get }
    /// When the read being handled was taken (``clock``'s time at the start of ``receive(_:behind:awaiting:skipped:_:)``),
    /// as the scan's stamp (``ScanResultMerger/stamp(_:)``): the time of every report in it (read in place or decoded),
    /// so the scan path reads the clock once a read, not once a report event, and passes a fixed-layout `Duration` (a
    /// `ContinuousClock.Instant` is opaque outside the standard library: each copy of it a call). Nil between reads
    /// (then ``clock`` is read).
    var readStamp: ScanResultMerger.Stamp? { get set }
    /// The address a device heard at the resolvable private address `peer` is reported by (a bond's, Core v5.4
    /// Vol 6 Part B §1.3.2.3); nil to report it as it is. The full host resolves with its bonds' IRKs; in kernel mode
    /// the kernel resolves before reports reach this host.
    func knownPeer(forPrivate peer: PeerAddress) -> PeerAddress?
}

/// The queue-specific key whose value on a host's queue is that host's `ObjectIdentifier` (see ``SerialHost/onQueue(_:)``).
private let serialHostQueueKey = DispatchSpecificKey<ObjectIdentifier>()

extension SerialHost {
    /// Marks `queue` as this host's, for ``onQueue(_:)``, and gives it its ``TurnFlush``; called once from the initializer.
    func claimQueue() {
        queue.setSpecific(key: serialHostQueueKey, value: ObjectIdentifier(self))
        TurnFlush.install(on: queue)
    }

    /// True when the caller runs on this host's `queue`.
    var isOnQueue: Bool { DispatchQueue.getSpecific(key: serialHostQueueKey) == ObjectIdentifier(self) }

    /// Runs `work` on `queue`: directly when already there (e.g. inside a `withGATT` body), else synchronously.
    func onQueue<T>(_ work: () -> T) -> T {
        if isOnQueue { return work() }
        return queue.sync(execute: work)
    }

    /// Runs an app's request on `queue` (``TurnFlush/request(on:_:)``): a reader's turn yields to it during a flood.
    func request(_ work: @escaping @Sendable () -> Void) {
        TurnFlush.request(on: queue, work)
    }

    /// Runs an app's request in place when called on `queue` while no other request waits for it (a backend running
    /// there, as the CoreBluetooth one does: nothing the app asked before is left), else as ``request(_:)``. Requests
    /// keep the order they were asked in, and one asked on the queue does not wait behind a turn of discoveries
    /// queued there during a flood.
    func requestInPlace(_ work: @escaping @Sendable () -> Void) {
        if isOnQueue, !requestWaits { work() } else { request(work) }
    }

    /// True while discoveries wait in ``outbox`` for the transport to read what it has (``awaitsAnswer``, and the
    /// transport has unread input); on `queue`.
    var holdsDiscoveries: Bool { awaitsAnswer && transportHasInputWaiting }

    /// Reports handled (not shed) between two looks at whether to shed (``receive(_:behind:awaiting:_:)``).
    static var sheddingRecheck: Int { 64 }

    /// True while an app's request waits for `queue` (``TurnFlush/hasWaitingRequests``).
    var requestWaits: Bool { queue.getSpecific(key: TurnFlush.key)?.hasWaitingRequests == true }

    /// The current state, read synchronously on `queue` (in place when called on it).
    func readState() -> HostState {
        onQueue { currentState }
    }

    /// Sets the queue and handler for events and completions, replacing earlier ones (in place when called on `queue`);
    /// with `discoveries`, the discoveries go to it a turn's worth at a time instead of to `handler` one by one.
    func replaceEventHandler(queue eventQueue: DispatchQueue, _ handler: @escaping @Sendable (HostEvent) -> Void,
                             discoveries: (@Sendable ([DiscoveredDevice]) -> Void)? = nil) {
        onQueue {
            // Handed over on the host's own queue: the discoveries wait while a backlog is read toward an answer.
            let holds: (() -> Bool)? = eventQueue === queue ? { [weak self] in self?.holdsDiscoveries ?? false } : nil
            self.outbox = HostDelivery.outbox(queue: eventQueue, gatheringOn: queue, gate: discoveryGate, holdsBulk: holds,
                                              handler: handler, discoveries: discoveries)
        }
    }

    /// Hands an event to the handler on its queue (a discovery through ``emitDiscovery(_:)``).
    func emit(_ event: HostEvent) {
        if case .discovered(let device) = event { return _ = emitDiscovery(device) }
        outbox.post(.event(event))
    }

    /// Hands a discovery to the handler while fewer than ``DiscoveryGate/limit`` wait; false when it was dropped (the
    /// scan's duplicate filter must then forget it, ``ScanResultMerger/forgetReported(_:)``).
    /// The discoveries the read at hand gathered (``ScanSession/found``) go first, so the order is kept.
    func emitDiscovery(_ device: DiscoveredDevice) -> Bool {
        flushDiscoveries()
        let (admitted, warn) = discoveryGate.admit()
        if warn { warnDiscoveriesDropped() }
        if admitted { outbox.post(.event(.discovered(device))) }
        return admitted
    }

    /// Hands the discoveries the read at hand gathered (``ScanSession/found``) to the handler in order, as
    /// ``emitDiscovery(_:)`` hands one, with one look at the gate and one at the outbox for all of them; those past
    /// the gate are dropped, and the scan's duplicate filter forgets them (``ScanResultMerger/forgetReported(_:)``).
    func flushDiscoveries() {
        guard let found = scan?.takeFound(refillingFrom: discoveryRecordSpares) else { return }
        let (admitted, warn) = discoveryGate.admit(count: found.count)
        if warn { warnDiscoveriesDropped() }
        guard admitted < found.count else { return outbox.post(.discoveries(found)) }
        if admitted > 0 { outbox.post(.discoveries(Array(found.prefix(admitted)))) }
        for device in found.dropFirst(admitted) { scan?.merger.forgetReported(device.peer) }
    }

    /// The notice of a discovery gate overflow (``DiscoveryGate/admit(now:)``'s `warn`).
    private func warnDiscoveriesDropped() {
        outbox.post(.event(.notice("the event handler is slower than the advertisements: \(DiscoveryGate.limit) discoveries "
                                   + "wait for it, further ones are dropped (droppedDiscoveryCount) until it catches up")))
    }

    /// Takes the packets of one read (``HCIPacketWalk``), each to `receive`, except the advertising report events of
    /// legacy PDUs (``HCI/HCIEvent/isLegacyAdvertisingReport(_:)``: LE Advertising Report, LE Directed Advertising
    /// Report, or an LE Extended Advertising Report whose every report has the legacy bit), which are dropped unread,
    /// counted in ``DiscoveryGate/dropped``, while the host is behind the controller (`behind`: the read is part of a
    /// backlog, ``HCITransport/isBehind``) and waits for an answer that may be among the unread bytes (`awaiting`: a
    /// command, or in full-host mode an ATT response or a fresh connection attempt). The answer is then reached in the
    /// time it takes to skip the reports, not to handle them, so a connect's steps or a stop during a flood of
    /// advertisers do not wait behind it. In a reader's turn (``TurnFlush``) an app's request that comes during the
    /// read runs once the packet at hand is handled (or, during a run of reports the transport passes over, once the
    /// run ends, within ``HCI/H4Decoder/passingCheckInterval`` reports, and the report after it is shed), before the
    /// next, after what the packets so far found is posted; outside a turn a
    /// request waiting for the queue counts as an answer waited for (``requestWaits``): it runs after the read at hand
    /// is skipped, not handled. A dropped advertiser is heard again
    /// at its next advertisement. Extended reports of extended PDUs are never dropped here: they may be pieces of a
    /// chain that a missing piece would corrupt (a legacy PDU is always whole). Says so at most once a minute.
    ///
    /// The decision is made at a read's first report and kept for its reports (asked again after any other packet,
    /// which may have ended the wait, and every ``sheddingRecheck`` reports handled, for a request come meanwhile).
    /// The first report shed asks the transport to pass over the legacy reports that follow it in the read
    /// (``HCI/H4FrameStep/skipLegacyAdvertisingReports(while:)``): an H4 stream then walks their length fields alone,
    /// with no call here, and ends the run when an app's request comes (the report it stops at is handed over, shed,
    /// and the request runs after it, before any packet is handled); the walk's count joins the shed ones.
    /// `skipped`, when given, sees each report dropped (a capture records every packet the controller sent).
    func receive(_ walk: HCIPacketWalk, behind: () -> Bool, awaiting: () -> Bool,
                 skipped: ((HCIPacketType, ArraySlice<UInt8>) -> Void)? = nil,
                 _ receive: (HCIPacketType, ArraySlice<UInt8>) -> Void) {
        var shedding: Bool?
        var shed = 0, handledReports = 0
        // The read's time, for its reports (``readStamp``).
        // (A read handled within another's, should one ever be, keeps the outer read's time.)
        let outerStamp = readStamp
        readStamp = outerStamp ?? ScanResultMerger.stamp(clock.now)
        defer { readStamp = outerStamp }
        // A reader's turn: an app's request that comes during the read runs once the packet at hand is handled.
        let flush = TurnFlush.current
        // A run of reports the transport passes over ends when an app's request comes (checked every
        // H4Decoder.passingCheckInterval reports): the next report is handed over, shed, and the request runs after it.
        let keepPassing: () -> Bool = if let flush { { !flush.hasWaitingRequests } } else { { true } }
        // The walk calls the body only while it runs, as the three closures live: none escapes.
        withoutActuallyEscaping(receive) { receive in
            withoutActuallyEscaping(awaiting) { awaiting in
                withoutActuallyEscaping(behind) { behind in
                    // Written in the closure itself, not in a nested function: state captured by both would be boxed
                    // and checked for exclusive access at run time on every packet.
                    let passedOver = walk { type, bytes in
                        // One packet: shed (the step asks the transport to pass over the reports that follow), or handled.
                        var step = H4FrameStep.next
                        if type == .event, HCIEvent.isLegacyAdvertisingReport(bytes) {
                            if shedding == nil { shedding = (awaiting() || requestWaits) && behind() }
                            if shedding == true {
                                shed &+= 1
                                // Those that follow in the read are passed over by the transport, unless each must be
                                // seen (recorded in a capture).
                                if let skipped { skipped(type, bytes) } else { step = .skipLegacyAdvertisingReports(while: keepPassing) }
                            } else {
                                // (What it found is handed over once a hand-over's worth gathered: ``observe(_:)``.)
                                receive(type, bytes)
                                handledReports &+= 1
                                if handledReports % Self.sheddingRecheck == 0 { shedding = nil }
                            }
                        } else {
                            // What the reports before this packet found goes first: the packet may end the scan or the wait.
                            flushDiscoveries()
                            receive(type, bytes)
                            shedding = nil
                        }
                        // After the packet, before the next: what the packets so far found goes first (a stop must
                        // not overtake it), then the request; the skip is decided again, as the request (a connect)
                        // may now await an answer, so nothing is passed over unasked. After, not before: a request
                        // that tears the host down (a failed write) ends the walk there, as the transport looks
                        // whether it is still open after each packet, so no packet is handled by a host that is gone.
                        guard let flush, flush.hasWaitingRequests else { return step }
                        flushDiscoveries()
                        flush.runRequests()
                        shedding = nil
                        return .next
                    }
                    // The reports the transport passed over at a skip's request, beside those shed here.
                    shed &+= passedOver
                }
            }
        }
        flushDiscoveries()
        if shed > 0, discoveryGate.shed(count: shed) {
            outbox.post(.event(.notice("advertising reports dropped unread while an answer waited behind them (a connect, a command, "
                                       + "an ATT response during a flood); counted in droppedDiscoveryCount")))
        }
    }

    /// The time of a report being handled, as the scan's stamp: the read's (``readStamp``), or the clock's outside a read.
    var scanStamp: ScanResultMerger.Stamp { readStamp ?? ScanResultMerger.stamp(clock.now) }

    /// Takes the reports of a report event of legacy PDUs read in place (``HCI/LEAdvertisingReportView``), the scan
    /// path: nothing is copied out of the packet for a report that changes nothing. The timer is re-armed once, and
    /// only when the scan's deadline moved. False (nothing done) when no scan is on: the event is then decoded as any other.
    /// The discoveries join the read's (``ScanSession/found``), handed over together (``flushDiscoveries()``) at the
    /// read's end, before its next other packet, or once ``SerialBatcher/turnLimit`` have gathered (here, after the
    /// event; ``observe(collected:)`` for reports decoded on the other path).
    func observe(_ reports: LEAdvertisingReportView) -> Bool {
        var taken = false, deadlineMoved = false, full = false
        let now = scanStamp
        for report in reports {
            // In place through the optional (a `scan != nil` first would copy the whole session out and back).
            let received: ScanSession.Collected?
            if report.addressType == .random, report.address.randomSubtype == .resolvablePrivate,
               let known = knownPeer(forPrivate: PeerAddress(report.address, type: .random)) {
                // A bonded device's rotating address: reported by the address it is known by (not in place).
                received = scan?.collect(AdvertisingObservation(peer: known, isConnectable: report.isConnectable,
                                                                isScannable: report.isScannable, isScanResponse: report.isScanResponse,
                                                                rssi: report.rssi, txPower: report.txPower, data: Array(report.data)),
                                         at: now)
            } else {
                received = scan?.collect(report, at: now)
            }
            guard let received else { break }
            taken = true
            deadlineMoved = deadlineMoved || received.deadlineMoved
            full = full || received.isFull
        }
        if deadlineMoved { rescheduleTimer() }
        if full { flushDiscoveries() }
        return taken
    }

    /// After a report decoded into an observation (not read in place: an extended advertisement, a bonded device's
    /// rotating address) joined the scan: re-arms the timer when the deadline moved, hands the read's discoveries over
    /// once a hand-over's worth gathered (as ``observe(_:)`` does for the reports it reads).
    func observe(collected: ScanSession.Collected?) {
        guard let collected else { return }
        if collected.deadlineMoved { rescheduleTimer() }
        if collected.isFull { flushDiscoveries() }
    }

    /// Hands the advertisements the scan holds (waiting for a scan response, ``ScanResultMerger/flush()``) to the handler
    /// and empties its merger: before a scan stops, restarts with other options or is ended by the controller, so none
    /// is lost (on `queue`). The spare records handed back for the scan go too (``discoveryRecordSpares``).
    func releaseHeldAdvertisements() {
        for device in scan?.merger.flush() ?? [] { emit(.discovered(device)) }
        discoveryRecordSpares.removeAll()
    }

    /// Runs a completion on the event queue.
    func deliver(_ work: @escaping @Sendable () -> Void) {
        outbox.post(.completion(work))
    }

    /// Records `state` and emits ``HostEvent/stateChanged(_:)`` when it differs from the current one.
    func setState(_ state: HostState) {
        guard state != currentState else { return }
        currentState = state
        emit(.stateChanged(state))
    }
}

/// One thing a host hands to its event queue: an event for the handler, or a completion to run.
enum HostDelivery {
    /// For the event handler.
    case event(HostEvent)
    /// A completion, run as it is.
    case completion(@Sendable () -> Void)
    /// Discoveries a read made, in order (``SerialHost/flushDiscoveries()``), each already admitted by the gate:
    /// one item for all of them, handed over as their ``HostEvent/discovered(_:)`` events would be.
    case discoveries([DiscoveredDevice])

    /// True for what goes in the bulk lane (discoveries).
    var isBulk: Bool {
        switch self {
        case .event(.discovered), .discoveries: true
        default: false
        }
    }

    /// The discoveries it holds.
    var discoveryCount: Int {
        switch self {
        case .event(.discovered): 1
        case .discoveries(let devices): devices.count
        default: 0
        }
    }

    /// The batcher that runs completions on `queue` and hands events to `handler` (dropped while nil).
    /// Items are posted on `host` (the host's own queue), whose blocks each hand over what they produced at once.
    /// Each discovery handed over is counted off `gate`.
    /// `holdsBulk` holds the discoveries back while true (``SerialBatcher``). `discoveries`, when given, takes each
    /// turn's discoveries at once (about ``SerialBatcher/turnLimit``, in order) instead of `handler` one by one.
    static func outbox(queue: DispatchQueue, gatheringOn host: DispatchQueue, gate: DiscoveryGate, holdsBulk: (() -> Bool)? = nil,
                       handler: (@Sendable (HostEvent) -> Void)?,
                       discoveries: (@Sendable ([DiscoveredDevice]) -> Void)? = nil) -> SerialBatcher<HostDelivery> {
        let bulkHandler: ((ArraySlice<HostDelivery>) -> Void)? = discoveries.map { discoveries in
            { items in
                gate.handedOver(items.reduce(0) { $0 + $1.discoveryCount })
                // A read's batch alone (the scan path) goes as it is; otherwise the turn's discoveries are joined.
                if items.count == 1, case .discoveries(let devices)? = items.first { return discoveries(devices) }
                var devices: [DiscoveredDevice] = []
                for item in items {
                    switch item {
                    case .event(.discovered(let device)): devices.append(device)
                    case .discoveries(let batch): devices += batch
                    default: break
                    }
                }
                discoveries(devices)
            }
        }
        return SerialBatcher(queue: queue, gatheringOn: host, isBulk: \.isBulk, weight: \.discoveryCount,
                             holdsBulk: holdsBulk, bulkHandler: bulkHandler) { item in
            switch item {
            case .event(let event):
                if case .discovered = event { gate.handedOver() }
                handler?(event)
            case .discoveries(let devices):
                gate.handedOver(devices.count)
                for device in devices { handler?(.discovered(device)) }
            case .completion(let work): work()
            }
        }
    }
}
