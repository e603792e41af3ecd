// Text from the air or a file made safe for a terminal line: control characters written as visible escapes.

import OCBCore

/// Escapes what could act on a terminal instead of being shown.
///
/// Device names, decoded strings and capture contents come from outside: an ESC (0x1B) could move the cursor or
/// retitle the terminal, a CR or LF could forge a line of output. Every line cbtool writes as text goes through
/// ``escaped(_:)``: C0 controls (U+0000–U+001F), DEL (U+007F) and C1 controls (U+0080–U+009F) become `\xHH`, the
/// bidirectional formatting characters (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069, which can reorder what
/// is shown) become `\u{HHHH}`, and a backslash becomes `\\`, so an escape is never ambiguous. Everything else is kept,
/// including every printable character of any script. JSON output needs none of this: RFC 8259 escapes controls.
public enum TerminalText {
    /// `text` with controls, bidi formatting characters and backslashes escaped (see the type).
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if scalar == "\\" {
                result += "\\\\"
            } else if value < 0x20 || (0x7F...0x9F).contains(value) {
                result += "\\x" + Hex.uppercase(value, digits: 2)
            } else if isBidiFormatting(value) {
                result += "\\u{" + Hex.uppercase(value, digits: 4) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || scalar == "\\" || isBidiFormatting(value)
    }

    private static func isBidiFormatting(_ value: UInt32) -> Bool {
        value == 0x061C || (0x200E...0x200F).contains(value) || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
