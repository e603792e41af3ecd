// ATT_FIND_INFORMATION_REQ and ATT_FIND_INFORMATION_RSP: handles and types of attributes in a range.

import OCBCore

/// ATT_FIND_INFORMATION_REQ (Core v5.4 Vol 3 Part F §3.4.3.1).
///
/// Layout (5 bytes): Opcode 0x04, Starting Handle (2), Ending Handle (2).
public struct ATTFindInformationRequest: ATTRequestPDU {
    /// 0x04, ATT_FIND_INFORMATION_REQ.
    public static let opcode = ATTOpcode.findInformationRequest
    /// First requested handle.
    public var startingHandle: AttributeHandle
    /// Last requested handle.
    public var endingHandle: AttributeHandle

    /// Makes the PDU.
    public init(startingHandle: AttributeHandle, endingHandle: AttributeHandle) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
    }

    /// Decodes the 5-byte PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x04),
    /// `.truncated` (fewer than 5 bytes) or `.trailingBytes` (more).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        startingHandle = try reader.handle("Starting Handle")
        endingHandle = try reader.handle("Ending Handle")
        try reader.end()
    }

    /// The 5 bytes: 0x04, Starting Handle, Ending Handle (little-endian).
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 5)
        writer.writeRange(opcode: Self.opcode, startingHandle, endingHandle)
        return writer.bytes
    }
}

/// ATT_FIND_INFORMATION_RSP (Core v5.4 Vol 3 Part F §3.4.3.2).
///
/// Layout: Opcode 0x05, Format (1: 0x01 16-bit UUIDs, 0x02 128-bit UUIDs), Information Data: one or more
/// entries of Handle (2) + UUID (2 for format 1, so 4-byte entries; 16 for format 2, so 18-byte entries).
/// Decoding throws on another format value, an empty list, or a list that is not whole entries.
public struct ATTFindInformationResponse: ATTPDUCoding {
    /// 0x05, ATT_FIND_INFORMATION_RSP.
    public static let opcode = ATTOpcode.findInformationResponse

    /// The Format field.
    public enum Format: UInt8, Hashable, Sendable {
        /// 0x01: 16-bit Bluetooth UUIDs (4-byte entries).
        case uuid16 = 0x01
        /// 0x02: 128-bit UUIDs (18-byte entries).
        case uuid128 = 0x02

        /// Bytes per Information Data entry: 4 or 18.
        public var entryLength: Int { self == .uuid16 ? 4 : 18 }
    }

    /// One handle-UUID pair.
    public struct Entry: Hashable, Sendable {
        /// The attribute handle.
        public var handle: AttributeHandle
        /// The attribute type.
        public var uuid: BluetoothUUID

        /// Makes an entry.
        public init(handle: AttributeHandle, uuid: BluetoothUUID) {
            self.handle = handle
            self.uuid = uuid
        }
    }

    /// The UUID width of every entry.
    public let format: Format
    /// The entries, in the order received.
    public let entries: [Entry]

    /// Makes the PDU; nil when `entries` is empty or a UUID has no 16-bit form under ``Format/uuid16``.
    public init?(format: Format, entries: [Entry]) {
        guard !entries.isEmpty, format == .uuid128 || entries.allSatisfy({ $0.uuid.uuid16 != nil }) else { return nil }
        self.format = format
        self.entries = entries
    }

    /// Decodes the PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x05),
    /// `.truncated` (no Format byte), `.reservedValue` (Format not 0x01 or 0x02, at offset 1), `.tooFewEntries`
    /// (no entry) or `.notAWholeNumberOfEntries` (Information Data not a multiple of 4 or 18 bytes).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        let formatOffset = reader.offset
        let rawFormat = try reader.uint8("Format")
        guard let format = Format(rawValue: rawFormat) else {
            throw reader.fail("Format", .reservedValue(Int(rawFormat)), at: formatOffset)
        }
        let body = reader.remaining
        guard body > 0 else { throw reader.fail("Information Data", .tooFewEntries(minimum: 1, actual: 0)) }
        guard body % format.entryLength == 0 else {
            throw reader.fail("Information Data", .notAWholeNumberOfEntries(entryLength: format.entryLength, bodyLength: body))
        }
        var entries: [Entry] = []
        while reader.remaining > 0 {
            let handle = try reader.handle("Handle")
            let run = try reader.bytes(format.entryLength - 2, "UUID")
            guard let uuid = BluetoothUUID(littleEndianBytes: run) else { throw reader.fail("UUID", .invalidUUIDLength(run.count)) }
            entries.append(Entry(handle: handle, uuid: uuid))
        }
        self.format = format
        self.entries = entries
    }

    /// 2 + 4 or 18 × entries bytes: 0x05, Format, then each Handle (little-endian) and UUID (2 or 16 bytes,
    /// little-endian).
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 2 + entries.count * format.entryLength)
        writer.write(Self.opcode.rawValue)
        writer.write(format.rawValue)
        for entry in entries {
            writer.write(entry.handle)
            writer.write(contentsOf: entry.uuid.littleEndianBytes(width: format == .uuid16 ? 2 : 16) ?? [])
        }
        return writer.bytes
    }
}
