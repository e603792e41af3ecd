// A JSON value and its compact, key-sorted text: the one format of cbtool's --json lines.

import OCBATT

/// A JSON value (RFC 8259) built by cbtool's formatters and written as one compact line.
///
/// ``text`` writes object keys sorted by their UTF-8 bytes, so equal values always give equal lines (gateway scripts
/// and tests can compare lines). Integers are written exactly; doubles that are not finite become `null`.
public enum JSONValue: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer, written exactly.
    case int(Int64)
    /// A number with a fraction (shortest round-tripping text).
    case double(Double)
    /// A string (escaped per RFC 8259 §7).
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object (keys written sorted).
    case object([String: JSONValue])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object: [String: JSONValue] = [:]
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }

    /// An integer value from any integer type.
    public static func integer<T: BinaryInteger>(_ value: T) -> JSONValue { .int(Int64(clamping: value)) }
    /// An attribute handle as its number (JSON carries handles as integers).
    public static func integer(_ handle: AttributeHandle) -> JSONValue { .int(Int64(handle.rawValue)) }

    /// A string, or `null` when `value` is nil.
    public static func optional(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    /// The value as compact JSON text on one line (no newline inside: control characters are escaped).
    public var text: String {
        var out = LineBuffer(capacity: 256)
        write(into: &out)
        return out.text
    }

    /// Appends the UTF-8 of the value's text to `out`.
    func write(into out: inout LineBuffer) {
        switch self {
        case .null: out.append("null")
        case let .bool(value): if value { out.append("true") } else { out.append("false") }
        case let .int(value): appendDecimal(value, to: &out)
        case let .double(value): out.append(contentsOf: value.isFinite ? "\(value)" : "null")
        case let .string(value): Self.writeString(value, into: &out)
        case let .array(values):
            out.append(0x5B)  // [
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(0x2C) }
                value.write(into: &out)
            }
            out.append(0x5D)  // ]
        case let .object(members):
            out.append(0x7B)  // {
            for (index, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
                if index > 0 { out.append(0x2C) }
                Self.writeString(member.key, into: &out)
                out.append(0x3A)  // :
                member.value.write(into: &out)
            }
            out.append(0x7D)  // }
        }
    }

    /// Writes `value` quoted, escaping `"`, `\` and the control characters U+0000-U+001F (RFC 8259 §7); every other
    /// byte of its UTF-8 is copied as it is.
    static func writeString(_ value: String, into out: inout LineBuffer) {
        var value = value
        value.withUTF8 { writeString(UnsafeRawBufferPointer($0), into: &out) }
    }

    /// Writes the text whose UTF-8 is `raw` as ``writeString(_:into:)`` writes a string (the bytes are copied as they
    /// are except for the escapes: invalid UTF-8 stays invalid).
    static func writeString(_ raw: UnsafeRawBufferPointer, into out: inout LineBuffer) {
        out.append(0x22)
        var run = 0  // runs between escapes are copied whole
        var index = 0
        while index < raw.count {
            // Eight bytes at a time while none of them is escaped (a scan line is mostly plain ASCII).
            if raw.count - index >= 8, !mayNeedEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
                continue
            }
            let byte = raw[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                out.append(UnsafeRawBufferPointer(rebasing: raw[run..<index]))
                out.append(contentsOf: escape(byte))
                run = index + 1
            }
            index += 1
        }
        out.append(UnsafeRawBufferPointer(rebasing: raw[run...]))
        out.append(0x22)
    }

    /// Whether any of the eight bytes of `word` may be one ``writeString(_:into:)`` escapes (below 0x20, `"` or `\`):
    /// never false when one is (the bit tricks of "Bit Twiddling Hacks", "determine if a word has a byte less than n"
    /// and "has a zero byte" on `word` xor the byte repeated), sometimes true when none is (the bytes are then looked
    /// at one by one).
    @inline(__always) private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return control | ((quote &- ones) & ~quote & highs) | ((backslash &- ones) & ~backslash & highs) != 0
    }

    /// The escape of one of the bytes ``writeString(_:into:)`` escapes.
    private static func escape(_ byte: UInt8) -> String {
        switch byte {
        case 0x22: return "\\\""
        case 0x5C: return "\\\\"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        default:
            let hex = String(byte, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}
