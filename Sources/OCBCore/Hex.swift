// Hex text to bytes and back, for logs, fixtures and the command line.

/// Hex helpers for byte arrays.
public enum Hex {
    /// Lower-case hex of `bytes`, with `separator` between bytes (default none): `[0x0A, 0xFF]` → "0aff".
    public static func string<C: Sequence>(_ bytes: C, separator: String = "") -> String where C.Element == UInt8 {
        let digits = lowercaseDigits
        let between = Array(separator.utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * (2 + between.count))
        for byte in bytes {
            if !text.isEmpty { text += between }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The digits of lower-case hex, by nibble.
    private static let lowercaseDigits: [UInt8] = Array("0123456789abcdef".utf8)
    /// The digits of upper-case hex, by nibble.
    static let uppercaseDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Upper-case hex of `value`, zero-padded to at least `digits` digits, no prefix: `(0x2A, 4)` → "002A".
    /// The one formatter of handles, opcodes, codes, UUIDs and addresses in descriptions across the layers.
    public static func uppercase<T: BinaryInteger>(_ value: T, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// Parses hex text into bytes, ignoring whitespace, ':' and '-' separators and an optional "0x" prefix;
    /// nil if a character is not hex or the digit count is odd.
    public static func bytes(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        if body.hasPrefix("0x") || body.hasPrefix("0X") { body = body.dropFirst(2) }
        let digits = body.filter { !$0.isWhitespace && $0 != ":" && $0 != "-" }
        guard digits.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            let pair = digits[index..<next]
            guard pair.allSatisfy(\.isASCIIHexDigit), let byte = UInt8(pair, radix: 16) else { return nil }
            result.append(byte)
            index = next
        }
        return result
    }
}

extension Character {
    /// True for 0-9, a-f and A-F only (not the sign characters `UInt8(_:radix:)` would also accept, nor fullwidth forms).
    var isASCIIHexDigit: Bool {
        guard let ascii = asciiValue else { return false }
        return (0x30...0x39).contains(ascii) || (0x41...0x46).contains(ascii) || (0x61...0x66).contains(ascii)
    }
}
