// The URI AD type: a scheme code point from the assigned numbers and the rest of the URI.
import OCBCore

/// The URI AD structure (Core Specification Supplement Part A §1.18).
///
/// Layout: UTF-8 text whose first character is a code point of the URI Scheme Name String Mapping
/// (Assigned Numbers §2.7: U+0001 no scheme, U+0016 "http:", U+0017 "https:", ...), encoded as UTF-8 (one
/// octet below U+0080, two from U+0080), followed by the rest of the URI ("//example.com").
public struct AdvertisedURI: Hashable, Sendable {
    /// The scheme's code point (0x0001 means the URI is in ``remainder`` whole).
    public var schemeCodePoint: UInt32
    /// The URI after the scheme.
    public var remainder: String

    /// Makes the value from a code point and the rest of the URI.
    public init(schemeCodePoint: UInt32, remainder: String) {
        self.schemeCodePoint = schemeCodePoint
        self.remainder = remainder
    }

    /// Makes the value from a whole URI ("https://example.com"), using the scheme's code point when it has one
    /// and U+0001 (no scheme) otherwise.
    public init(_ uri: String) {
        if let colon = uri.firstIndex(of: ":"),
           let code = AssignedNumbers.uriSchemeCodePoint(String(uri[...colon])) {
            self.init(schemeCodePoint: UInt32(code), remainder: String(uri[uri.index(after: colon)...]))
        } else {
            self.init(schemeCodePoint: 1, remainder: uri)
        }
    }

    /// Decodes the AD data; nil if it is not UTF-8 or is empty.
    init?(data: [UInt8]) {
        guard let text = String(validating: data, as: UTF8.self), let first = text.unicodeScalars.first else { return nil }
        schemeCodePoint = first.value
        remainder = String(text.unicodeScalars.dropFirst())
    }

    /// The AD data: the code point in UTF-8, then the remainder.
    var data: [UInt8] {
        let scalar = Unicode.Scalar(schemeCodePoint) ?? "\u{1}"
        return Array(String(Character(scalar)).utf8) + Array(remainder.utf8)
    }

    /// The scheme name string ("https:"), "" for U+0001, nil for an unassigned code point.
    public var scheme: String? {
        schemeCodePoint <= 0xFFFF ? AssignedNumbers.uriScheme(UInt16(schemeCodePoint)) : nil
    }

    /// The whole URI, nil when the scheme code point is unassigned.
    public var uri: String? { scheme.map { $0 + remainder } }
}
