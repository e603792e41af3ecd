// ATT_READ_MULTIPLE_VARIABLE_REQ and ATT_READ_MULTIPLE_VARIABLE_RSP: several values, each with its length.

import OCBCore

/// ATT_READ_MULTIPLE_VARIABLE_REQ (Core v5.4 Vol 3 Part F §3.4.4.11).
///
/// Layout: Opcode 0x20, Set Of Handles (two or more handles, 2 bytes each).
public struct ATTReadMultipleVariableRequest: ATTRequestPDU {
    /// 0x20, ATT_READ_MULTIPLE_VARIABLE_REQ.
    public static let opcode = ATTOpcode.readMultipleVariableRequest
    /// The handles to read, in order.
    public var setOfHandles: [AttributeHandle]

    /// Makes the PDU.
    public init(setOfHandles: [AttributeHandle]) { self.setOfHandles = setOfHandles }

    /// Decodes the PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x20),
    /// `.notAWholeNumberOfEntries` (an odd number of handle bytes) or `.tooFewEntries` (fewer than two handles).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        setOfHandles = try reader.handleList()
    }

    /// 1 + 2 × handles bytes: 0x20, each handle little-endian. Encodes any count; the spec asks for two or more.
    public var bytes: [UInt8] { ATTPDUReader.encodeHandleList(opcode: Self.opcode, setOfHandles) }
}

/// ATT_READ_MULTIPLE_VARIABLE_RSP (Core v5.4 Vol 3 Part F §3.4.4.12).
///
/// Layout: Opcode 0x21, Length Value Tuple List: tuples of Value Length (2) + Attribute Value. The response is
/// cut at ATT_MTU - 1 bytes, so the last tuple's value may be shorter than its Value Length (kept, with
/// ``LengthValue/isTruncated``); its Value Length field itself may not be cut (that throws).
public struct ATTReadMultipleVariableResponse: ATTPDUCoding {
    /// 0x21, ATT_READ_MULTIPLE_VARIABLE_RSP.
    public static let opcode = ATTOpcode.readMultipleVariableResponse

    /// One Length Value tuple.
    public struct LengthValue: Hashable, Sendable {
        /// The Value Length field: the full length of the attribute value, in bytes.
        public var valueLength: UInt16
        /// The value bytes present (fewer than ``valueLength`` only for a cut final tuple).
        public var attributeValue: [UInt8]

        /// A complete tuple for `attributeValue` (Value Length = its count, at most 65535).
        public init(attributeValue: [UInt8]) {
            self.valueLength = UInt16(clamping: attributeValue.count)
            self.attributeValue = attributeValue
        }

        /// A tuple with an explicit Value Length (e.g. a cut final tuple).
        public init(valueLength: UInt16, attributeValue: [UInt8]) {
            self.valueLength = valueLength
            self.attributeValue = attributeValue
        }

        /// True when fewer value bytes are present than Value Length announced.
        public var isTruncated: Bool { attributeValue.count < Int(valueLength) }
    }

    /// The tuples, in request order.
    public var lengthValueTupleList: [LengthValue]

    /// Makes the PDU.
    public init(lengthValueTupleList: [LengthValue]) { self.lengthValueTupleList = lengthValueTupleList }

    /// Decodes the PDU; an empty list (the opcode alone) is accepted. Throws ``ATTDecodingError``: `.empty`,
    /// `.unexpectedOpcode` (byte 0 not 0x21) or `.truncated` (a Value Length field cut after its first byte).
    /// A value cut by ATT_MTU is kept short, see ``LengthValue/isTruncated``.
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        var tuples: [LengthValue] = []
        while reader.remaining > 0 {
            let length = try reader.uint16("Value Length")
            let present = min(Int(length), reader.remaining)
            tuples.append(LengthValue(valueLength: length, attributeValue: try reader.bytes(present, "Attribute Value")))
        }
        lengthValueTupleList = tuples
    }

    /// 0x21, then each tuple's Value Length (little-endian, as stored, not recomputed) and the value bytes present.
    public var bytes: [UInt8] {
        var writer = ByteWriter()
        writer.write(Self.opcode.rawValue)
        for tuple in lengthValueTupleList {
            writer.write(tuple.valueLength)
            writer.write(contentsOf: tuple.attributeValue)
        }
        return writer.bytes
    }
}
