// Decoders of the three declaration values the discovery procedures read: service, include and characteristic.
import OCBCore
import OCBATT

/// Decoders for declaration attribute values (Core v5.4 Vol 3 Part G §3.1, §3.2, §3.3.1).
///
/// Each throws ``GATTMalformedResponse`` naming `response` when the value has a length the spec does not allow.
public enum GATTDeclarationValue {
    /// A service declaration value: the service UUID, 2 or 16 bytes little-endian (Vol 3 Part G §3.1).
    public static func serviceUUID(_ value: [UInt8], handle: AttributeHandle, response: String) throws(GATTMalformedResponse) -> BluetoothUUID {
        guard value.count == 2 || value.count == 16, let uuid = BluetoothUUID(littleEndianBytes: value) else {
            throw GATTMalformedResponse(response: response,
                                        reason: "service declaration at 0x\(hex16(handle)) has a \(value.count)-byte value, not a 2- or 16-byte UUID")
        }
        return uuid
    }

    /// An include declaration value: Included Service Attribute Handle, End Group Handle, then a 16-bit UUID
    /// (6 bytes) or nothing (4 bytes, the UUID is 128-bit and must be read) (Vol 3 Part G §3.2, Table 3.2).
    public static func include(_ value: [UInt8], handle: AttributeHandle, response: String) throws(GATTMalformedResponse)
        -> (start: AttributeHandle, end: AttributeHandle, uuid: BluetoothUUID?)
    {
        var reader = ByteReader(value)
        guard value.count == 4 || value.count == 6,
              let start = try? reader.readAttributeHandle(), let end = try? reader.readAttributeHandle()
        else {
            throw GATTMalformedResponse(response: response,
                                        reason: "include declaration at 0x\(hex16(handle)) has a \(value.count)-byte value, not 4 or 6")
        }
        guard start != 0, start <= end else {
            throw GATTMalformedResponse(response: response,
                                        reason: "include declaration at 0x\(hex16(handle)) names the range 0x\(hex16(start))-0x\(hex16(end))")
        }
        let uuid = value.count == 6 ? BluetoothUUID(littleEndianBytes: reader.readRemaining()) : nil
        return (start, end, uuid)
    }

    /// A characteristic declaration value: Properties (1 byte), Value Handle (2 bytes), UUID (2 or 16 bytes),
    /// 5 or 19 bytes in all (Vol 3 Part G §3.3.1, Table 3.4). The value handle must follow the declaration.
    public static func characteristic(_ value: [UInt8], handle: AttributeHandle, response: String) throws(GATTMalformedResponse)
        -> (properties: GATTCharacteristicProperties, valueHandle: AttributeHandle, uuid: BluetoothUUID)
    {
        var reader = ByteReader(value)
        guard value.count == 5 || value.count == 19,
              let properties = try? reader.readUInt8(), let valueHandle = try? reader.readAttributeHandle(),
              let uuid = BluetoothUUID(littleEndianBytes: reader.readRemaining())
        else {
            throw GATTMalformedResponse(response: response,
                                        reason: "characteristic declaration at 0x\(hex16(handle)) has a \(value.count)-byte value, not 5 or 19")
        }
        guard valueHandle > handle else {
            throw GATTMalformedResponse(response: response,
                                        reason: "characteristic declaration at 0x\(hex16(handle)) names value handle 0x\(hex16(valueHandle)), not after it")
        }
        return (GATTCharacteristicProperties(rawValue: properties), valueHandle, uuid)
    }
}
