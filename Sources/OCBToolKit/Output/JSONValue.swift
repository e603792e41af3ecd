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
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(value): out += value ? "true" : "false"
        case let .int(value): out += String(value)
        case let .double(value): out += value.isFinite ? "\(value)" : "null"
        case let .string(value): Self.writeString(value, into: &out)
        case let .array(values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(into: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (index, key) in members.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }).enumerated() {
                if index > 0 { out += "," }
                Self.writeString(key, into: &out)
                out += ":"
                members[key, default: .null].write(into: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, into out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
