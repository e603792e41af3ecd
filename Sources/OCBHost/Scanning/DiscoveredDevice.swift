// A device found by a scan: its address, signal, connectability and merged advertising and scan-response data.

/// A discovery the host reports while scanning.
///
/// `advertisingData` and `scanResponseData` are the raw AD structures (Core v5.4 Vol 3 Part C §11);
/// ``mergedData`` is both concatenated, advertising first, which is what the facade parses into
/// advertisement data (a field present in both is read from the advertising data first).
public struct DiscoveredDevice: Sendable, Hashable {
    /// Who advertised.
    public var peer: PeerAddress
    /// Signal strength of the latest PDU in dBm; nil when the controller gave 127 (unavailable).
    public var rssi: Int8?
    /// TX power in dBm from an extended report; nil when unavailable.
    public var txPower: Int8?
    /// True when the advertising PDU was connectable.
    public var isConnectable: Bool
    /// The advertising data (AD structures).
    public var advertisingData: [UInt8]
    /// The scan response data; nil when none arrived (passive scan, non-scannable advertiser, or the wait ran out).
    public var scanResponseData: [UInt8]?
    /// True when the advertising data is what came of a chain the controller could not receive whole (see
    /// ``AdvertisingObservation/isTruncated``).
    public var isTruncated = false

    /// Makes the value.
    public init(peer: PeerAddress, rssi: Int8?, txPower: Int8? = nil, isConnectable: Bool,
                advertisingData: [UInt8], scanResponseData: [UInt8]?) {
        self.peer = peer
        self.rssi = rssi
        self.txPower = txPower
        self.isConnectable = isConnectable
        self.advertisingData = advertisingData
        self.scanResponseData = scanResponseData
    }

    /// Advertising data followed by scan response data.
    public var mergedData: [UInt8] { advertisingData + (scanResponseData ?? []) }
}
