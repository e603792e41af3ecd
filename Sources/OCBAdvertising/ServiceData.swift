// Service Data: a service UUID and data for that service.
import OCBCore

/// A Service Data AD structure (Core Specification Supplement Part A §1.11): types 0x16, 0x20, 0x21.
///
/// Layout: the service UUID (2, 4 or 16 octets little-endian, by the AD type), then the service data.
public struct ServiceData: Hashable, Sendable {
    /// The service UUID.
    public var uuid: BluetoothUUID
    /// The octets after the UUID (possibly none).
    public var data: [UInt8]

    /// Makes the value.
    public init(uuid: BluetoothUUID, data: [UInt8]) {
        self.uuid = uuid
        self.data = data
    }
}
