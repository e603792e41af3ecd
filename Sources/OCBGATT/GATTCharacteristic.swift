// A characteristic found inside a service: declaration, value and end handles, properties and UUID.
import OCBCore
import OCBATT

/// A characteristic (Core v5.4 Vol 3 Part G §3.3, found by §4.6).
///
/// Declaration value layout (Vol 3 Part G §3.3.1, Table 3.4): Characteristic Properties (1 byte),
/// Characteristic Value Attribute Handle (2 bytes), Characteristic UUID (2 or 16 bytes).
/// Its descriptors lie in `valueHandle + 1 ... endHandle`; `endHandle` is the handle before the next
/// characteristic declaration, or the service's end handle for the last characteristic.
public struct GATTCharacteristic: Hashable, Sendable, CustomStringConvertible {
    /// Handle of the characteristic declaration.
    public var declarationHandle: AttributeHandle
    /// Handle of the Characteristic Value declaration (read and write this one).
    public var valueHandle: AttributeHandle
    /// Last handle that belongs to the characteristic (its descriptors end here).
    public var endHandle: AttributeHandle
    /// The Characteristic Properties byte.
    public var properties: GATTCharacteristicProperties
    /// The characteristic UUID.
    public var uuid: BluetoothUUID

    /// Makes a characteristic record.
    public init(declarationHandle: AttributeHandle, valueHandle: AttributeHandle, endHandle: AttributeHandle,
                properties: GATTCharacteristicProperties, uuid: BluetoothUUID) {
        self.declarationHandle = declarationHandle
        self.valueHandle = valueHandle
        self.endHandle = endHandle
        self.properties = properties
        self.uuid = uuid
    }

    /// The handles where this characteristic's descriptors can be, or nil when there is no room for any.
    public var descriptorHandles: ClosedRange<AttributeHandle>? {
        guard valueHandle < endHandle else { return nil }
        return (valueHandle + 1)...endHandle
    }

    public var description: String {
        "characteristic \(uuid) \(properties) decl 0x\(hex16(declarationHandle)) value 0x\(hex16(valueHandle)) end 0x\(hex16(endHandle))"
    }
}
