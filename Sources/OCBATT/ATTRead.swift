// ATT_READ_REQ and ATT_READ_RSP: the value of one attribute.

import OCBCore

/// ATT_READ_REQ (Core v5.4 Vol 3 Part F §3.4.4.3).
///
/// Layout: Opcode 0x0A, Attribute Handle (2) (3 bytes).
public struct ATTReadRequest: ATTRequestPDU {
    /// 0x0A, ATT_READ_REQ.
    public static let opcode = ATTOpcode.readRequest
    /// The handle to read.
    public var attributeHandle: AttributeHandle

    /// Makes the PDU.
    public init(attributeHandle: AttributeHandle) {
        self.attributeHandle = attributeHandle
    }

    /// Decodes the 3-byte PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x0A),
    /// `.truncated` (fewer than 3 bytes) or `.trailingBytes` (more).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        attributeHandle = try reader.handle("Attribute Handle")
        try reader.end()
    }

    /// The 3 bytes: 0x0A, Attribute Handle (little-endian).
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 3)
        writer.write(Self.opcode.rawValue)
        writer.write(attributeHandle)
        return writer.bytes
    }
}

/// ATT_READ_RSP (Core v5.4 Vol 3 Part F §3.4.4.4).
///
/// Layout: Opcode 0x0B, Attribute Value (the rest).
public struct ATTReadResponse: ATTPDUCoding {
    /// 0x0B, ATT_READ_RSP.
    public static let opcode = ATTOpcode.readResponse
    /// The value (the first ATT_MTU - 1 bytes of a longer one).
    public var attributeValue: [UInt8]

    /// Makes the PDU.
    public init(attributeValue: [UInt8]) {
        self.attributeValue = attributeValue
    }

    /// Decodes the PDU; every byte after the opcode is the value (possibly none). Throws ``ATTDecodingError``:
    /// `.empty` or `.unexpectedOpcode` (byte 0 not 0x0B).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        attributeValue = reader.rest()
    }

    /// 1 + value-length bytes: 0x0B, Attribute Value.
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 1 + attributeValue.count)
        writer.write(Self.opcode.rawValue)
        writer.write(contentsOf: attributeValue)
        return writer.bytes
    }
}
