// ATT_READ_BY_GROUP_TYPE_REQ and ATT_READ_BY_GROUP_TYPE_RSP: grouping attributes (services) in a range.

import OCBCore

/// ATT_READ_BY_GROUP_TYPE_REQ (Core v5.4 Vol 3 Part F §3.4.4.9).
///
/// Layout: Opcode 0x10, Starting Handle (2), Ending Handle (2), Attribute Group Type (2 or 16 bytes, a UUID).
public struct ATTReadByGroupTypeRequest: ATTRequestPDU {
    /// 0x10, ATT_READ_BY_GROUP_TYPE_REQ.
    public static let opcode = ATTOpcode.readByGroupTypeRequest
    /// First requested handle.
    public var startingHandle: AttributeHandle
    /// Last requested handle.
    public var endingHandle: AttributeHandle
    /// The grouping type (0x2800 «Primary Service» or 0x2801 «Secondary Service» in GATT).
    public var attributeGroupType: BluetoothUUID

    /// Makes the PDU.
    public init(startingHandle: AttributeHandle, endingHandle: AttributeHandle, attributeGroupType: BluetoothUUID) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
        self.attributeGroupType = attributeGroupType
    }

    /// Decodes the 7- or 21-byte PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x10),
    /// `.truncated` (fewer than 5 bytes) or `.invalidUUIDLength` (Attribute Group Type neither 2 nor 16 bytes).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        startingHandle = try reader.handle("Starting Handle")
        endingHandle = try reader.handle("Ending Handle")
        attributeGroupType = try reader.uuid("Attribute Group Type")
    }

    /// 7 or 21 bytes: 0x10, Starting Handle, Ending Handle (little-endian), Attribute Group Type (the 2-byte form
    /// when the UUID has one, else 16 bytes; little-endian).
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 21)
        writer.writeRange(opcode: Self.opcode, startingHandle, endingHandle)
        writer.writeATTUUID(attributeGroupType)
        return writer.bytes
    }
}

/// ATT_READ_BY_GROUP_TYPE_RSP (Core v5.4 Vol 3 Part F §3.4.4.10).
///
/// Layout: Opcode 0x11, Length (1: bytes per entry, at least 4), Attribute Data List: one or more entries of
/// Attribute Handle (2) + End Group Handle (2) + Attribute Value (Length - 4 bytes). Decoding throws on a Length
/// below 4, an empty list, or a list that is not whole entries.
public struct ATTReadByGroupTypeResponse: ATTPDUCoding {
    /// 0x11, ATT_READ_BY_GROUP_TYPE_RSP.
    public static let opcode = ATTOpcode.readByGroupTypeResponse

    /// One group.
    public struct AttributeData: Hashable, Sendable {
        /// The grouping attribute's handle.
        public var attributeHandle: AttributeHandle
        /// The last handle of the group.
        public var endGroupHandle: AttributeHandle
        /// The grouping attribute's value (for a service: its UUID, 2 or 16 bytes little-endian).
        public var attributeValue: [UInt8]

        /// Makes an entry.
        public init(attributeHandle: AttributeHandle, endGroupHandle: AttributeHandle, attributeValue: [UInt8]) {
            self.attributeHandle = attributeHandle
            self.endGroupHandle = endGroupHandle
            self.attributeValue = attributeValue
        }
    }

    /// The entries, all values of one length.
    public let attributeDataList: [AttributeData]

    /// Makes the PDU; nil when the list is empty, values differ in length, or a value exceeds 251 bytes.
    public init?(attributeDataList: [AttributeData]) {
        guard let first = attributeDataList.first, first.attributeValue.count <= 251,
              attributeDataList.allSatisfy({ $0.attributeValue.count == first.attributeValue.count }) else { return nil }
        self.attributeDataList = attributeDataList
    }

    /// Decodes the PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x11),
    /// `.truncated` (no Length byte), `.invalidEntryLength` (Length below 4), `.tooFewEntries` (no entry) or
    /// `.notAWholeNumberOfEntries` (the list is not a multiple of Length).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        attributeDataList = try reader.lengthPrefixedEntries("Attribute Data List", minimumEntryLength: 4).map { entry in
            AttributeData(attributeHandle: AttributeHandle(rawValue: UInt16(entry[0]) | UInt16(entry[1]) << 8),
                          endGroupHandle: AttributeHandle(rawValue: UInt16(entry[2]) | UInt16(entry[3]) << 8),
                          attributeValue: Array(entry.dropFirst(4)))
        }
    }

    /// 2 + Length × entries bytes: 0x11, Length (4 + value length), then each Attribute Handle, End Group Handle
    /// (little-endian) and Attribute Value.
    public var bytes: [UInt8] {
        let length = 4 + (attributeDataList.first?.attributeValue.count ?? 0)
        var writer = ByteWriter(capacity: 2 + length * attributeDataList.count)
        writer.write(Self.opcode.rawValue)
        writer.write(UInt8(truncatingIfNeeded: length))
        for entry in attributeDataList {
            writer.write(entry.attributeHandle)
            writer.write(entry.endGroupHandle)
            writer.write(contentsOf: entry.attributeValue)
        }
        return writer.bytes
    }
}
