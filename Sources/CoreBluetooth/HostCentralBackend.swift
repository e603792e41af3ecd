// The CentralBackend over the host runtime: a CentralHost for the controller and each connection's GATTClient.
internal import OCBCore
import Dispatch
package import OCBHost
internal import OCBHCI

/// Drives a ``Host/CentralHost`` (``Host/HostController`` in full-host mode, ``Host/KernelHost`` on the kernel socket)
/// for the CoreBluetooth facade.
///
/// Threading: every command hops onto one private serial queue, which is also the host's event queue; GATT client
/// completions (run by the host on its own queue) hop onto it too, so all state below lives on that queue and
/// ``BackendEvent``s leave it in the order they happened.
///
/// State (``CBManagerState``) from the host:
/// - bring-up succeeded (Reset and the reads answered) → `.poweredOn`, with the controller's BD_ADDR (its own address
///   when BD_ADDR is all-zero) for peripheral identifiers; the controller's features become what
///   `CBCentralManager.supports(_:)` answers;
/// - ``Host/HostError/noBluetoothSupport`` (no AF_BLUETOOTH) → `.unsupported`; EPERM/EACCES → `.unauthorized`
///   (both final: no retry);
/// - transport closed, controller unplugged, Hardware Error, bring-up failed → `.poweredOff`; the host is then opened
///   again after 0.5 s, doubling up to 30 s, until it comes back (`.poweredOn`) or the manager goes away;
/// - a bring-up while `.poweredOn` was reported (a reset in place) → `.resetting`. The first bring-up and the retries
///   after `.poweredOff` are not reported: the state stays `.unknown` (as iOS before its first update) or `.poweredOff`.
///
/// Warnings (``warnsOnUnavailability``, `CBCentralManagerOptionShowPowerAlertKey`, default true): each change to
/// `.unsupported`, `.unauthorized` or `.poweredOff` logs one `[CoreBluetooth] WARNING: Bluetooth is unavailable
/// (state poweredOff): <reason>` line, the reason from the host error (``HostError/unavailabilityReason``) or the
/// host's "transport closed" diagnostic; the retries that follow log nothing more.
///
/// Connections: `connect` asks the host with no timeout (``Host/ConnectOptions/timeout`` nil, as iOS), then exchanges
/// the ATT MTU offering 517 (Core v5.4 Vol 3 Part F §3.4.2) before reporting `connected`, then (before any request of
/// the app) finds the Service Changed characteristic (0x2A05 in 0x1801) and enables its indications, as iOS does, so
/// the client's Service Changed handling reports ``BackendEvent/servicesChanged(_:range:)``.
package final class HostCentralBackend: CentralBackend, @unchecked Sendable {
    /// The host driven.
    package let host: any CentralHost
    /// The host's spares (``Host/DiscoveryRecordRecycling``), nil for a host that takes none.
    package let discoveryRecordSpares: DiscoveredDevice.Payload.Spares?
    /// The host's own queue (``Host/CentralHost/queue``): the backend's state and the host's share it, so an event
    /// costs no hand-over between threads on its way from the host to the facade.
    let queue: DispatchQueue

    // Everything below is touched on `queue` only.
    var handler: (@Sendable (BackendEvent) -> Void)?
    var stopped = false
    /// The last state reported to the facade; nil before the first.
    var reportedState: CBManagerState?
    var retryDelay: Double = 0.5
    var retryScheduled = false
    /// Log the unavailability warning (see the type's note); from the configuration's `showsPowerAlert`.
    var warnsOnUnavailability = true
    /// The state below `.poweredOn` reported and not yet warned about.
    var warningOwed: CBManagerState?
    /// The host's last word on a lost transport ("transport closed: end of file"), for the next warning.
    var lastTransportDiagnostic: String?
    /// Links by peer; `ready` once `connected` was reported.
    var links: [PeerAddress: Link] = [:]
    /// Peers with a connection attempt in the host.
    var connecting: Set<PeerAddress> = []
    /// One connection.
    struct Link {
        var handle: ConnectionHandle
        var ready: Bool
    }

    /// The longest wait between two attempts to open the controller again, seconds.
    static let maximumRetryDelay: Double = 30

    /// A backend over `host`; nothing happens until ``start(eventHandler:)``.
    package init(host: any CentralHost) {
        self.host = host
        discoveryRecordSpares = (host as? any DiscoveryRecordRecycling)?.discoveryRecordSpares
        queue = host.queue
        queue.setSpecific(key: Self.queueKey, value: true)
    }

    /// A backend for `configuration`: ``Host/KernelHost`` for `hciN`, ``Host/HostController`` otherwise.
    /// `configuration.btsnoopPath` records the session (on the kernel socket from the HCI monitor channel).
    package convenience init(configuration: CentralBackendConfiguration) {
        self.init(host: Self.makeHost(configuration.transport, btsnoopPath: configuration.btsnoopPath,
                                      stateDirectory: configuration.stateDirectory))
        warnsOnUnavailability = configuration.showsPowerAlert
    }

    /// The host for a transport: the kernel socket keeps BlueZ in charge; the user channel, TCP and serial
    /// transports give this process the whole controller (Reset and bring-up, Core v5.4 Vol 4 Part E §7.3.2).
    /// `btsnoopPath` becomes ``Host/KernelHost/btsnoopPath`` or ``Host/HostConfiguration/btsnoopPath``; bonds are kept
    /// under `stateDirectory` (the environment's when nil).
    package static func makeHost(_ transport: CentralTransport, btsnoopPath: String? = nil, stateDirectory: URL? = nil) -> any CentralHost {
        if case .hciSocket(let index, .raw) = transport { return KernelHost(controllerIndex: index, btsnoopPath: btsnoopPath, stateDirectory: stateDirectory) }
        var configuration = HostConfiguration(makeTransport: transport.makeTransportFactory(), btsnoopPath: btsnoopPath)
        configuration.security.stateDirectory = stateDirectory
        return HostController(configuration: configuration)
    }

    /// Sets the event handler and opens the host. Reports ``BackendEvent/stateChanged(_:controller:)`` from the
    /// first outcome of bring-up, then reopens a lost controller after 0.5 s, doubling up to 30 s (see the type's note).
    /// Events are emitted on ``queue``.
    package var eventQueue: DispatchQueue? { queue }

    /// The host's dropped discoveries (``Host/CentralHost/droppedDiscoveryCount``).
    package var droppedDiscoveryCount: Int { host.droppedDiscoveryCount }

    package func start(eventHandler: @escaping @Sendable (BackendEvent) -> Void) {
        queue.async { [self] in
            handler = eventHandler
            host.setEventHandler(queue: queue, { [weak self] event in self?.handle(event) },
                                 discoveries: { [weak self] devices in self?.handle(discoveries: devices) })
            open()
        }
    }

    /// Stops the host (connections end, the scan is ended on the controller, the transport closes) and drops the
    /// handler: no event follows. Final: the backend does not start again. Called from `CBCentralManager`'s deinit,
    /// it waits up to ``stopWait`` for the host to finish (unless called on the backend's own queue), so a process that
    /// releases its manager and exits leaves no scan running on a controller the kernel shares.
    package func stop() {
        let finished = DispatchSemaphore(value: 0)
        queue.async { [self] in
            guard !stopped else { finished.signal(); return }
            stopped = true
            handler = nil
            links = [:]
            connecting = []
            host.stop { _ = finished.signal() }
        }
        guard DispatchQueue.getSpecific(key: Self.queueKey) == nil else { return }
        _ = finished.wait(timeout: .now() + Self.stopWait)
    }

    /// The longest ``stop()`` waits for the host: its own wait for a scan's end (1 s) and a margin.
    static let stopWait: DispatchTimeInterval = .milliseconds(1_500)
    /// Marks ``queue`` so ``stop()`` does not wait on itself.
    static let queueKey = DispatchSpecificKey<Bool>()

    /// Runs an app's request (connect, cancel, scan, GATT) on `queue`: a reader's turn yields the queue to it during a
    /// flood of advertising reports (``Host/TurnFlush/request(on:_:)``).
    func submit(_ work: @escaping @Sendable () -> Void) {
        TurnFlush.request(on: queue, work)
    }

    /// Hands an event to the facade (on `queue`).
    func emit(_ event: BackendEvent) {
        handler?(event)
    }

    /// Hands an event to the facade from a callback of the host (a GATT completion or handler, on the host's queue),
    /// in order with everything else the host hands over (``Host/CentralHost/deliverOnEventQueue(_:)``): a value
    /// notified after a write's response never overtakes it.
    func post(_ event: BackendEvent) {
        host.deliverOnEventQueue { [self] in emitUnlessStopped(event) }
    }

    /// ``emit(_:)`` unless the backend stopped (on `queue`).
    func emitUnlessStopped(_ event: BackendEvent) {
        guard !stopped else { return }
        emit(event)
    }

    // MARK: State

    /// Opens the host (on `queue`).
    func open() {
        guard !stopped else { return }
        host.start { [weak self] result in
            guard let self else { return }
            // Completions arrive on `queue` (the host's event queue).
            switch result {
            case .success(let info):
                retryDelay = 0.5
                CentralBackendFactory.supportedFeatures = CBCentralManager.Feature(controller: info)
                let address = info.publicAddress == .zero ? info.ownAddress.address : info.publicAddress
                report(.poweredOn, controller: address)
            case .failure(let error):
                switch error {
                case .noBluetoothSupport: report(.unsupported)
                case .permissionDenied: report(.unauthorized)
                default:
                    report(.poweredOff)
                    scheduleRetry()
                }
                warn(error.unavailabilityReason)
            }
        }
    }

    /// Reports a state once (repeats are dropped); a state below `.poweredOn` forgets every link.
    func report(_ state: CBManagerState, controller: BluetoothAddress? = nil) {
        guard !stopped, state != reportedState || controller != nil else { return }
        reportedState = state
        if state != .poweredOn {
            links = [:]
            connecting = []
        }
        switch state {
        case .unsupported, .unauthorized, .poweredOff: warningOwed = state
        default: warningOwed = nil; lastTransportDiagnostic = nil
        }
        emit(.stateChanged(state, controller: controller))
    }

    /// Logs the warning owed for the last state reported, once (see the type's note).
    func warn(_ reason: String) {
        guard let state = warningOwed else { return }
        warningOwed = nil
        guard warnsOnUnavailability, !stopped else { return }
        let retrying = state == .poweredOff ? " (opening it again every 0.5 s to 30 s until it answers)" : ""
        Diagnostics.warning("Bluetooth is unavailable (state \(state)): \(reason)\(retrying)")
    }

    /// Opens the host again after the current delay, doubling it (on `queue`).
    func scheduleRetry() {
        guard !stopped, !retryScheduled else { return }
        retryScheduled = true
        let delay = retryDelay
        retryDelay = min(retryDelay * 2, Self.maximumRetryDelay)
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            retryScheduled = false
            if host.state != .poweredOn, host.state != .resetting { open() }
        }
    }

    /// A host state change (on `queue`). `.poweredOn` is reported from the start completion, which carries the address.
    func hostStateChanged(_ state: HostState) {
        switch state {
        case .unknown, .poweredOn: break
        case .resetting: if reportedState == .poweredOn { report(.resetting) }
        case .poweredOff:
            if reportedState != nil {
                report(.poweredOff)
                warn(lastTransportDiagnostic ?? "the controller was lost (transport closed, or a Hardware Error)")
            }
            scheduleRetry()
        case .unsupported: report(.unsupported)
        case .unauthorized: report(.unauthorized)
        }
    }

    // MARK: Host events

    /// A turn of the host's discoveries (on `queue`) to the facade as one event, as the host made them: not parsed here;
    /// the facade makes each one's report as received (``DiscoveryCandidate/makeReport()``) once coalescing keeps it.
    func handle(discoveries devices: [DiscoveredDevice]) {
        guard !stopped, !devices.isEmpty else { return }
        emit(.discovered(devices))
    }

    /// One host event (on `queue`).
    func handle(_ event: HostEvent) {
        guard !stopped else { return }
        switch event {
        case .stateChanged(let state): hostStateChanged(state)
        case .discovered(let device): handle(discoveries: [device])  // a host handing them over one by one
        case .pairingPrompt(let handle, let prompt, let id):
            if let peer = peer(handle: handle) { emit(.pairingPrompt(peer, prompt, id: id)) }
        case .securityChanged(let handle, let security):
            if let peer = peer(handle: handle) { emit(.securityChanged(peer, security)) }
        case .bonds(let bonds):
            emit(.bonded(bonds.compactMap { bond in
                guard let known = BluetoothAddress(bond.knownAddress.address), let identity = BluetoothAddress(bond.peer) else { return nil }
                return BondedPeer(known: PeerAddress(known, type: bond.knownAddress.isRandom ? .random : .public), identity: identity)
            }))
        case .scanStopped(let error):
            // A lost or stopped host reports its state change, which ends the facade's scan; anything else is news.
            if !error.meansControllerLost {
                scanFailed("scanning stopped: " + Self.scanFailureReason(error, sharedController: host is KernelHost))
            }
        case .connected(let info): linkUp(info)
        case .connectionFailed(let peer, let error): attemptFailed(peer, error)
        case .disconnected(let info, let reason, let error):
            let why: BackendError? = switch error {
            case .attTimeout?: .timeout
            case let error? where error.meansControllerLost: .controllerLost
            default: nil
            }
            linkDown(info.peer, handle: info.handle, reason: reason, error: why)
        case .readyToSendWriteWithoutResponse(let handle):
            if let peer = peer(handle: handle) { emit(.writeWithoutResponseAvailability(peer, canSend: true)) }
        case .notice(let line):
            Diagnostics.warning(line)
        case .diagnostic(let line):
            Diagnostics.debug(line)
        case .recordingProblem(let line):
            Diagnostics.warning(line)  // CBCentralManagerOptionBtsnoopPathKey asked for a file that is not (or no longer) written
        case .transportLost(let text):
            lastTransportDiagnostic = text
        case .controllerUnresponsive(let opcode):
            // Reset and re-initialise it now; the host's state change reports `.resetting` to the app.
            if warnsOnUnavailability {
                Diagnostics.warning("the controller did not answer \(opcode): resetting and re-initialising it (scanning stopped, connections ended)")
            }
            retryDelay = 0.5
            open()
        case .controllerAvailable:
            // The kernel says the controller is back: open it now rather than at the next retry.
            guard reportedState != .poweredOn, host.state != .poweredOn, host.state != .resetting else { return }
            retryDelay = 0.5
            open()
        default: break  // link parameter, data length and PHY updates; raw ATT PDUs (the GATT client has them); diagnostics.
        }
    }

    /// The peer of a connection handle, if it is one of ours.
    func peer(handle: ConnectionHandle) -> PeerAddress? {
        links.first { $0.value.handle == handle }?.key
    }
}
