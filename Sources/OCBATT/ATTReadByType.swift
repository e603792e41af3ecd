// ATT_READ_BY_TYPE_REQ and ATT_READ_BY_TYPE_RSP: values of attributes of a given type in a range.

import OCBCore

/// ATT_READ_BY_TYPE_REQ (Core v5.4 Vol 3 Part F §3.4.4.1).
///
/// Layout: Opcode 0x08, Starting Handle (2), Ending Handle (2), Attribute Type (2 or 16 bytes, a UUID).
/// Encoding uses the 2-byte form when the UUID has one. Decoding throws on a UUID of another length.
public struct ATTReadByTypeRequest: ATTRequestPDU {
    /// 0x08, ATT_READ_BY_TYPE_REQ.
    public static let opcode = ATTOpcode.readByTypeRequest
    /// First requested handle.
    public var startingHandle: AttributeHandle
    /// Last requested handle.
    public var endingHandle: AttributeHandle
    /// The attribute type (e.g. 0x2803 «Characteristic»).
    public var attributeType: BluetoothUUID

    /// Makes the PDU.
    public init(startingHandle: AttributeHandle, endingHandle: AttributeHandle, attributeType: BluetoothUUID) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
        self.attributeType = attributeType
    }

    /// Decodes the 7- or 21-byte PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x08),
    /// `.truncated` (fewer than 5 bytes) or `.invalidUUIDLength` (Attribute Type neither 2 nor 16 bytes).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        startingHandle = try reader.handle("Starting Handle")
        endingHandle = try reader.handle("Ending Handle")
        attributeType = try reader.uuid("Attribute Type")
    }

    /// 7 or 21 bytes: 0x08, Starting Handle, Ending Handle (little-endian), Attribute Type (the 2-byte form when the
    /// UUID has one, else 16 bytes; little-endian).
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 21)
        writer.writeRange(opcode: Self.opcode, startingHandle, endingHandle)
        writer.writeATTUUID(attributeType)
        return writer.bytes
    }
}

/// ATT_READ_BY_TYPE_RSP (Core v5.4 Vol 3 Part F §3.4.4.2).
///
/// Layout: Opcode 0x09, Length (1: bytes per entry, at least 2), Attribute Data List: one or more entries of
/// Attribute Handle (2) + Attribute Value (Length - 2 bytes). Decoding throws on a Length below 2, an empty
/// list, or a list that is not whole entries.
public struct ATTReadByTypeResponse: ATTPDUCoding {
    /// 0x09, ATT_READ_BY_TYPE_RSP.
    public static let opcode = ATTOpcode.readByTypeResponse

    /// One handle-value pair.
    public struct AttributeData: Hashable, Sendable {
        /// The attribute handle.
        public var attributeHandle: AttributeHandle
        /// The attribute value (possibly cut by the server to fit ATT_MTU or 253 bytes).
        public var attributeValue: [UInt8]

        /// Makes an entry.
        public init(attributeHandle: AttributeHandle, attributeValue: [UInt8]) {
            self.attributeHandle = attributeHandle
            self.attributeValue = attributeValue
        }
    }

    /// The entries, all values of one length.
    public let attributeDataList: [AttributeData]

    /// Makes the PDU; nil when the list is empty, values differ in length, or a value exceeds 253 bytes.
    public init?(attributeDataList: [AttributeData]) {
        guard let first = attributeDataList.first, first.attributeValue.count <= 253,
              attributeDataList.allSatisfy({ $0.attributeValue.count == first.attributeValue.count }) else { return nil }
        self.attributeDataList = attributeDataList
    }

    /// Decodes the PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x09),
    /// `.truncated` (no Length byte), `.invalidEntryLength` (Length below 2), `.tooFewEntries` (no entry) or
    /// `.notAWholeNumberOfEntries` (the list is not a multiple of Length).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        attributeDataList = try reader.lengthPrefixedEntries("Attribute Data List", minimumEntryLength: 2).map { entry in
            AttributeData(attributeHandle: AttributeHandle(rawValue: UInt16(entry[0]) | UInt16(entry[1]) << 8), attributeValue: Array(entry.dropFirst(2)))
        }
    }

    /// 2 + Length × entries bytes: 0x09, Length (2 + value length), then each Attribute Handle (little-endian) and
    /// Attribute Value.
    public var bytes: [UInt8] {
        let length = 2 + (attributeDataList.first?.attributeValue.count ?? 0)
        var writer = ByteWriter(capacity: 2 + length * attributeDataList.count)
        writer.write(Self.opcode.rawValue)
        writer.write(UInt8(truncatingIfNeeded: length))
        for entry in attributeDataList {
            writer.write(entry.attributeHandle)
            writer.write(contentsOf: entry.attributeValue)
        }
        return writer.bytes
    }
}
