// The layouts several ATT PDUs share: one handle with one value, a handle with an offset and a part, the opcode alone.

import OCBCore

/// A PDU laid out as Opcode (1), Attribute Handle (2, little-endian), Attribute Value (the rest, 0 to ATT_MTU − 3 bytes):
/// ATT_WRITE_REQ, ATT_WRITE_CMD, ATT_HANDLE_VALUE_NTF and ATT_HANDLE_VALUE_IND (Core v5.4 Vol 3 Part F §3.4.5.1,
/// §3.4.5.3, §3.4.7.1, §3.4.7.2). Conforming types get `init(bytes:)` and `bytes` from this layout.
public protocol ATTHandleValueLayout: ATTPDUCoding {
    /// The attribute handle the value belongs to.
    var attributeHandle: AttributeHandle { get }
    /// The attribute value, 0 to ATT_MTU − 3 bytes.
    var attributeValue: [UInt8] { get }
    /// Makes the PDU from its two fields.
    init(attributeHandle: AttributeHandle, attributeValue: [UInt8])
}

extension ATTHandleValueLayout {
    /// Decodes the PDU; every byte after the handle is the value. Throws ``ATTDecodingError``: `.empty`,
    /// `.unexpectedOpcode` (byte 0 is not `Self.opcode`) or `.truncated` (fewer than 3 bytes).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        let handle = try reader.handle("Attribute Handle")
        self.init(attributeHandle: handle, attributeValue: reader.rest())
    }

    /// 3 + value-length bytes: the opcode, Attribute Handle (little-endian), Attribute Value.
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 3 + attributeValue.count)
        writer.write(Self.opcode.rawValue)
        writer.write(attributeHandle)
        writer.write(contentsOf: attributeValue)
        return writer.bytes
    }
}

/// A PDU that is its opcode alone (1 byte, no parameters): ATT_WRITE_RSP, ATT_EXECUTE_WRITE_RSP and
/// ATT_HANDLE_VALUE_CFM (Core v5.4 Vol 3 Part F §3.4.5.2, §3.4.6.4, §3.4.7.3). Conforming types get
/// `init(bytes:)` and `bytes` from this layout.
public protocol ATTOpcodeOnlyLayout: ATTPDUCoding {
    /// Makes the PDU.
    init()
}

extension ATTOpcodeOnlyLayout {
    /// Decodes the 1-byte PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 is not
    /// `Self.opcode`) or `.trailingBytes`.
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        let reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        try reader.end()
        self.init()
    }

    /// The 1 byte: the opcode.
    public var bytes: [UInt8] { [Self.opcode.rawValue] }
}

/// A PDU laid out as Opcode (1), Attribute Handle (2), Value Offset (2, bytes), Part Attribute Value (the rest, 0 to
/// ATT_MTU − 5 bytes): ATT_PREPARE_WRITE_REQ and ATT_PREPARE_WRITE_RSP, whose response echoes the request (Core v5.4
/// Vol 3 Part F §3.4.6.1, §3.4.6.2). Conforming types get `init(bytes:)` and `bytes` from this layout.
public protocol ATTPreparedValueLayout: ATTPDUCoding {
    /// The attribute handle the part belongs to.
    var attributeHandle: AttributeHandle { get }
    /// Offset of the part's first byte in the attribute value, in bytes.
    var valueOffset: UInt16 { get }
    /// The part of the value.
    var partAttributeValue: [UInt8] { get }
    /// Makes the PDU from its three fields.
    init(attributeHandle: AttributeHandle, valueOffset: UInt16, partAttributeValue: [UInt8])
}

extension ATTPreparedValueLayout {
    /// Decodes the PDU; every byte after Value Offset is the part. Throws ``ATTDecodingError``: `.empty`,
    /// `.unexpectedOpcode` (byte 0 is not `Self.opcode`) or `.truncated` (fewer than 5 bytes).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        let handle = try reader.handle("Attribute Handle")
        let offset = try reader.uint16("Value Offset")
        self.init(attributeHandle: handle, valueOffset: offset, partAttributeValue: reader.rest())
    }

    /// 5 + part-length bytes: the opcode, Attribute Handle, Value Offset (little-endian), Part Attribute Value.
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 5 + partAttributeValue.count)
        writer.write(Self.opcode.rawValue)
        writer.write(attributeHandle)
        writer.write(valueOffset)
        writer.write(contentsOf: partAttributeValue)
        return writer.bytes
    }
}
