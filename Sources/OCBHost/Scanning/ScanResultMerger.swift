// Pure scan-result logic: holds a scannable advertisement until its scan response (or a bounded wait), then filters duplicates and services.

import OCBAdvertising
import OCBCore

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
///   (held advertisement, last advertisement, last scan response, last report for the duplicate filter). A new one
///   beyond that first forgets the one heard from least recently; one not heard from for ``Configuration/maxAge``
///   is forgotten at the next receive or tick (checked at most once a second). A forgotten advertisement that was
///   held for its scan response is released, never dropped; a forgotten advertiser heard again is reported again.
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
        var deadline: ContinuousClock.Instant
    }

    private struct Signature: Hashable, Sendable {
        var isConnectable: Bool
        var advertisingData: [UInt8]
        var scanResponseData: [UInt8]?
    }

    /// What is remembered of one advertiser.
    private struct Advertiser: Sendable {
        var lastHeard: ContinuousClock.Instant
        /// The instant of its entry in ``heard`` (at most one a second; the entry is current while this matches).
        var queuedAt: ContinuousClock.Instant
        var lastAdvertising: AdvertisingObservation?
        var lastResponse: [UInt8]?
        var reported: Signature?
    }

    /// The configuration in force.
    public let configuration: Configuration
    private var pending: [PeerAddress: Pending] = [:]
    /// The held advertisements in deadline order (every wait is the same length, so arrival order), oldest from
    /// `orderHead`; an entry whose advertiser is no longer held with that deadline is skipped. Its head is always
    /// held (``trimOrder()``), which makes ``nextDeadline`` O(1) on a path that asks for it after every report.
    private var order: [(peer: PeerAddress, deadline: ContinuousClock.Instant)] = []
    private var orderHead = 0
    /// The advertisers in the order heard, oldest first from `heardHead`: an advertiser is queued when first heard and
    /// again when heard a second or more after its entry (so at most one entry a second each); an entry is current
    /// while it is the advertiser's `queuedAt`. Eviction and ageing take from the front, and an advertiser heard since
    /// its entry is queued again at its `lastHeard` instead of forgotten: least recently heard first, O(1) amortised,
    /// instead of a sort or a scan of every advertiser. At most four entries per advertiser (``compactHeard()``).
    private var heard: [(peer: PeerAddress, at: ContinuousClock.Instant)] = []
    private var heardHead = 0
    private var advertisers: [PeerAddress: Advertiser] = [:]
    private var nextAgeCheck: ContinuousClock.Instant?

    /// Starts an empty merger.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The earliest instant at which ``tick(now:)`` has something to release; nil when nothing waits.
    public var nextDeadline: ContinuousClock.Instant? {
        orderHead < order.count ? order[orderHead].deadline : nil
    }

    /// Whether `entry` of ``order`` is still held with its deadline.
    private func isHeld(_ entry: (peer: PeerAddress, deadline: ContinuousClock.Instant)) -> Bool {
        pending[entry.peer]?.deadline == entry.deadline
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
    public var pendingCount: Int { pending.count }

    /// Number of advertisers remembered (at most ``Configuration/capacity``).
    public var advertiserCount: Int { advertisers.count }

    /// Takes one received PDU at `now`; returns the devices to report now: zero or one for the PDU, after any held
    /// advertisement of an advertiser forgotten to stay within the bounds.
    public mutating func receive(_ observation: AdvertisingObservation, now: ContinuousClock.Instant) -> [DiscoveredDevice] {
        defer { trimOrder() }
        let peer = observation.peer
        var devices = ageOut(now: now)
        // Anonymous advertisements have no address to key merging or duplicate filtering by: each is its own report
        // (they are neither connectable nor scannable, Vol 6 Part B §2.3.1), and none is remembered.
        if observation.isAnonymous {
            guard !observation.isScanResponse else { return devices }
            return devices + admit(device(from: observation, response: nil), remember: false)
        }
        // One lookup, and the advertiser changed in place through its index (no copy of what it holds).
        let index: [PeerAddress: Advertiser].Index
        if let known = advertisers.index(forKey: peer) {
            index = known
        } else {
            if advertisers.count >= configuration.capacity { devices += evictLeastRecentlyHeard() }
            advertisers[peer] = Advertiser(lastHeard: now, queuedAt: now)
            heard.append((peer, now))
            guard let added = advertisers.index(forKey: peer) else { return devices }
            index = added
        }
        advertisers.values[index].lastHeard = now
        if now >= advertisers.values[index].queuedAt.advanced(by: .seconds(1)) {
            advertisers.values[index].queuedAt = now
            heard.append((peer, now))
            compactHeard()
        }
        if observation.isScanResponse {
            advertisers.values[index].lastResponse = observation.data
            let advertising: AdvertisingObservation
            if let held = pending.removeValue(forKey: peer) {
                advertising = held.observation
            } else if let previous = advertisers.values[index].lastAdvertising {
                advertising = previous
            } else {
                return devices  // A response with no advertisement seen yet: kept for the next advertisement.
            }
            var merged = device(from: advertising, response: observation.data)
            merged.rssi = observation.rssi ?? advertising.rssi
            return devices + admit(merged)
        }
        advertisers.values[index].lastAdvertising = observation
        if configuration.isActive && observation.isScannable {
            if let held = pending[peer]?.deadline {
                pending[peer] = Pending(observation: observation, deadline: held)
            } else {
                let deadline = now.advanced(by: configuration.responseWait)
                pending[peer] = Pending(observation: observation, deadline: deadline)
                order.append((peer, deadline))
            }
            return devices
        }
        return devices + admit(device(from: observation, response: nil))
    }

    /// Releases every held advertisement whose wait ended at or before `now`, with the last known response, and
    /// forgets advertisers older than ``Configuration/maxAge``.
    public mutating func tick(now: ContinuousClock.Instant) -> [DiscoveredDevice] {
        var devices: [DiscoveredDevice] = []
        while orderHead < order.count, order[orderHead].deadline <= now {
            let entry = order[orderHead]
            orderHead += 1
            guard isHeld(entry), let held = pending.removeValue(forKey: entry.peer) else { continue }
            devices += admit(device(from: held.observation, response: advertisers[entry.peer]?.lastResponse))
        }
        devices += ageOut(now: now)
        trimOrder()
        return devices
    }

    /// Forgets advertisers not heard from within ``Configuration/maxAge`` (at most once a second).
    private mutating func ageOut(now: ContinuousClock.Instant) -> [DiscoveredDevice] {
        if let next = nextAgeCheck, now < next { return [] }
        nextAgeCheck = now.advanced(by: .seconds(1))
        let oldest = now.advanced(by: .zero - configuration.maxAge)
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
        return forget(stale)
    }

    /// Forgets the advertiser heard from least recently.
    private mutating func evictLeastRecentlyHeard() -> [DiscoveredDevice] {
        while heardHead < heard.count {
            let entry = heard[heardHead]
            heardHead += 1
            switch frontEntry(entry) {
            case .stale: continue
            case .heardSince(let instant): requeue(entry.peer, at: instant)
            case .current: return forget([entry.peer])
            }
        }
        return []
    }

    /// What an entry taken from the front of ``heard`` says.
    private enum FrontEntry {
        /// Not the advertiser's entry any more (forgotten, or queued again later).
        case stale
        /// The advertiser's entry, and it was heard since, last at this instant.
        case heardSince(ContinuousClock.Instant)
        /// The advertiser's entry, and it was not heard since.
        case current
    }

    private func frontEntry(_ entry: (peer: PeerAddress, at: ContinuousClock.Instant)) -> FrontEntry {
        guard let advertiser = advertisers[entry.peer], advertiser.queuedAt == entry.at else { return .stale }
        return advertiser.lastHeard > entry.at ? .heardSince(advertiser.lastHeard) : .current
    }

    /// Queues `peer` again at `instant`, the last time it was heard.
    private mutating func requeue(_ peer: PeerAddress, at instant: ContinuousClock.Instant) {
        guard let index = advertisers.index(forKey: peer) else { return }
        advertisers.values[index].queuedAt = instant
        heard.append((peer, instant))
    }

    /// Drops the consumed front of ``heard`` once it is half of it, and its stale entries once they outnumber the
    /// current ones three to one (each pass O(n), after at least n receives).
    private mutating func compactHeard() {
        if heardHead > 1_024, heardHead * 2 > heard.count {
            heard.removeFirst(heardHead)
            heardHead = 0
        }
        if heard.count - heardHead > 4 * max(advertisers.count, 256) {
            heard = heard[heardHead...].filter { advertisers[$0.peer]?.queuedAt == $0.at }
            heardHead = 0
        }
    }

    /// Forgets `peers`, releasing their held advertisements first (with the last response seen).
    private mutating func forget(_ peers: [PeerAddress]) -> [DiscoveredDevice] {
        var devices: [DiscoveredDevice] = []
        for peer in peers {
            if let held = pending.removeValue(forKey: peer) {
                devices += admit(device(from: held.observation, response: advertisers[peer]?.lastResponse))
            }
            advertisers[peer] = nil
        }
        return devices
    }

    /// Forgets what the duplicate filter last reported of `peer`, so its next PDU is reported even if unchanged: for
    /// a report the host could not pass on (its handler's bound was full), which must not hide the device for good.
    public mutating func forgetReported(_ peer: PeerAddress) {
        if let index = advertisers.index(forKey: peer) { advertisers.values[index].reported = nil }
    }

    /// Releases everything still held (e.g. when the scan stops), then forgets all state.
    public mutating func flush() -> [DiscoveredDevice] {
        let held = pending.values.sorted { $0.deadline < $1.deadline }
        var devices: [DiscoveredDevice] = []
        for entry in held {
            devices += admit(device(from: entry.observation, response: advertisers[entry.observation.peer]?.lastResponse))
        }
        pending = [:]
        advertisers = [:]
        order = []
        orderHead = 0
        heard = []
        heardHead = 0
        nextAgeCheck = nil
        return devices
    }

    private func device(from advertising: AdvertisingObservation, response: [UInt8]?) -> DiscoveredDevice {
        var device = DiscoveredDevice(peer: advertising.peer, rssi: advertising.rssi, txPower: advertising.txPower,
                                      isConnectable: advertising.isConnectable, advertisingData: advertising.data,
                                      scanResponseData: response)
        device.isTruncated = advertising.isTruncated
        return device
    }

    private mutating func admit(_ device: DiscoveredDevice, remember: Bool = true) -> [DiscoveredDevice] {
        if let filter = configuration.serviceFilter, !filter.isEmpty {
            guard !configuration.serviceUUIDs(device.mergedData).isDisjoint(with: filter) else { return [] }
        }
        if configuration.coalesces, remember {
            if let reported = advertisers[device.peer]?.reported, reported.scanResponseData != nil || device.scanResponseData == nil {
                return []
            }
            advertisers[device.peer]?.reported = Signature(isConnectable: device.isConnectable, advertisingData: device.advertisingData,
                                                           scanResponseData: device.scanResponseData)
        } else if configuration.filterDuplicates, remember {
            let signature = Signature(isConnectable: device.isConnectable, advertisingData: device.advertisingData,
                                      scanResponseData: device.scanResponseData)
            guard advertisers[device.peer]?.reported != signature else { return [] }
            advertisers[device.peer]?.reported = signature
        }
        return [device]
    }
}
