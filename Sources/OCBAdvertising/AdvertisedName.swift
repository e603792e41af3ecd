// A name carried in advertising data (local name, broadcast name): its bytes as sent and their text.

/// A name from an AD structure (Shortened/Complete Local Name, CSS Part A §1.2; Broadcast Name).
///
/// The bytes are kept exactly as sent (devices send invalid UTF-8 and NUL padding); ``string`` is their UTF-8
/// text without the trailing NULs (as BlueZ strips them) and with invalid sequences replaced by U+FFFD.
public struct AdvertisedName: Hashable, Sendable, CustomStringConvertible {
    /// The name's bytes as sent (UTF-8 by the spec; not checked).
    public let bytes: [UInt8]

    /// Wraps bytes as received.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The UTF-8 bytes of `text`.
    public init(_ text: String) { bytes = Array(text.utf8) }

    /// The UTF-8 text of the bytes before any trailing NULs (padding: "Sensor\0\0" is "Sensor"), invalid sequences
    /// replaced by U+FFFD. A NUL inside the name stays (cbtool shows it escaped).
    public var string: String {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// True when the bytes are valid UTF-8.
    public var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    public var description: String { string }
}
