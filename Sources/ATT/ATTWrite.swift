// ATT_WRITE_REQ, ATT_WRITE_RSP and ATT_WRITE_CMD: writing one attribute value.

import BluetoothCore

/// ATT_WRITE_REQ (Core v5.4 Vol 3 Part F §3.4.5.1).
///
/// Layout: Opcode 0x12, Attribute Handle (2), Attribute Value (the rest).
public struct ATTWriteRequest: ATTRequestPDU {
    /// 0x12, ATT_WRITE_REQ.
    public static let opcode = ATTOpcode.writeRequest
    /// The handle to write.
    public var attributeHandle: UInt16
    /// The value, 0 to ATT_MTU - 3 bytes.
    public var attributeValue: [UInt8]

    /// Makes the PDU.
    public init(attributeHandle: UInt16, attributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
    }

    /// Decodes the PDU; every byte after the handle is the value. Throws ``ATTDecodingError``: `.empty`,
    /// `.unexpectedOpcode` (byte 0 not 0x12) or `.truncated` (fewer than 3 bytes).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        attributeHandle = try reader.uint16("Attribute Handle")
        attributeValue = reader.rest()
    }

    /// 3 + value-length bytes: 0x12, Attribute Handle (little-endian), Attribute Value.
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 3 + attributeValue.count)
        writer.write(Self.opcode.rawValue)
        writer.write(attributeHandle)
        writer.write(contentsOf: attributeValue)
        return writer.bytes
    }
}

/// ATT_WRITE_RSP (Core v5.4 Vol 3 Part F §3.4.5.2).
///
/// Layout: Opcode 0x13 (1 byte).
public struct ATTWriteResponse: ATTPDUCoding {
    /// 0x13, ATT_WRITE_RSP.
    public static let opcode = ATTOpcode.writeResponse

    /// Makes the PDU.
    public init() {}

    /// Decodes the 1-byte PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x13) or
    /// `.trailingBytes`.
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        let reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        try reader.end()
    }

    /// The 1 byte: 0x13.
    public var bytes: [UInt8] {
        [Self.opcode.rawValue]
    }
}

/// ATT_WRITE_CMD (Core v5.4 Vol 3 Part F §3.4.5.3).
///
/// Layout: Opcode 0x52, Attribute Handle (2), Attribute Value (the rest).
public struct ATTWriteCommand: ATTCommandPDU {
    /// 0x52, ATT_WRITE_CMD (Command Flag set on method 0x12).
    public static let opcode = ATTOpcode.writeCommand
    /// The handle to write.
    public var attributeHandle: UInt16
    /// The value, 0 to ATT_MTU - 3 bytes.
    public var attributeValue: [UInt8]

    /// Makes the PDU.
    public init(attributeHandle: UInt16, attributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
    }

    /// Decodes the PDU; every byte after the handle is the value. Throws ``ATTDecodingError``: `.empty`,
    /// `.unexpectedOpcode` (byte 0 not 0x52) or `.truncated` (fewer than 3 bytes).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        attributeHandle = try reader.uint16("Attribute Handle")
        attributeValue = reader.rest()
    }

    /// 3 + value-length bytes: 0x52, Attribute Handle (little-endian), Attribute Value.
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 3 + attributeValue.count)
        writer.write(Self.opcode.rawValue)
        writer.write(attributeHandle)
        writer.write(contentsOf: attributeValue)
        return writer.bytes
    }
}
