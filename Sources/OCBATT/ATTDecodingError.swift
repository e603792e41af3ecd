// The typed error for a malformed ATT PDU: which PDU, which field, which offset, and what was wrong.

/// A malformed ATT PDU (Core v5.4 Vol 3 Part F §3.4; an invalid PDU in the sense of §3.4.1.1, Invalid PDU).
///
/// `offset` counts from the opcode byte (offset 0) of the PDU.
public struct ATTDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong with the field.
    public enum Reason: Hashable, Sendable {
        /// The field needed `needed` bytes but only `available` were left.
        case truncated(needed: Int, available: Int)
        /// `count` bytes followed the last field of a fixed-length PDU.
        case trailingBytes(count: Int)
        /// The list of `bodyLength` bytes is not a whole number of `entryLength`-byte entries.
        case notAWholeNumberOfEntries(entryLength: Int, bodyLength: Int)
        /// A reserved value (e.g. a Find Information Format other than 1 or 2, Execute Write Flags above 1).
        case reservedValue(Int)
        /// An entry length too small to hold the entry's fixed fields (zero included).
        case invalidEntryLength(Int)
        /// A list that must hold at least `minimum` entries held fewer.
        case tooFewEntries(minimum: Int, actual: Int)
        /// A UUID field of a length other than 2 or 16 bytes.
        case invalidUUIDLength(Int)
        /// The PDU is empty (no opcode byte).
        case empty
        /// The opcode is not one the spec defines.
        case unknownOpcode
        /// The bytes hold another PDU than the one being decoded (the opcode found).
        case unexpectedOpcode(ATTOpcode)
    }

    /// The PDU being decoded (its opcode).
    public let opcode: ATTOpcode
    /// The field, named as in the spec's PDU figure (e.g. "Attribute Handle", "Information Data").
    public let field: String
    /// Offset of the field, from the opcode byte.
    public let offset: Int
    /// What was wrong.
    public let reason: Reason

    /// Makes the error.
    public init(opcode: ATTOpcode, field: String, offset: Int, reason: Reason) {
        self.opcode = opcode
        self.field = field
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "malformed \(opcode.name): \(detail)" }

    /// What is wrong, without the PDU's name: `Length at offset 1: invalid entry length 0`.
    public var detail: String {
        let what: String = switch reason {
        case .truncated(let needed, let available): "needs \(needed) byte(s), \(available) left"
        case .trailingBytes(let count): "\(count) unexpected trailing byte(s)"
        case .notAWholeNumberOfEntries(let entryLength, let bodyLength): "\(bodyLength) bytes are not whole \(entryLength)-byte entries"
        case .reservedValue(let value): "reserved value \(value)"
        case .invalidEntryLength(let length): "invalid entry length \(length)"
        case .tooFewEntries(let minimum, let actual): "\(actual) entries, at least \(minimum) required"
        case .invalidUUIDLength(let length): "UUID of \(length) bytes (2 or 16 expected)"
        case .empty: "empty PDU"
        case .unknownOpcode: "unknown opcode"
        case .unexpectedOpcode(let found): "holds \(found.name)"
        }
        return "\(field) at offset \(offset): \(what)"
    }
}
