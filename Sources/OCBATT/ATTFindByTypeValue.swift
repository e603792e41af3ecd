// ATT_FIND_BY_TYPE_VALUE_REQ and ATT_FIND_BY_TYPE_VALUE_RSP: handles of attributes with a given type and value.

import OCBCore

/// ATT_FIND_BY_TYPE_VALUE_REQ (Core v5.4 Vol 3 Part F §3.4.3.3).
///
/// Layout: Opcode 0x06, Starting Handle (2), Ending Handle (2), Attribute Type (2, a 16-bit UUID),
/// Attribute Value (0 to ATT_MTU - 7 bytes).
public struct ATTFindByTypeValueRequest: ATTRequestPDU {
    /// 0x06, ATT_FIND_BY_TYPE_VALUE_REQ.
    public static let opcode = ATTOpcode.findByTypeValueRequest
    /// First requested handle.
    public var startingHandle: AttributeHandle
    /// Last requested handle.
    public var endingHandle: AttributeHandle
    /// The 16-bit attribute type (e.g. 0x2800 «Primary Service»).
    public var attributeType: UInt16
    /// The value to match.
    public var attributeValue: [UInt8]

    /// Makes the PDU.
    public init(startingHandle: AttributeHandle, endingHandle: AttributeHandle, attributeType: UInt16, attributeValue: [UInt8]) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
        self.attributeType = attributeType
        self.attributeValue = attributeValue
    }

    /// Decodes the PDU; every byte after Attribute Type is the Attribute Value. Throws ``ATTDecodingError``:
    /// `.empty`, `.unexpectedOpcode` (byte 0 not 0x06) or `.truncated` (fewer than 7 bytes).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        startingHandle = try reader.handle("Starting Handle")
        endingHandle = try reader.handle("Ending Handle")
        attributeType = try reader.uint16("Attribute Type")
        attributeValue = reader.rest()
    }

    /// 7 + value-length bytes: 0x06, Starting Handle, Ending Handle, Attribute Type (little-endian), Attribute Value.
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 7 + attributeValue.count)
        writer.writeRange(opcode: Self.opcode, startingHandle, endingHandle)
        writer.write(attributeType)
        writer.write(contentsOf: attributeValue)
        return writer.bytes
    }
}

/// ATT_FIND_BY_TYPE_VALUE_RSP (Core v5.4 Vol 3 Part F §3.4.3.4).
///
/// Layout: Opcode 0x07, Handles Information List: one or more 4-byte entries of
/// Found Attribute Handle (2) + Group End Handle (2). Decoding throws on an empty list or one that is not whole entries.
public struct ATTFindByTypeValueResponse: ATTPDUCoding {
    /// 0x07, ATT_FIND_BY_TYPE_VALUE_RSP.
    public static let opcode = ATTOpcode.findByTypeValueResponse

    /// One Handles Information entry.
    public struct HandlesInformation: Hashable, Sendable {
        /// The handle of the matching attribute.
        public var foundAttributeHandle: AttributeHandle
        /// The last handle of its group (the attribute handle itself when it is not a grouping attribute).
        public var groupEndHandle: AttributeHandle

        /// Makes an entry.
        public init(foundAttributeHandle: AttributeHandle, groupEndHandle: AttributeHandle) {
            self.foundAttributeHandle = foundAttributeHandle
            self.groupEndHandle = groupEndHandle
        }
    }

    /// The entries, in the order received (at least one when decoded).
    public var handlesInformationList: [HandlesInformation]

    /// Makes the PDU.
    public init(handlesInformationList: [HandlesInformation]) { self.handlesInformationList = handlesInformationList }

    /// Decodes the PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x07),
    /// `.tooFewEntries` (no entry) or `.notAWholeNumberOfEntries` (the list is not a multiple of 4 bytes).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        guard reader.remaining > 0 else { throw reader.fail("Handles Information List", .tooFewEntries(minimum: 1, actual: 0)) }
        guard reader.remaining % 4 == 0 else {
            throw reader.fail("Handles Information List", .notAWholeNumberOfEntries(entryLength: 4, bodyLength: reader.remaining))
        }
        var list: [HandlesInformation] = []
        while reader.remaining > 0 {
            list.append(HandlesInformation(foundAttributeHandle: try reader.handle("Found Attribute Handle"),
                                           groupEndHandle: try reader.handle("Group End Handle")))
        }
        handlesInformationList = list
    }

    /// 1 + 4 × entries bytes: 0x07, then Found Attribute Handle and Group End Handle of each entry (little-endian).
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 1 + 4 * handlesInformationList.count)
        writer.write(Self.opcode.rawValue)
        for entry in handlesInformationList {
            writer.write(entry.foundAttributeHandle)
            writer.write(entry.groupEndHandle)
        }
        return writer.bytes
    }
}
