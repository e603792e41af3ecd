// The 48-bit Bluetooth device address: text form, wire form and random-address sub-type.

/// A 48-bit Bluetooth device address (BD_ADDR), Core v5.4 Vol 2 Part B §1.2 and Vol 6 Part B §1.3.
///
/// Stored most significant byte first, as printed: `AA:BB:CC:DD:EE:FF` has `bytes.0 == 0xAA`.
/// On the wire the order is reversed (least significant byte first): `FF EE DD CC BB AA`.
public struct BluetoothAddress: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The six bytes, most significant first (the printed order).
    public let bytes: [UInt8]

    /// The all-zero address 00:00:00:00:00:00.
    public static let zero = BluetoothAddress(uncheckedBytes: [0, 0, 0, 0, 0, 0])

    private init(uncheckedBytes: [UInt8]) { bytes = uncheckedBytes }

    /// Makes an address from six bytes in printed order (most significant first); nil if not six bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        self.bytes = bytes
    }

    /// Makes an address from six bytes in wire order (least significant first); nil if not six bytes.
    public init?(littleEndianBytes: [UInt8]) {
        guard littleEndianBytes.count == 6 else { return nil }
        bytes = littleEndianBytes.reversed()
    }

    /// Parses `AA:BB:CC:DD:EE:FF` (hex digits in either case; `-` also accepted as separator); nil if malformed.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let groups = parts.count == 6 ? parts : text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.count == 6 else { return nil }
        var parsed: [UInt8] = []
        for group in groups {
            guard group.count == 2, group.allSatisfy(\.isASCIIHexDigit), let byte = UInt8(group, radix: 16) else { return nil }
            parsed.append(byte)
        }
        bytes = parsed
    }

    /// The six bytes in wire order (least significant first).
    public var littleEndianBytes: [UInt8] { bytes.reversed() }

    /// The address as `AA:BB:CC:DD:EE:FF`, upper-case hex.
    public var description: String {
        bytes.map { Hex.uppercase($0, digits: 2) }.joined(separator: ":")
    }

    /// The sub-type of a random device address, from its two most significant bits
    /// (Core v5.4 Vol 6 Part B §1.3.2). Meaningful only when the address type is random.
    public var randomSubtype: RandomAddressSubtype {
        RandomAddressSubtype(topBits: (bytes.first ?? 0) >> 6)
    }

    public static func < (lhs: BluetoothAddress, rhs: BluetoothAddress) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let address = BluetoothAddress(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a Bluetooth address: \(text)"))
        }
        self = address
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
