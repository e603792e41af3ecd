// The 48-bit Bluetooth device address: text form, wire form and random-address sub-type.

/// A 48-bit Bluetooth device address (BD_ADDR), Core v5.4 Vol 2 Part B §1.2 and Vol 6 Part B §1.3.
///
/// Printed most significant byte first: `AA:BB:CC:DD:EE:FF` has `bytes[0] == 0xAA` and ``value`` 0xAABBCCDDEEFF.
/// On the wire the order is reversed (least significant byte first): `FF EE DD CC BB AA`. Held as one integer, so
/// an address costs no allocation and hashes and compares as a word (the scan path keys every report by it).
public struct BluetoothAddress: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The address as a number, 0...0xFFFF_FFFF_FFFF; the first printed byte is bits 40-47.
    public let value: UInt64

    /// The six bytes, most significant first (the printed order).
    public var bytes: [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: value >> (40 - 8 * UInt64($0))) } }

    /// The all-zero address 00:00:00:00:00:00.
    public static let zero = BluetoothAddress(value: 0)

    /// Makes an address from its number; bits above the 48th are ignored.
    public init(value: UInt64) { self.value = value & 0xFFFF_FFFF_FFFF }

    /// Makes an address from six bytes in printed order (most significant first); nil if not six bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        value = bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Makes an address from six bytes in wire order (least significant first); nil if not six bytes.
    public init?(littleEndianBytes: some Collection<UInt8>) {
        guard littleEndianBytes.count == 6 else { return nil }
        var shift: UInt64 = 0
        var value: UInt64 = 0
        for byte in littleEndianBytes {
            value |= UInt64(byte) << shift
            shift += 8
        }
        self.value = value
    }

    /// Parses `AA:BB:CC:DD:EE:FF` (hex digits in either case; `-` also accepted as separator, the same one
    /// throughout); nil if malformed. One pass over the text's 17 UTF-8 bytes, no allocation.
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        value = parsed
    }

    /// The 48 bits of `AA:BB:CC:DD:EE:FF` in `utf8`, or nil.
    private static func parse(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard utf8.count == 17 else { return nil }
        let separator = utf8[2]
        guard separator == UInt8(ascii: ":") || separator == UInt8(ascii: "-") else { return nil }
        var parsed: UInt64 = 0
        for group in 0..<6 {
            let at = group * 3
            if group != 0, utf8[at - 1] != separator { return nil }
            guard let high = hexValue(utf8[at]), let low = hexValue(utf8[at + 1]) else { return nil }
            parsed = parsed << 8 | UInt64(high << 4 | low)
        }
        return parsed
    }

    /// The value of one ASCII hex digit, or nil.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// The six bytes in wire order (least significant first).
    public var littleEndianBytes: [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }

    /// The address as `AA:BB:CC:DD:EE:FF`, upper-case hex.
    public var description: String {
        let digits = Hex.uppercaseDigits
        var text: [UInt8] = []
        text.reserveCapacity(17)
        for shift in stride(from: 40, through: 0, by: -8) {
            let byte = Int(truncatingIfNeeded: value >> UInt64(shift)) & 0xFF
            if shift != 40 { text.append(UInt8(ascii: ":")) }
            text.append(digits[byte >> 4])
            text.append(digits[byte & 0x0F])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The sub-type of a random device address, from its two most significant bits
    /// (Core v5.4 Vol 6 Part B §1.3.2). Meaningful only when the address type is random.
    public var randomSubtype: RandomAddressSubtype {
        RandomAddressSubtype(topBits: UInt8(truncatingIfNeeded: value >> 46))
    }

    public static func < (lhs: BluetoothAddress, rhs: BluetoothAddress) -> Bool {
        lhs.value < rhs.value
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
