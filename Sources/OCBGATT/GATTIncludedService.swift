// An include declaration found inside a service: which other service it includes.
import OCBCore
import OCBATT

/// An include declaration (Core v5.4 Vol 3 Part G §3.2, found by Find Included Services §4.5.1).
///
/// Declaration value layout: Included Service Attribute Handle (2 bytes), End Group Handle (2 bytes),
/// then the Service UUID (2 bytes) only when it is a 16-bit UUID; a 128-bit UUID is read from the
/// included service's declaration with a Read Request.
public struct GATTIncludedService: Hashable, Sendable, CustomStringConvertible {
    /// Handle of the include declaration itself.
    public var declarationHandle: AttributeHandle
    /// The included service's UUID.
    public var uuid: BluetoothUUID
    /// Handle of the included service's declaration.
    public var startHandle: AttributeHandle
    /// The included service's End Group Handle.
    public var endHandle: AttributeHandle

    /// Makes an included-service record.
    public init(declarationHandle: AttributeHandle, uuid: BluetoothUUID, startHandle: AttributeHandle, endHandle: AttributeHandle) {
        self.declarationHandle = declarationHandle
        self.uuid = uuid
        self.startHandle = startHandle
        self.endHandle = endHandle
    }

    public var description: String {
        "include at 0x\(hex16(declarationHandle)) of \(uuid) 0x\(hex16(startHandle))-0x\(hex16(endHandle))"
    }
}
