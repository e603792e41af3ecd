// A characteristic descriptor found by Discover All Characteristic Descriptors.
import OCBCore
import OCBATT

/// A characteristic descriptor: one attribute after the characteristic value, inside the characteristic's
/// range (Core v5.4 Vol 3 Part G §3.3.3, found by §4.7.1 from a Find Information Response).
public struct GATTDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// The descriptor's attribute handle.
    public var handle: AttributeHandle
    /// The descriptor's attribute type, e.g. 0x2902 for the CCCD.
    public var uuid: BluetoothUUID

    /// Makes a descriptor record.
    public init(handle: AttributeHandle, uuid: BluetoothUUID) {
        self.handle = handle
        self.uuid = uuid
    }

    public var description: String { "descriptor \(uuid) at 0x\(hex16(handle))" }
}
