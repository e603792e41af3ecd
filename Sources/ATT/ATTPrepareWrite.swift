// ATT_PREPARE_WRITE_REQ and ATT_PREPARE_WRITE_RSP: queueing part of a long write.

import BluetoothCore

/// ATT_PREPARE_WRITE_REQ (Core v5.4 Vol 3 Part F §3.4.6.1).
///
/// Layout: Opcode 0x16, Attribute Handle (2), Value Offset (2, bytes), Part Attribute Value (0 to ATT_MTU - 5 bytes).
public struct ATTPrepareWriteRequest: ATTRequestPDU {
    /// 0x16, ATT_PREPARE_WRITE_REQ.
    public static let opcode = ATTOpcode.prepareWriteRequest
    /// The handle to write.
    public var attributeHandle: UInt16
    /// Offset of the first byte of the part, in bytes.
    public var valueOffset: UInt16
    /// The part of the value.
    public var partAttributeValue: [UInt8]

    /// Makes the PDU.
    public init(attributeHandle: UInt16, valueOffset: UInt16, partAttributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.valueOffset = valueOffset
        self.partAttributeValue = partAttributeValue
    }

    /// Decodes the PDU; every byte after Value Offset is the part. Throws ``ATTDecodingError``: `.empty`,
    /// `.unexpectedOpcode` (byte 0 not 0x16) or `.truncated` (fewer than 5 bytes).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        attributeHandle = try reader.uint16("Attribute Handle")
        valueOffset = try reader.uint16("Value Offset")
        partAttributeValue = reader.rest()
    }

    /// 5 + part-length bytes: 0x16, Attribute Handle, Value Offset (little-endian), Part Attribute Value.
    public var bytes: [UInt8] { ATTPrepareWriteRequest.encode(Self.opcode, attributeHandle, valueOffset, partAttributeValue) }

    static func encode(_ opcode: ATTOpcode, _ handle: UInt16, _ offset: UInt16, _ part: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: 5 + part.count)
        writer.write(opcode.rawValue)
        writer.write(handle)
        writer.write(offset)
        writer.write(contentsOf: part)
        return writer.bytes
    }
}

/// ATT_PREPARE_WRITE_RSP (Core v5.4 Vol 3 Part F §3.4.6.2).
///
/// Layout: Opcode 0x17, Attribute Handle (2), Value Offset (2), Part Attribute Value (echoing the request).
public struct ATTPrepareWriteResponse: ATTPDUCoding {
    /// 0x17, ATT_PREPARE_WRITE_RSP.
    public static let opcode = ATTOpcode.prepareWriteResponse
    /// The handle written.
    public var attributeHandle: UInt16
    /// The offset, in bytes.
    public var valueOffset: UInt16
    /// The part as the server queued it.
    public var partAttributeValue: [UInt8]

    /// Makes the PDU.
    public init(attributeHandle: UInt16, valueOffset: UInt16, partAttributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.valueOffset = valueOffset
        self.partAttributeValue = partAttributeValue
    }

    /// Decodes the PDU; every byte after Value Offset is the part. Throws ``ATTDecodingError``: `.empty`,
    /// `.unexpectedOpcode` (byte 0 not 0x17) or `.truncated` (fewer than 5 bytes). Comparing the echo with the
    /// request (§3.4.6.1) is the GATT client's job.
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        attributeHandle = try reader.uint16("Attribute Handle")
        valueOffset = try reader.uint16("Value Offset")
        partAttributeValue = reader.rest()
    }

    /// 5 + part-length bytes: 0x17, Attribute Handle, Value Offset (little-endian), Part Attribute Value.
    public var bytes: [UInt8] { ATTPrepareWriteRequest.encode(Self.opcode, attributeHandle, valueOffset, partAttributeValue) }
}
