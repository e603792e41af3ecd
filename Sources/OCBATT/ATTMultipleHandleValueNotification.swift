// ATT_MULTIPLE_HANDLE_VALUE_NTF: several notified values in one PDU.

import OCBCore

/// ATT_MULTIPLE_HANDLE_VALUE_NTF (Core v5.4 Vol 3 Part F §3.4.7.4).
///
/// Layout: Opcode 0x23, Handle Length Value Tuple List: tuples of Attribute Handle (2) + Value Length (2) +
/// Attribute Value (Value Length bytes). Decoding throws on an empty list or a tuple that runs past the end
/// (the spec asks for two or more tuples; one is accepted so that its value is not lost).
public struct ATTMultipleHandleValueNotification: ATTPDUCoding {
    /// 0x23, ATT_MULTIPLE_HANDLE_VALUE_NTF.
    public static let opcode = ATTOpcode.multipleHandleValueNotification

    /// One Handle Length Value tuple.
    public struct HandleValue: Hashable, Sendable {
        /// The attribute handle.
        public var attributeHandle: AttributeHandle
        /// The value (its length is the tuple's Value Length).
        public var attributeValue: [UInt8]

        /// Makes a tuple.
        public init(attributeHandle: AttributeHandle, attributeValue: [UInt8]) {
            self.attributeHandle = attributeHandle
            self.attributeValue = attributeValue
        }
    }

    /// The tuples, in order.
    public var handleLengthValueTupleList: [HandleValue]

    /// Makes the PDU.
    public init(handleLengthValueTupleList: [HandleValue]) { self.handleLengthValueTupleList = handleLengthValueTupleList }

    /// Decodes the PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x23),
    /// `.tooFewEntries` (no tuple) or `.truncated` (a tuple's Attribute Handle, Value Length or value runs past the
    /// end; the offset is that field's).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        guard reader.remaining > 0 else { throw reader.fail("Handle Length Value Tuple List", .tooFewEntries(minimum: 1, actual: 0)) }
        var tuples: [HandleValue] = []
        while reader.remaining > 0 {
            let handle = try reader.handle("Attribute Handle")
            let length = Int(try reader.uint16("Value Length"))
            tuples.append(HandleValue(attributeHandle: handle, attributeValue: try reader.bytes(length, "Attribute Value")))
        }
        handleLengthValueTupleList = tuples
    }

    /// 0x23, then each tuple's Attribute Handle, Value Length (the value's count, little-endian) and value.
    public var bytes: [UInt8] {
        var writer = ByteWriter()
        writer.write(Self.opcode.rawValue)
        for tuple in handleLengthValueTupleList {
            writer.write(tuple.attributeHandle)
            writer.write(UInt16(truncatingIfNeeded: tuple.attributeValue.count))
            writer.write(contentsOf: tuple.attributeValue)
        }
        return writer.bytes
    }
}
