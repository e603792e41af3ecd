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
/// - Service filter: only devices whose merged data lists at least one of the UUIDs are reported.
public struct ScanResultMerger: Sendable {
    /// How the merger behaves; fixed for one scan.
    public struct Configuration: Sendable {
        /// True for an active scan (scan responses expected).
        public var isActive: Bool
        /// The longest a scannable advertisement waits for its scan response.
        public var responseWait: Duration
        /// Report a device again only when its data changed.
        public var filterDuplicates: Bool
        /// Report only devices advertising one of these services; nil or empty reports every device.
        public var serviceFilter: Set<BluetoothUUID>?
        /// Extracts the service UUIDs a device advertises from AD structures (Vol 3 Part C §11; Supplement Part A §1.1).
        public var serviceUUIDs: @Sendable ([UInt8]) -> Set<BluetoothUUID>

        /// Makes a configuration.
        public init(isActive: Bool, responseWait: Duration = .milliseconds(500), filterDuplicates: Bool,
                    serviceFilter: Set<BluetoothUUID>? = nil,
                    serviceUUIDs: @escaping @Sendable ([UInt8]) -> Set<BluetoothUUID> = ScanResultMerger.advertisedServiceUUIDs) {
            self.isActive = isActive
            self.responseWait = responseWait
            self.filterDuplicates = filterDuplicates
            self.serviceFilter = serviceFilter
            self.serviceUUIDs = serviceUUIDs
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

    /// The configuration in force.
    public let configuration: Configuration
    private var pending: [PeerAddress: Pending] = [:]
    private var lastResponse: [PeerAddress: [UInt8]] = [:]
    private var lastAdvertising: [PeerAddress: AdvertisingObservation] = [:]
    private var reported: [PeerAddress: Signature] = [:]

    /// Starts an empty merger.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The earliest instant at which ``tick(now:)`` has something to release; nil when nothing waits.
    public var nextDeadline: ContinuousClock.Instant? {
        pending.values.map(\.deadline).min()
    }

    /// Number of advertisements waiting for their scan response.
    public var pendingCount: Int { pending.count }

    /// Takes one received PDU at `now`; returns the devices to report now (zero or one).
    public mutating func receive(_ observation: AdvertisingObservation, now: ContinuousClock.Instant) -> [DiscoveredDevice] {
        let peer = observation.peer
        if observation.isScanResponse {
            lastResponse[peer] = observation.data
            let advertising: AdvertisingObservation
            if let held = pending.removeValue(forKey: peer) {
                advertising = held.observation
            } else if let previous = lastAdvertising[peer] {
                advertising = previous
            } else {
                return []  // A response with no advertisement seen yet: kept for the next advertisement.
            }
            var merged = device(from: advertising, response: observation.data)
            merged.rssi = observation.rssi ?? advertising.rssi
            return admit(merged)
        }
        lastAdvertising[peer] = observation
        if configuration.isActive && observation.isScannable {
            let deadline = pending[peer]?.deadline ?? now.advanced(by: configuration.responseWait)
            pending[peer] = Pending(observation: observation, deadline: deadline)
            return []
        }
        return admit(device(from: observation, response: nil))
    }

    /// Releases every held advertisement whose wait ended at or before `now`, with the last known response.
    public mutating func tick(now: ContinuousClock.Instant) -> [DiscoveredDevice] {
        let due = pending.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
        var devices: [DiscoveredDevice] = []
        for (peer, held) in due {
            pending[peer] = nil
            devices += admit(device(from: held.observation, response: lastResponse[peer]))
        }
        return devices
    }

    /// Releases everything still held (e.g. when the scan stops), then forgets all state.
    public mutating func flush() -> [DiscoveredDevice] {
        let held = pending.values.sorted { $0.deadline < $1.deadline }
        var devices: [DiscoveredDevice] = []
        for entry in held {
            devices += admit(device(from: entry.observation, response: lastResponse[entry.observation.peer]))
        }
        pending = [:]
        lastResponse = [:]
        lastAdvertising = [:]
        reported = [:]
        return devices
    }

    private func device(from advertising: AdvertisingObservation, response: [UInt8]?) -> DiscoveredDevice {
        DiscoveredDevice(peer: advertising.peer, rssi: advertising.rssi, txPower: advertising.txPower,
                         isConnectable: advertising.isConnectable, advertisingData: advertising.data,
                         scanResponseData: response)
    }

    private mutating func admit(_ device: DiscoveredDevice) -> [DiscoveredDevice] {
        if let filter = configuration.serviceFilter, !filter.isEmpty {
            guard !configuration.serviceUUIDs(device.mergedData).isDisjoint(with: filter) else { return [] }
        }
        if configuration.filterDuplicates {
            let signature = Signature(isConnectable: device.isConnectable, advertisingData: device.advertisingData,
                                      scanResponseData: device.scanResponseData)
            guard reported[device.peer] != signature else { return [] }
            reported[device.peer] = signature
        }
        return [device]
    }
}
