// Internal reader that turns short reads of an ATT PDU into ATTDecodingError naming the field.

import OCBCore

/// Reads the fields of one ATT PDU, throwing ``ATTDecodingError`` with the PDU, field and offset.
struct ATTPDUReader {
    private var reader: ByteReader
    let opcode: ATTOpcode

    /// Starts after the opcode byte, checking that `bytes` begins with `opcode`.
    init(_ bytes: [UInt8], opcode: ATTOpcode) throws(ATTDecodingError) {
        self.opcode = opcode
        reader = ByteReader(bytes)
        guard let first = bytes.first else { throw ATTDecodingError(opcode: opcode, field: "Attribute Opcode", offset: 0, reason: .empty) }
        guard first == opcode.rawValue else {
            throw ATTDecodingError(opcode: opcode, field: "Attribute Opcode", offset: 0, reason: .unexpectedOpcode(ATTOpcode(rawValue: first)))
        }
        _ = try? reader.readUInt8()
    }

    var offset: Int { reader.offset }
    var remaining: Int { reader.remaining }

    func fail(_ field: String, _ reason: ATTDecodingError.Reason, at offset: Int? = nil) -> ATTDecodingError {
        ATTDecodingError(opcode: opcode, field: field, offset: offset ?? reader.offset, reason: reason)
    }

    mutating func uint8(_ field: String) throws(ATTDecodingError) -> UInt8 {
        do { return try reader.readUInt8() } catch { throw fail(field, .truncated(needed: 1, available: error.available)) }
    }

    mutating func handle(_ field: String) throws(ATTDecodingError) -> AttributeHandle {
        AttributeHandle(rawValue: try uint16(field))
    }
    mutating func uint16(_ field: String) throws(ATTDecodingError) -> UInt16 {
        do { return try reader.readUInt16() } catch { throw fail(field, .truncated(needed: 2, available: error.available)) }
    }

    mutating func bytes(_ count: Int, _ field: String) throws(ATTDecodingError) -> [UInt8] {
        do { return try reader.readBytes(count) } catch { throw fail(field, .truncated(needed: count, available: error.available)) }
    }

    mutating func rest() -> [UInt8] { reader.readRemaining() }

    /// Reads the rest as a 2- or 16-byte UUID.
    mutating func uuid(_ field: String) throws(ATTDecodingError) -> BluetoothUUID {
        let start = reader.offset
        let run = reader.readRemaining()
        guard run.count == 2 || run.count == 16, let uuid = BluetoothUUID(littleEndianBytes: run) else {
            throw fail(field, .invalidUUIDLength(run.count), at: start)
        }
        return uuid
    }

    /// Throws unless every byte has been read.
    func end() throws(ATTDecodingError) {
        guard reader.isAtEnd else { throw fail("end of PDU", .trailingBytes(count: reader.remaining)) }
    }
}

extension ATTPDUReader {
    /// Reads a Length byte then a list of entries of that length filling the rest of the PDU
    /// (Read By Type and Read By Group Type responses, §3.4.4.2, §3.4.4.10). Throws when the length is below
    /// `minimumEntryLength` (zero included), the list is empty, or it is not a whole number of entries.
    mutating func lengthPrefixedEntries(_ field: String, minimumEntryLength: Int) throws(ATTDecodingError) -> [[UInt8]] {
        let lengthOffset = offset
        let length = Int(try uint8("Length"))
        guard length >= minimumEntryLength else { throw fail("Length", .invalidEntryLength(length), at: lengthOffset) }
        guard remaining > 0 else { throw fail(field, .tooFewEntries(minimum: 1, actual: 0)) }
        guard remaining % length == 0 else { throw fail(field, .notAWholeNumberOfEntries(entryLength: length, bodyLength: remaining)) }
        var entries: [[UInt8]] = []
        while remaining > 0 { entries.append(try bytes(length, field)) }
        return entries
    }
}
