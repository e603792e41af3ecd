// Pure scan-result logic: holds a scannable advertisement until its scan response (or a bounded wait), then filters duplicates and services.

import OCBAdvertising
import OCBCore
import OCBHCI

/// Turns received advertising PDUs into ``DiscoveredDevice`` reports (sans-I/O; time is injected).
///
/// - Active scanning: an advertisement that accepts scan requests is held until its scan response arrives,
///   then reported once with both; if none arrives within ``Configuration/responseWait`` it is reported at
///   ``tick(now:)`` with the last scan response seen from that device (nil if none ever came).
///   Core v5.4 Vol 6 Part B §4.4.3.2: a scanner sends SCAN_REQ and the advertiser answers SCAN_RSP.
/// - Passive scanning, or a non-scannable advertisement: reported at once, without scan response.
/// - Host duplicate filtering: a device is reported again only when its connectability, advertising data or
///   scan response data changed (RSSI changes alone do not count).
/// - Coalescing (``Configuration/coalesces``, Apple's rule for a scan without AllowDuplicates): a device is reported
///   once, and once more when a scan response comes that its first report lacked; data that merely changes is not
///   reported again.
/// - Service filter: only devices whose merged data lists at least one of the UUIDs are reported.
/// - Anonymous extended advertisements (Address_Type 0xFF) are reported one by one, never merged or filtered as
///   duplicates (there is no address to tell one advertiser from another), and leave no state.
/// - Bounds (everything here is fed from the air): at most ``Configuration/capacity`` advertisers are remembered
///   (held advertisement, last advertisement, last scan response, last report for the duplicate filter, the last
///   ``DiscoveredDevice/Payload`` made, which shares those arrays). A new one
///   beyond that first forgets the one heard from least recently; one not heard from for ``Configuration/maxAge``
///   is forgotten at the next receive or tick (checked at most once a second). A forgotten advertisement that was
///   held for its scan response is released, never dropped; a forgotten advertiser heard again is reported again.
///   At most ``DiscoveredDevice/Payload/Spares/capacity`` spare records are kept (``addSpares(_:)``), emptied by
///   ``flush()``.
public struct ScanResultMerger: Sendable {
    /// How the merger behaves; fixed for one scan.
    public struct Configuration: Sendable {
        /// True for an active scan (scan responses expected).
        public var isActive: Bool
        /// The longest a scannable advertisement waits for its scan response.
        public var responseWait: Duration
        /// Report a device again only when its data changed.
        public var filterDuplicates: Bool
        /// Report a device once, and once more when a scan response completes it (overrides ``filterDuplicates``).
        public var coalesces: Bool
        /// Report only devices advertising one of these services; nil or empty reports every device.
        public var serviceFilter: Set<BluetoothUUID>?
        /// Extracts the service UUIDs a device advertises from AD structures (Vol 3 Part C §11; Supplement Part A §1.1).
        public var serviceUUIDs: @Sendable ([UInt8]) -> Set<BluetoothUUID>
        /// The most advertisers remembered at once (at least 1); default 4,096.
        public var capacity: Int
        /// How long an advertiser not heard from is remembered; default 30 s.
        public var maxAge: Duration

        /// Makes a configuration.
        public init(isActive: Bool, responseWait: Duration = .milliseconds(500), filterDuplicates: Bool,
                    coalesces: Bool = false, serviceFilter: Set<BluetoothUUID>? = nil,
                    serviceUUIDs: @escaping @Sendable ([UInt8]) -> Set<BluetoothUUID> = ScanResultMerger.advertisedServiceUUIDs,
                    capacity: Int = 4_096, maxAge: Duration = .seconds(30)) {
            self.isActive = isActive
            self.responseWait = responseWait
            self.filterDuplicates = filterDuplicates
            self.coalesces = coalesces
            self.serviceFilter = serviceFilter
            self.serviceUUIDs = serviceUUIDs
            self.capacity = max(1, capacity)
            self.maxAge = maxAge
        }
    }

    /// The service UUIDs of every width listed in AD structures (Core v5.4 Vol 3 Part C §11; Supplement Part A §1.1),
    /// parsed leniently by ``Advertising/AdvertisingData``: a malformed structure contributes nothing, the rest counts.
    @Sendable public static func advertisedServiceUUIDs(_ data: [UInt8]) -> Set<BluetoothUUID> {
        Set(AdvertisingData(bytes: data).serviceUUIDs)
    }

    private struct Pending: Sendable {
        var observation: AdvertisingObservation
        var deadline: Stamp
    }

    /// An instant as the time since ``MonotonicStamp/origin``, one for the process: every instant the merger keeps and
    /// compares is one of these, a fixed-layout `Duration`, where `ContinuousClock.Instant` is opaque to code outside
    /// the standard library (each copy, comparison and optional of it a call through its value witnesses, and a stored
    /// one, the merger's origin was, makes the merger's layout, and the scan session's that holds it, known only at
    /// run time). Converted once per call at the public methods, or once per read by the host (``stamp(_:)``).
    package typealias Stamp = Duration

    private struct Signature: Hashable, Sendable {
        var isConnectable: Bool
        var advertisingData: [UInt8]
        var scanResponseData: [UInt8]?
    }

    /// What is remembered of one advertiser: one slot of ``slots``, changed in place through its index.
    private struct Advertiser: Sendable {
        var lastHeard: Stamp
        /// The instant of its entry in ``heard`` (at most one a second; the entry is current while this matches).
        var queuedAt: Stamp
        var lastAdvertising: AdvertisingObservation?
        var lastResponse: [UInt8]?
        var reported: Signature?
        /// The scannable advertisement held for its scan response, if one is.
        var pending: Pending?
        /// What it was last reported with (``DiscoveredDevice/Payload``), handed on again while it repeats: an
        /// advertiser repeating itself costs no allocation here or above.
        var lastPayload: DiscoveredDevice.Payload?
    }

    /// The configuration in force.
    public let configuration: Configuration
    /// The one table of advertisers: a slot each (reused once freed, ``freeSlots``), found through ``slotOf``. Every
    /// change to an advertiser is made in its slot (no copy of what it holds in and out of a dictionary).
    private var slots: [Advertiser] = []
    private var freeSlots: [Int] = []
    private var slotOf: [PeerAddress: Int] = [:]
    /// The number of slots holding an advertisement for its scan response.
    private var holding = 0
    /// The held advertisements in deadline order (every wait is the same length, so arrival order), oldest from
    /// `orderHead`; an entry whose advertiser is no longer held with that deadline is skipped. Its head is always
    /// held (``trimOrder()``), which makes ``nextDeadline`` O(1) on a path that asks for it after every report.
    private var order: [(peer: PeerAddress, deadline: Stamp)] = []
    private var orderHead = 0
    /// The advertisers in the order heard, oldest first from `heardHead`: an advertiser is queued when first heard and
    /// again when heard a second or more after its entry (so at most one entry a second each); an entry is current
    /// while it is the advertiser's `queuedAt`. Eviction and ageing take from the front, and an advertiser heard since
    /// its entry is queued again at its `lastHeard` instead of forgotten: least recently heard first, O(1) amortised,
    /// instead of a sort or a scan of every advertiser. At most four entries per advertiser (``compactHeard()``).
    private var heard: [(peer: PeerAddress, at: Stamp)] = []
    private var heardHead = 0
    private var nextAgeCheck: Stamp?
    /// How many advertisers were forgotten so far (a slot looked up before a forget may since be another's).
    private var forgotten = 0
    /// Records the layers above are done with (``addSpares(_:)``), about in the order handed back, from ``sparesHead``:
    /// the next new advertisement's record is made with the array of the first once nothing else holds it, instead of
    /// a new array (``DiscoveredDevice/Payload/reusingArray(of:isConnectable:advertisingData:)``). At most
    /// ``DiscoveredDevice/Payload/Spares/capacity``; a nil is one taken.
    private var spares: [DiscoveredDevice.Payload?] = []
    /// The oldest of ``spares`` still there (those before it were taken).
    private var sparesHead = 0

    /// Starts an empty merger.
    public init(configuration: Configuration) {
        self.configuration = configuration
        reportsEveryAdvertisement = !configuration.coalesces && !configuration.filterDuplicates
            && configuration.serviceFilter?.isEmpty ?? true
    }

    /// True when every advertisement is reported as it comes (no coalescing, duplicate filter or service filter: a
    /// scan with AllowDuplicates), which ``receive(_:at:into:)`` of a report read in place takes a short way for.
    private let reportsEveryAdvertisement: Bool

    /// The earliest instant at which ``tick(now:)`` has something to release; nil when nothing waits.
    public var nextDeadline: ContinuousClock.Instant? {
        nextDeadlineStamp.map(MonotonicStamp.instant)
    }

    /// ``nextDeadline`` as a ``Stamp`` (what the host compares after every report to see whether it moved).
    var nextDeadlineStamp: Stamp? {
        orderHead < order.count ? order[orderHead].deadline : nil
    }

    /// `now` as a ``Stamp``: what a host converts a read's instant to once, for each of its reports
    /// (``receive(_:at:into:)``).
    package static func stamp(_ now: ContinuousClock.Instant) -> Stamp { MonotonicStamp.of(now) }

    /// Whether `entry` of ``order`` is still held with its deadline.
    private func isHeld(_ entry: (peer: PeerAddress, deadline: Stamp)) -> Bool {
        guard let slot = slotOf[entry.peer] else { return false }
        return slots[slot].pending?.deadline == entry.deadline
    }

    /// Drops released entries from the front of ``order`` and compacts it once half of it is released.
    private mutating func trimOrder() {
        while orderHead < order.count, !isHeld(order[orderHead]) { orderHead += 1 }
        if orderHead == order.count {
            order.removeAll(keepingCapacity: order.count <= 8_192)
            orderHead = 0
        } else if orderHead > 64, orderHead * 2 > order.count {
            order.removeFirst(orderHead)
            orderHead = 0
        }
    }

    /// Number of advertisements waiting for their scan response.
    public var pendingCount: Int { holding }

    /// Takes `records` the layers above are done with (``DiscoveredDevice/Payload/Spares``), up to
    /// ``DiscoveredDevice/Payload/Spares/capacity`` kept: a scan that reports every advertisement (AllowDuplicates)
    /// makes the record of each new advertisement of an advertiser it knows with the array of one that nothing else
    /// holds any more, instead of a new array. One still held elsewhere when its turn comes is let go (``uniqueSpare()``).
    package mutating func addSpares(_ records: consuming [DiscoveredDevice.Payload]) {
        if sparesHead > 0 {
            spares.removeFirst(sparesHead)
            sparesHead = 0
        }
        while spares.count < DiscoveredDevice.Payload.Spares.capacity, let record = records.popLast() { spares.append(record) }
    }

    /// True when the merger uses spare records (a scan that reports every advertisement: AllowDuplicates, no service
    /// filter) and has fewer than two hand-overs' worth of them (512), so it would take more.
    package var wantsSpares: Bool { reportsEveryAdvertisement && spares.count - sparesHead < 512 }

    /// How many new records were made with a spare's array so far (a test's and a profile's look at the reuse).
    package private(set) var sparesUsed = 0

    /// The first spare record nothing else holds, taken out; nil when there is none. Those in front of it that are still
    /// held are let go on the way (the layers above hand a record back once their batch let it go, so one still held is
    /// its advertiser's last record here, or an app's: it is freed, by whoever lets it go last, as any record is).
    private mutating func uniqueSpare() -> DiscoveredDevice.Payload? {
        defer {
            if sparesHead == spares.count {
                spares.removeAll(keepingCapacity: true)
                sparesHead = 0
            } else if sparesHead >= 256 {
                spares.removeFirst(sparesHead)
                sparesHead = 0
            }
        }
        while sparesHead < spares.count {
            var spare = spares[sparesHead].take()
            sparesHead += 1
            if isKnownUniquelyReferenced(&spare) {
                sparesUsed &+= 1
                return spare
            }
        }
        return nil
    }

    /// Number of advertisers remembered (at most ``Configuration/capacity``).
    public var advertiserCount: Int { slotOf.count }

    /// Takes one received PDU at `now`; returns the devices to report now: zero or one for the PDU, after any held
    /// advertisement of an advertiser forgotten to stay within the bounds.
    public mutating func receive(_ observation: AdvertisingObservation, now: ContinuousClock.Instant) -> [DiscoveredDevice] {
        var devices: [DiscoveredDevice] = []
        receive(observation, now: now, into: &devices)
        return devices
    }

    /// ``receive(_:now:)`` appending the devices to report to `devices` (the host's buffer for one read, so a report
    /// costs no array of its own).
    public mutating func receive(_ observation: AdvertisingObservation, now: ContinuousClock.Instant, into devices: inout [DiscoveredDevice]) {
        receive(observation, at: Self.stamp(now), into: &devices)
    }

    /// ``receive(_:now:into:)`` at a time already converted (``stamp(_:)``).
    package mutating func receive(_ observation: AdvertisingObservation, at now: Stamp, into devices: inout [DiscoveredDevice]) {
        receive(observation, slot: slotOf[observation.peer], now: now, into: &devices)
    }

    /// Takes one report of a legacy PDU read in place (``HCI/LEAdvertisingReportView``) at `now`, as ``receive(_:now:)`` does.
    /// Its data is copied out of the packet only when it differs from what the advertiser sent last in the same role
    /// (advertisement or scan response): an advertiser repeating itself, as beacons and sensors do between readings,
    /// costs no allocation here.
    public mutating func receive(_ report: LEAdvertisingReportView.Report, now: ContinuousClock.Instant) -> [DiscoveredDevice] {
        var devices: [DiscoveredDevice] = []
        receive(report, now: now, into: &devices)
        return devices
    }

    /// ``receive(_:now:)`` of a report read in place, appending the devices to report to `devices`.
    public mutating func receive(_ report: LEAdvertisingReportView.Report, now: ContinuousClock.Instant, into devices: inout [DiscoveredDevice]) {
        receive(report, at: Self.stamp(now), into: &devices)
    }

    /// ``receive(_:now:into:)`` at a time already converted (``stamp(_:)``: a host's read, once for its reports).
    package mutating func receive(_ report: LEAdvertisingReportView.Report, at now: Stamp, into devices: inout [DiscoveredDevice]) {
        let peer = PeerAddress(report.address, type: report.addressType)
        let slot = slotOf[peer]
        let isScanResponse = report.isScanResponse
        var data: [UInt8]?
        if let slot {
            // The field alone, through the buffer's addressor: not the slot copied whole.
            let known = slots.withUnsafeBufferPointer { isScanResponse ? $0[slot].lastResponse : $0[slot].lastAdvertising?.data }
            if let known, Self.sameBytes(known, report.data) { data = known }
        }
        // The short way, what the general one does in this case: an advertisement (not held for a scan response) of an
        // advertiser remembered, in a scan that reports each one, when no advertiser is due to be aged out. Made from
        // the report's fields, the observation kept is not copied on the way. Bytes that neither the last advertisement
        // nor the advertiser's last record hold go into a spare record nothing else holds when there is one, else into
        // a new one.
        if reportsEveryAdvertisement, let slot, !isScanResponse, !(configuration.isActive && report.isScannable),
           !peer.isAnonymous, let next = nextAgeCheck, now < next {
            heard(slot, peer, now: now)
            let payload: DiscoveredDevice.Payload
            let bytes: [UInt8]
            if data == nil,
               !withSlot(slot, { $0.lastPayload?.holdsAdvertisement(isConnectable: report.isConnectable, report.data) ?? false }),
               let spare = uniqueSpare() {
                payload = DiscoveredDevice.Payload.reusingArray(of: consume spare, isConnectable: report.isConnectable,
                                                                advertisingData: report.data)
                slots[slot].lastPayload = payload
                bytes = payload.advertisingData
            } else {
                bytes = data ?? Self.ownArray(report.data)
                payload = self.payload(isConnectable: report.isConnectable, isTruncated: false, advertisingData: bytes, response: nil,
                                       slot: slot)
            }
            devices.append(DiscoveredDevice(peer: peer, rssi: report.rssi, txPower: report.txPower, payload: payload))
            slots[slot].lastAdvertising = AdvertisingObservation(peer: peer, isConnectable: report.isConnectable,
                                                                 isScannable: report.isScannable, isScanResponse: false,
                                                                 rssi: report.rssi, txPower: report.txPower, data: bytes)
            return
        }
        let bytes = data ?? Self.ownArray(report.data)
        let observation = AdvertisingObservation(peer: peer, isConnectable: report.isConnectable, isScannable: report.isScannable,
                                                 isScanResponse: isScanResponse, rssi: report.rssi, txPower: report.txPower,
                                                 data: bytes)
        receive(observation, slot: slot, now: now, into: &devices)
    }

    /// Notes that the advertiser in `slot` (`peer`) was heard at `now`: queued again in ``heard`` when a second or more
    /// passed since its entry.
    private mutating func heard(_ slot: Int, _ peer: PeerAddress, now: Stamp) {
        slots[slot].lastHeard = now
        if now >= withSlot(slot, { $0.queuedAt }) + .seconds(1) {
            slots[slot].queuedAt = now
            heard.append((peer, now))
            compactHeard()
        }
    }

    /// Reads from an advertiser's slot where it lies (an array element read through the subscript is copied whole,
    /// with a retain and a release of everything it holds).
    @inline(__always) private func withSlot<T>(_ slot: Int, _ body: (borrowing Advertiser) -> T) -> T {
        slots.withUnsafeBufferPointer { body($0[slot]) }
    }

    /// `bytes` in an array of their own with room for a whole legacy advertisement (31 octets, Core v5.4 Vol 6 Part B
    /// §2.3.1): when its record comes back as a spare (``addSpares(_:)``), any later legacy advertisement is written
    /// into it in place.
    private static func ownArray(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var array: [UInt8] = []
        array.reserveCapacity(max(31, bytes.count))
        array.append(contentsOf: bytes)
        return array
    }

    /// True when `stored` and `received` are the same bytes.
    private static func sameBytes(_ stored: [UInt8], _ received: ArraySlice<UInt8>) -> Bool {
        stored.withUnsafeBytes { a in received.withUnsafeBytes { b in OCBHost.sameBytes(a, b) } }
    }

    /// The one implementation of both: `slot` is the advertiser's, nil when it is not remembered.
    private mutating func receive(_ observation: consuming AdvertisingObservation, slot known: Int?, now: Stamp,
                                  into devices: inout [DiscoveredDevice]) {
        defer { trimOrder() }
        let peer = observation.peer
        let forgottenBefore = forgotten
        ageOut(now: now, into: &devices)
        // Anonymous advertisements have no address to key merging or duplicate filtering by: each is its own report
        // (they are neither connectable nor scannable, Vol 6 Part B §2.3.1), and none is remembered.
        if observation.isAnonymous {
            guard !observation.isScanResponse else { return }
            return admit(device(from: observation, response: nil, slot: nil), slot: nil, into: &devices)
        }
        // Ageing out may have freed the slot looked up before: look again only when it forgot an advertiser.
        let slot: Int
        if let known, forgotten == forgottenBefore {
            slot = known
        } else if let found = slotOf[peer] {
            slot = found
        } else {
            if slotOf.count >= configuration.capacity { evictLeastRecentlyHeard(into: &devices) }
            slot = allocate(peer, now: now)
            heard.append((peer, now))
        }
        heard(slot, peer, now: now)
        if observation.isScanResponse {
            slots[slot].lastResponse = observation.data
            let advertising: AdvertisingObservation
            if let held = withSlot(slot, { $0.pending }) {
                slots[slot].pending = nil
                holding -= 1
                advertising = held.observation
            } else if let previous = withSlot(slot, { $0.lastAdvertising }) {
                advertising = previous
            } else {
                return  // A response with no advertisement seen yet: kept for the next advertisement.
            }
            var merged = device(from: advertising, response: observation.data, slot: slot)
            merged.rssi = observation.rssi ?? advertising.rssi
            return admit(merged, slot: slot, into: &devices)
        }
        slots[slot].lastAdvertising = observation
        if configuration.isActive && observation.isScannable {
            if let held = withSlot(slot, { $0.pending?.deadline }) {
                slots[slot].pending = Pending(observation: observation, deadline: held)
            } else {
                let deadline = now + configuration.responseWait
                slots[slot].pending = Pending(observation: observation, deadline: deadline)
                holding += 1
                order.append((peer, deadline))
            }
            return
        }
        // Coalesced, and reported already with all it will get: nothing to build (the common case of a scan).
        if configuration.coalesces, withSlot(slot, { $0.reported != nil }) { return }
        admit(device(from: observation, response: nil, slot: slot), slot: slot, into: &devices)
    }

    /// A slot for a new advertiser `peer` heard at `now`: a freed one, else a new one.
    private mutating func allocate(_ peer: PeerAddress, now: Stamp) -> Int {
        let advertiser = Advertiser(lastHeard: now, queuedAt: now)
        let slot: Int
        if let free = freeSlots.popLast() {
            slots[free] = advertiser
            slot = free
        } else {
            slots.append(advertiser)
            slot = slots.count - 1
        }
        slotOf[peer] = slot
        return slot
    }

    /// Releases every held advertisement whose wait ended at or before `now`, with the last known response, and
    /// forgets advertisers older than ``Configuration/maxAge``.
    public mutating func tick(now instant: ContinuousClock.Instant) -> [DiscoveredDevice] {
        let now = Self.stamp(instant)
        var devices: [DiscoveredDevice] = []
        while orderHead < order.count, order[orderHead].deadline <= now {
            let entry = order[orderHead]
            orderHead += 1
            guard let slot = slotOf[entry.peer], let held = slots[slot].pending, held.deadline == entry.deadline else { continue }
            slots[slot].pending = nil
            holding -= 1
            admit(device(from: held.observation, response: slots[slot].lastResponse, slot: slot), slot: slot, into: &devices)
        }
        ageOut(now: now, into: &devices)
        trimOrder()
        return devices
    }

    /// Forgets advertisers not heard from within ``Configuration/maxAge`` (at most once a second).
    private mutating func ageOut(now: Stamp, into devices: inout [DiscoveredDevice]) {
        if let next = nextAgeCheck, now < next { return }
        nextAgeCheck = now + .seconds(1)
        let oldest = now - configuration.maxAge
        var stale: [PeerAddress] = []
        while heardHead < heard.count, heard[heardHead].at < oldest {
            let entry = heard[heardHead]
            heardHead += 1
            switch frontEntry(entry) {
            case .stale: continue
            case .heardSince(let instant) where instant >= oldest: requeue(entry.peer, at: instant)
            case .heardSince, .current: stale.append(entry.peer)
            }
        }
        compactHeard()
        forget(stale, into: &devices)
    }

    /// Forgets the advertiser heard from least recently.
    private mutating func evictLeastRecentlyHeard(into devices: inout [DiscoveredDevice]) {
        while heardHead < heard.count {
            let entry = heard[heardHead]
            heardHead += 1
            switch frontEntry(entry) {
            case .stale: continue
            case .heardSince(let instant): requeue(entry.peer, at: instant)
            case .current: return forget([entry.peer], into: &devices)
            }
        }
    }

    /// What an entry taken from the front of ``heard`` says.
    private enum FrontEntry {
        /// Not the advertiser's entry any more (forgotten, or queued again later).
        case stale
        /// The advertiser's entry, and it was heard since, last at this instant.
        case heardSince(Stamp)
        /// The advertiser's entry, and it was not heard since.
        case current
    }

    private func frontEntry(_ entry: (peer: PeerAddress, at: Stamp)) -> FrontEntry {
        guard let slot = slotOf[entry.peer], slots[slot].queuedAt == entry.at else { return .stale }
        let lastHeard = slots[slot].lastHeard
        return lastHeard > entry.at ? .heardSince(lastHeard) : .current
    }

    /// Queues `peer` again at `instant`, the last time it was heard.
    private mutating func requeue(_ peer: PeerAddress, at instant: Stamp) {
        guard let slot = slotOf[peer] else { return }
        slots[slot].queuedAt = instant
        heard.append((peer, instant))
    }

    /// Drops the consumed front of ``heard`` once it is half of it, and its stale entries once they outnumber the
    /// current ones three to one (each pass O(n), after at least n receives).
    private mutating func compactHeard() {
        if heardHead > 1_024, heardHead * 2 > heard.count {
            heard.removeFirst(heardHead)
            heardHead = 0
        }
        if heard.count - heardHead > 4 * max(slotOf.count, 256) {
            heard = heard[heardHead...].filter { entry in slotOf[entry.peer].map { slots[$0].queuedAt == entry.at } ?? false }
            heardHead = 0
        }
    }

    /// Forgets `peers`, releasing their held advertisements first (with the last response seen); their slots are
    /// emptied (what they held is freed) and reused.
    private mutating func forget(_ peers: [PeerAddress], into devices: inout [DiscoveredDevice]) {
        for peer in peers {
            guard let slot = slotOf.removeValue(forKey: peer) else { continue }
            forgotten &+= 1
            if let held = withSlot(slot, { $0.pending }) {
                holding -= 1
                // Through the filters with what the slot still says was reported: an unchanged advertisement held
                // for its scan response is not reported again because its advertiser is forgotten.
                admit(device(from: held.observation, response: withSlot(slot) { $0.lastResponse }, slot: nil), slot: slot, into: &devices)
            }
            slots[slot] = Advertiser(lastHeard: slots[slot].lastHeard, queuedAt: slots[slot].queuedAt)
            freeSlots.append(slot)
        }
    }

    /// Forgets what the duplicate filter last reported of `peer`, so its next PDU is reported even if unchanged: for
    /// a report the host could not pass on (its handler's bound was full), which must not hide the device for good.
    public mutating func forgetReported(_ peer: PeerAddress) {
        if let slot = slotOf[peer] { slots[slot].reported = nil }
    }

    /// Releases everything still held (e.g. when the scan stops), then forgets all state and its memory.
    public mutating func flush() -> [DiscoveredDevice] {
        let held = slotOf.values.compactMap { slot in slots[slot].pending.map { (slot, $0) } }.sorted { $0.1.deadline < $1.1.deadline }
        var devices: [DiscoveredDevice] = []
        for (slot, entry) in held {
            admit(device(from: entry.observation, response: slots[slot].lastResponse, slot: nil), slot: slot, into: &devices)
        }
        slots = []
        freeSlots = []
        slotOf = [:]
        holding = 0
        order = []
        orderHead = 0
        heard = []
        heardHead = 0
        nextAgeCheck = nil
        spares = []
        sparesHead = 0
        return devices
    }

    /// The device to report of `advertising` and `response`, with the advertiser's last payload when it holds the same
    /// (`slot` is the advertiser's; nil for an anonymous one, which keeps nothing).
    private mutating func device(from advertising: borrowing AdvertisingObservation, response: [UInt8]?, slot: Int?) -> DiscoveredDevice {
        let payload = payload(isConnectable: advertising.isConnectable, isTruncated: advertising.isTruncated,
                              advertisingData: advertising.data, response: response, slot: slot)
        return DiscoveredDevice(peer: advertising.peer, rssi: advertising.rssi, txPower: advertising.txPower, payload: payload)
    }

    /// The record of these values: the advertiser's last one when it holds the same (`slot` is the advertiser's; nil for
    /// an anonymous one, which keeps nothing), else a new one, kept as its last.
    private mutating func payload(isConnectable: Bool, isTruncated: Bool, advertisingData: [UInt8], response: [UInt8]?,
                                  slot: Int?) -> DiscoveredDevice.Payload {
        guard let slot else {
            return DiscoveredDevice.Payload(isConnectable: isConnectable, isTruncated: isTruncated,
                                            advertisingData: advertisingData, scanResponseData: response)
        }
        let last = withSlot(slot) { advertiser -> DiscoveredDevice.Payload? in
            guard let last = advertiser.lastPayload,
                  last.holds(isConnectable: isConnectable, isTruncated: isTruncated, advertisingData: advertisingData,
                             scanResponseData: response) else { return nil }
            return last
        }
        if let last { return last }
        let payload = DiscoveredDevice.Payload(isConnectable: isConnectable, isTruncated: isTruncated,
                                               advertisingData: advertisingData, scanResponseData: response)
        slots[slot].lastPayload = payload
        return payload
    }

    /// Applies the service filter, then (for a remembered advertiser, `slot`) coalescing or the duplicate filter: the
    /// device to report (appended to `devices`), or none.
    private mutating func admit(_ device: consuming DiscoveredDevice, slot: Int?, into devices: inout [DiscoveredDevice]) {
        if let filter = configuration.serviceFilter, !filter.isEmpty {
            guard !configuration.serviceUUIDs(device.mergedData).isDisjoint(with: filter) else { return }
        }
        guard let slot, configuration.coalesces || configuration.filterDuplicates else { return devices.append(device) }
        let isRepeat = withSlot(slot) { advertiser -> Bool in
            guard let reported = advertiser.reported else { return false }
            if configuration.coalesces { return reported.scanResponseData != nil || device.scanResponseData == nil }
            return reported.isConnectable == device.isConnectable && reported.advertisingData == device.advertisingData
                && reported.scanResponseData == device.scanResponseData
        }
        if isRepeat { return }
        slots[slot].reported = Signature(isConnectable: device.isConnectable, advertisingData: device.advertisingData,
                                         scanResponseData: device.scanResponseData)
        devices.append(device)
    }
}
