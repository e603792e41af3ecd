// Bluetooth UUIDs of 16, 32 and 128 bits, their expansion on the Base UUID and their text and wire forms.

/// A Bluetooth UUID (Core v5.4 Vol 3 Part B §2.5.1).
///
/// 16- and 32-bit UUIDs are shorthands on the Bluetooth Base UUID
/// `00000000-0000-1000-8000-00805F9B34FB`: `xxxxxxxx-0000-1000-8000-00805F9B34FB`.
/// Values are stored as their 128-bit form, so `0x180F` equals `0000180F-0000-1000-8000-00805F9B34FB`
/// and both hash alike. On the wire UUIDs are little-endian (Vol 3 Part F §3.2.1).
public struct BluetoothUUID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The 128-bit value, most significant 64 bits.
    public let high: UInt64
    /// The 128-bit value, least significant 64 bits.
    public let low: UInt64

    /// Low 64 bits of the Bluetooth Base UUID (`8000-00805F9B34FB`).
    static let baseLow: UInt64 = 0x8000_0080_5F9B_34FB
    /// High 64 bits of the Base UUID with the 32-bit slot zeroed (`00000000-0000-1000`).
    static let baseHigh: UInt64 = 0x0000_0000_0000_1000

    /// Makes the UUID from its 128-bit value.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// A 16-bit SIG UUID, e.g. `BluetoothUUID(0x180F)` for the Battery Service.
    public init(_ value: UInt16) { self.init(uuid32: UInt32(value)) }

    /// A 32-bit SIG UUID on the Base UUID.
    public init(uuid32 value: UInt32) {
        self.init(high: UInt64(value) << 32 | Self.baseHigh, low: Self.baseLow)
    }

    /// Makes a UUID from 16 bytes in big-endian (text) order; nil unless 16 bytes.
    public init?(bigEndianBytes bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 { high = high << 8 | UInt64(bytes[index]) }
        for index in 8..<16 { low = low << 8 | UInt64(bytes[index]) }
        self.init(high: high, low: low)
    }

    /// Makes a UUID from its little-endian wire form of 2, 4 or 16 bytes; nil for any other length.
    public init?(littleEndianBytes bytes: [UInt8]) {
        switch bytes.count {
        case 2: self.init(UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        case 4: self.init(uuid32: UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24)
        case 16: self.init(bigEndianBytes: bytes.reversed())
        default: return nil
        }
    }

    /// Parses "180F" (16-bit), "0000180F" (32-bit) or "0000180F-0000-1000-8000-00805F9B34FB"
    /// (128-bit, dashes optional), hex in either case, an optional "0x" prefix on the short forms; nil if malformed.
    public init?(_ text: String) {
        var hex = text
        if hex.hasPrefix("0x") || hex.hasPrefix("0X") { hex = String(hex.dropFirst(2)) }
        let isFull = hex.count == 36
        if isFull {
            let dashes = [8, 13, 18, 23]
            for (index, character) in hex.enumerated() where dashes.contains(index) != (character == "-") { return nil }
        }
        let digits = hex.filter { $0 != "-" || !isFull }
        guard digits.allSatisfy(\.isASCIIHexDigit) else { return nil }
        switch digits.count {
        case 4:
            guard let value = UInt16(digits, radix: 16) else { return nil }
            self.init(value)
        case 8:
            guard let value = UInt32(digits, radix: 16) else { return nil }
            self.init(uuid32: value)
        case 32:
            guard let high = UInt64(digits.prefix(16), radix: 16), let low = UInt64(digits.suffix(16), radix: 16) else { return nil }
            self.init(high: high, low: low)
        default:
            return nil
        }
    }

    /// True when the UUID lies on the Base UUID (it has a 16- or 32-bit shorthand).
    public var isSIGBased: Bool { low == Self.baseLow && high & 0xFFFF_FFFF == Self.baseHigh }

    /// The 16-bit shorthand, if the UUID has one.
    public var uuid16: UInt16? {
        guard isSIGBased, high >> 48 == 0 else { return nil }
        return UInt16(truncatingIfNeeded: high >> 32)
    }

    /// The 32-bit shorthand, if the UUID lies on the Base UUID (16-bit ones included).
    public var uuid32: UInt32? {
        guard isSIGBased else { return nil }
        return UInt32(truncatingIfNeeded: high >> 32)
    }

    /// The shortest width the UUID can be sent in: 2, 4 or 16 bytes.
    public var shortestWidth: Int { uuid16 != nil ? 2 : (uuid32 != nil ? 4 : 16) }

    /// The 16 bytes in big-endian (text) order.
    public var bigEndianBytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: high >> UInt64(56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> UInt64(56 - 8 * $0)) }
    }

    /// The shortest little-endian wire form: 2 bytes for 16-bit, 4 for 32-bit, else 16.
    public var littleEndianBytes: [UInt8] { littleEndianBytes(width: shortestWidth) ?? [] }

    /// The little-endian wire form in `width` bytes (2, 4 or 16); nil if the UUID does not fit that width.
    public func littleEndianBytes(width: Int) -> [UInt8]? {
        switch width {
        case 2:
            guard let value = uuid16 else { return nil }
            return [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        case 4:
            guard let value = uuid32 else { return nil }
            return (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(8 * $0)) }
        case 16:
            return bigEndianBytes.reversed()
        default:
            return nil
        }
    }

    /// The full 128-bit form, upper case: `0000180F-0000-1000-8000-00805F9B34FB`.
    public var uuidString128: String {
        let hex = bigEndianBytes.map { Hex.uppercase($0, digits: 2) }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// The shortest canonical text, as CBUUID prints it: "180F", "12345678", or the full upper-case 128-bit form.
    public var description: String {
        if let value = uuid16 { return Hex.uppercase(value, digits: 4) }
        if let value = uuid32 { return Hex.uppercase(value, digits: 8) }
        return uuidString128
    }

    public static func < (lhs: BluetoothUUID, rhs: BluetoothUUID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let uuid = BluetoothUUID(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a Bluetooth UUID: \(text)"))
        }
        self = uuid
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
