// ATT_READ_MULTIPLE_REQ and ATT_READ_MULTIPLE_RSP: several fixed-length values in one response.

import OCBCore

/// ATT_READ_MULTIPLE_REQ (Core v5.4 Vol 3 Part F §3.4.4.7).
///
/// Layout: Opcode 0x0E, Set Of Handles (two or more handles, 2 bytes each). Decoding throws on fewer than
/// two handles or an odd number of bytes.
public struct ATTReadMultipleRequest: ATTRequestPDU {
    /// 0x0E, ATT_READ_MULTIPLE_REQ.
    public static let opcode = ATTOpcode.readMultipleRequest
    /// The handles to read, in order.
    public var setOfHandles: [AttributeHandle]

    /// Makes the PDU.
    public init(setOfHandles: [AttributeHandle]) { self.setOfHandles = setOfHandles }

    /// Decodes the PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x0E),
    /// `.notAWholeNumberOfEntries` (an odd number of handle bytes) or `.tooFewEntries` (fewer than two handles).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        setOfHandles = try reader.handleList()
    }

    /// 1 + 2 × handles bytes: 0x0E, each handle little-endian. Encodes any count; the spec asks for two or more.
    public var bytes: [UInt8] { ATTPDUReader.encodeHandleList(opcode: Self.opcode, setOfHandles) }
}

/// ATT_READ_MULTIPLE_RSP (Core v5.4 Vol 3 Part F §3.4.4.8).
///
/// Layout: Opcode 0x0F, Set Of Values (the values concatenated, cut at ATT_MTU - 1 bytes; the client
/// splits them by the lengths it knows).
public struct ATTReadMultipleResponse: ATTPDUCoding {
    /// 0x0F, ATT_READ_MULTIPLE_RSP.
    public static let opcode = ATTOpcode.readMultipleResponse
    /// The concatenated values.
    public var setOfValues: [UInt8]

    /// Makes the PDU.
    public init(setOfValues: [UInt8]) { self.setOfValues = setOfValues }

    /// Decodes the PDU; every byte after the opcode is the Set Of Values. Throws ``ATTDecodingError``: `.empty` or
    /// `.unexpectedOpcode` (byte 0 not 0x0F).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        setOfValues = reader.rest()
    }

    /// 1 + values-length bytes: 0x0F, Set Of Values.
    public var bytes: [UInt8] { [Self.opcode.rawValue] + setOfValues }
}

extension ATTPDUReader {
    /// Reads a Set Of Handles filling the rest of the PDU: at least two 2-byte handles.
    mutating func handleList() throws(ATTDecodingError) -> [AttributeHandle] {
        guard remaining % 2 == 0 else { throw fail("Set Of Handles", .notAWholeNumberOfEntries(entryLength: 2, bodyLength: remaining)) }
        guard remaining >= 4 else { throw fail("Set Of Handles", .tooFewEntries(minimum: 2, actual: remaining / 2)) }
        var handles: [AttributeHandle] = []
        while remaining > 0 { handles.append(try handle("Handle")) }
        return handles
    }

    /// Encodes an opcode and a Set Of Handles.
    static func encodeHandleList(opcode: ATTOpcode, _ handles: [AttributeHandle]) -> [UInt8] {
        var writer = ByteWriter(capacity: 1 + 2 * handles.count)
        writer.write(opcode.rawValue)
        for handle in handles { writer.write(handle) }
        return writer.bytes
    }
}
