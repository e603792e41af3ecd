// A service found on the server: its UUID, kind and attribute handle range.
import OCBCore
import OCBATT

/// A primary or secondary service as discovered (Core v5.4 Vol 3 Part G §3.1, §4.4, §4.5.1).
///
/// Shape: the service declaration at `startHandle` (type 0x2800 primary or 0x2801 secondary, value the
/// 16- or 128-bit service UUID) and every attribute up to `endHandle` (the End Group Handle), inclusive.
public struct GATTService: Hashable, Sendable, CustomStringConvertible {
    /// The service UUID (the declaration's value).
    public var uuid: BluetoothUUID
    /// True for a primary service; false for a secondary service found only through an include declaration.
    public var isPrimary: Bool
    /// Handle of the service declaration (first handle of the group), never 0x0000.
    public var startHandle: AttributeHandle
    /// Last handle of the group (End Group Handle), at least `startHandle`.
    public var endHandle: AttributeHandle

    /// Makes a service record.
    public init(uuid: BluetoothUUID, isPrimary: Bool, startHandle: AttributeHandle, endHandle: AttributeHandle) {
        self.uuid = uuid
        self.isPrimary = isPrimary
        self.startHandle = startHandle
        self.endHandle = endHandle
    }

    /// The handles of the group, `startHandle...endHandle`.
    public var handles: ClosedRange<AttributeHandle> { startHandle...max(startHandle, endHandle) }

    public var description: String {
        "\(isPrimary ? "primary" : "secondary") service \(uuid) 0x\(hex16(startHandle))-0x\(hex16(endHandle))"
    }
}

/// Four upper-case hex digits of a handle, for descriptions.
func hex16(_ value: UInt16) -> String {
    Hex.uppercase(value, digits: 4)
}

/// Four upper-case hex digits of an attribute handle, for descriptions.
func hex16(_ handle: AttributeHandle) -> String {
    Hex.uppercase(handle.rawValue, digits: 4)
}
