// ATT_EXECUTE_WRITE_REQ and ATT_EXECUTE_WRITE_RSP: committing or cancelling the prepared writes.

/// ATT_EXECUTE_WRITE_REQ (Core v5.4 Vol 3 Part F §3.4.6.3).
///
/// Layout (2 bytes): Opcode 0x18, Flags (1: 0x00 cancel all prepared writes, 0x01 write all). Other flag values
/// are reserved and throw when decoded.
public struct ATTExecuteWriteRequest: ATTRequestPDU {
    /// 0x18, ATT_EXECUTE_WRITE_REQ.
    public static let opcode = ATTOpcode.executeWriteRequest

    /// The Flags field.
    public enum Flags: UInt8, Hashable, Sendable {
        /// 0x00: cancel all prepared writes.
        case cancelAllPreparedWrites = 0x00
        /// 0x01: immediately write all pending prepared values.
        case writeAllPendingPreparedValues = 0x01
    }

    /// What to do with the queue.
    public var flags: Flags

    /// Makes the PDU.
    public init(flags: Flags) { self.flags = flags }

    /// Decodes the 2-byte PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x18),
    /// `.truncated` (no Flags byte), `.reservedValue` (Flags above 0x01, at offset 1) or `.trailingBytes`.
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        let offset = reader.offset
        let raw = try reader.uint8("Flags")
        guard let flags = Flags(rawValue: raw) else { throw reader.fail("Flags", .reservedValue(Int(raw)), at: offset) }
        self.flags = flags
        try reader.end()
    }

    /// The 2 bytes: 0x18, Flags.
    public var bytes: [UInt8] { [Self.opcode.rawValue, flags.rawValue] }
}

/// ATT_EXECUTE_WRITE_RSP (Core v5.4 Vol 3 Part F §3.4.6.4).
///
/// Layout: Opcode 0x19 (1 byte).
public struct ATTExecuteWriteResponse: ATTOpcodeOnlyLayout {
    /// 0x19, ATT_EXECUTE_WRITE_RSP.
    public static let opcode = ATTOpcode.executeWriteResponse

    /// Makes the PDU.
    public init() {}
}
