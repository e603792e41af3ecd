// Hex text to bytes and back, for logs, fixtures and the command line.

/// Hex helpers for byte arrays.
public enum Hex {
    /// Lower-case hex of `bytes`, with `separator` between bytes (default none): `[0x0A, 0xFF]` → "0aff".
    /// Bytes in contiguous storage (an array, a slice, `Data`) are written straight into the string
    /// (the overload over an `UnsafeBufferPointer`); others are gathered first.
    public static func string<C: Sequence>(_ bytes: C, separator: String = "") -> String where C.Element == UInt8 {
        if let text = bytes.withContiguousStorageIfAvailable({ string($0, separator: separator) }) { return text }
        return Array(bytes).withUnsafeBufferPointer { string($0, separator: separator) }
    }

    /// Lower-case hex of `bytes` (an array's, without the generic path's per-byte calls), `separator` between bytes.
    public static func string(_ bytes: [UInt8], separator: String = "") -> String {
        bytes.withUnsafeBufferPointer { string($0, separator: separator) }
    }

    /// Lower-case hex of the bytes at `bytes`, `separator` between bytes: one string written in place, two digits a
    /// byte from a table (a cbtool scan line writes its manufacturer data's this way, tens of thousands a second).
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>, separator: String) -> String {
        guard !bytes.isEmpty else { return "" }
        var separator = separator
        return separator.withUTF8 { between in
            String(unsafeUninitializedCapacity: count(of: bytes.count, separator: between.count)) { text in
                writeLowercase(bytes, separator: between, into: text)
            }
        }
    }

    /// The length of the hex text of `bytes` bytes with a `separator`-byte separator between them: 2 a byte plus the
    /// separators (at most a few thousand bytes are written at once, an extended advertisement's 1,650: no overflow).
    public static func count(of bytes: Int, separator: Int) -> Int {
        bytes == 0 ? 0 : bytes * 2 + (bytes - 1) * separator
    }

    /// Writes the lower-case hex of `bytes`, `separator` between bytes, at the start of `text`, returning the bytes
    /// written: ``count(of:separator:)``, or 0 when `text` is shorter than that (nothing is written then). The one
    /// hex writer of ``string(_:separator:)`` and of output written straight into a buffer (cbtool's JSON lines).
    public static func writeLowercase(_ bytes: UnsafeBufferPointer<UInt8>, separator: UnsafeBufferPointer<UInt8>,
                             into text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard text.count >= count(of: bytes.count, separator: separator.count) else { return 0 }
        return lowercaseDigits.withUnsafeBufferPointer { digits in
            var at = 0
            for (index, byte) in bytes.enumerated() {
                if index > 0 {
                    for mark in separator { text[at] = mark; at += 1 }
                }
                text[at] = digits[Int(byte >> 4)]
                text[at + 1] = digits[Int(byte & 0x0F)]
                at += 2
            }
            return at
        }
    }

    /// The digits of lower-case hex, by nibble.
    private static let lowercaseDigits: [UInt8] = Array("0123456789abcdef".utf8)
    /// The digits of upper-case hex, by nibble.
    static let uppercaseDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Upper-case hex of `value`, zero-padded to at least `digits` digits, no prefix: `(0x2A, 4)` → "002A".
    /// The one formatter of handles, opcodes, codes, UUIDs and addresses in descriptions across the layers.
    /// Values that fit in 64 bits are written in place from the digit table (``writeUppercase(_:digits:into:)``), padded
    /// to at most 64 places; negative ones are `String(radix:)`'s text padded in front: `(-0x2A, 4)` → "0-2A".
    public static func uppercase<T: BinaryInteger>(_ value: T, digits: Int) -> String {
        if let value = UInt64(exactly: value) {
            let places = uppercaseCount(value, digits: digits)
            return String(unsafeUninitializedCapacity: places) { writeUppercase(value, digits: places, into: $0) }
        }
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The places ``uppercase(_:digits:)`` writes for `value`: its significant digits (at least one), or `digits`
    /// when more (at most 64).
    public static func uppercaseCount(_ value: UInt64, digits: Int) -> Int {
        let significant = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
        return max(significant, min(digits, 64))
    }

    /// Writes the low `digits` hex digits of `value`, upper case, most significant first (zero-padded: places past the
    /// 16th are "0"), at the start of `text`; returns `digits`, or 0 when `text` is shorter (nothing written). The one
    /// upper-case hex writer of handles, UUIDs and company identifiers in text.
    public static func writeUppercase(_ value: UInt64, digits: Int, into text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard digits > 0, text.count >= digits else { return 0 }
        return uppercaseDigits.withUnsafeBufferPointer { table in
            var rest = value
            var place = digits
            while place > 0 {
                place -= 1
                text[place] = table[Int(rest & 0x0F)]
                rest >>= 4
            }
            return digits
        }
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
