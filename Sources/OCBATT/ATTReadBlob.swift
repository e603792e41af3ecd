// ATT_READ_BLOB_REQ and ATT_READ_BLOB_RSP: part of a long attribute value from an offset.

import OCBCore

/// ATT_READ_BLOB_REQ (Core v5.4 Vol 3 Part F §3.4.4.5).
///
/// Layout: Opcode 0x0C, Attribute Handle (2), Value Offset (2) (5 bytes).
public struct ATTReadBlobRequest: ATTRequestPDU {
    /// 0x0C, ATT_READ_BLOB_REQ.
    public static let opcode = ATTOpcode.readBlobRequest
    /// The handle to read.
    public var attributeHandle: AttributeHandle
    /// Offset of the first byte to read, in bytes.
    public var valueOffset: UInt16

    /// Makes the PDU.
    public init(attributeHandle: AttributeHandle, valueOffset: UInt16) {
        self.attributeHandle = attributeHandle
        self.valueOffset = valueOffset
    }

    /// Decodes the 5-byte PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x0C),
    /// `.truncated` (fewer than 5 bytes) or `.trailingBytes` (more).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        attributeHandle = try reader.handle("Attribute Handle")
        valueOffset = try reader.uint16("Value Offset")
        try reader.end()
    }

    /// The 5 bytes: 0x0C, Attribute Handle, Value Offset (little-endian).
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 5)
        writer.write(Self.opcode.rawValue)
        writer.write(attributeHandle)
        writer.write(valueOffset)
        return writer.bytes
    }
}

/// ATT_READ_BLOB_RSP (Core v5.4 Vol 3 Part F §3.4.4.6).
///
/// Layout: Opcode 0x0D, Part Attribute Value (the rest).
public struct ATTReadBlobResponse: ATTPDUCoding {
    /// 0x0D, ATT_READ_BLOB_RSP.
    public static let opcode = ATTOpcode.readBlobResponse
    /// Up to ATT_MTU - 1 bytes of the value from the requested offset.
    public var partAttributeValue: [UInt8]

    /// Makes the PDU.
    public init(partAttributeValue: [UInt8]) {
        self.partAttributeValue = partAttributeValue
    }

    /// Decodes the PDU; every byte after the opcode is the part (possibly none: the offset was the value's end).
    /// Throws ``ATTDecodingError``: `.empty` or `.unexpectedOpcode` (byte 0 not 0x0D).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        partAttributeValue = reader.rest()
    }

    /// 1 + part-length bytes: 0x0D, Part Attribute Value.
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 1 + partAttributeValue.count)
        writer.write(Self.opcode.rawValue)
        writer.write(contentsOf: partAttributeValue)
        return writer.bytes
    }
}
