// The Characteristic Presentation Format descriptor (0x2904) and the value decoding it describes.

import OCBCore

/// A Characteristic Presentation Format descriptor value (Core v5.4 Vol 3 Part G §3.3.3.5).
///
/// Layout (7 octets, little-endian): Format (1), Exponent (1, signed: value = raw × 10^exponent), Unit (2, a UUID
/// 0x27xx from Assigned Numbers §3.5), Name Space (1, 0x01 = Bluetooth SIG), Description (2).
public struct PresentationFormat: Hashable, Sendable {
    /// The Format octet (Assigned Numbers §2.4.1: 0x01 boolean, 0x04 uint8 … 0x19 utf8s).
    public var format: UInt8
    /// The decimal exponent.
    public var exponent: Int8
    /// The unit UUID (e.g. 0x27AD percentage).
    public var unit: UInt16
    /// The name space of ``description``.
    public var nameSpace: UInt8
    /// The description (in the SIG name space: 0x0001 "first", …).
    public var description: UInt16

    /// Makes a format.
    public init(format: UInt8, exponent: Int8 = 0, unit: UInt16 = 0x2700, nameSpace: UInt8 = 0x01, description: UInt16 = 0) {
        self.format = format
        self.exponent = exponent
        self.unit = unit
        self.nameSpace = nameSpace
        self.description = description
    }

    /// Decodes the 7-octet descriptor value; nil when it is shorter (extra octets are ignored).
    public init?(bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        guard let format = try? reader.readUInt8(), let exponent = try? reader.readInt8(),
              let unit = try? reader.readUInt16(), let nameSpace = try? reader.readUInt8(),
              let description = try? reader.readUInt16() else { return nil }
        self.init(format: format, exponent: exponent, unit: unit, nameSpace: nameSpace, description: description)
    }

    /// The format's short name (Assigned Numbers §2.4.1): "uint8", "sint16", "utf8s"; "format 0xNN" when unknown.
    public var formatName: String {
        Self.formatNames[format] ?? "format 0x" + String(format, radix: 16, uppercase: true)
    }

    /// The unit's name from the assigned numbers ("percentage"), nil for unitless (0x2700) or unknown units.
    public var unitName: String? {
        unit == 0x2700 ? nil : AssignedNumbers.name(for: BluetoothUUID(unit))
    }

    /// "format uint8, exponent 0, unit percentage (0x27AD)".
    public var summary: String {
        var text = "format \(formatName), exponent \(exponent)"
        if unit != 0x2700 { text += ", unit \(unitName ?? "unknown") (\(GATTText.handle(unit)))" }
        return text
    }

    static let formatNames: [UInt8: String] = [
        0x01: "boolean", 0x02: "2bit", 0x03: "nibble", 0x04: "uint8", 0x05: "uint12", 0x06: "uint16", 0x07: "uint24",
        0x08: "uint32", 0x09: "uint48", 0x0A: "uint64", 0x0B: "uint128", 0x0C: "sint8", 0x0D: "sint12", 0x0E: "sint16",
        0x0F: "sint24", 0x10: "sint32", 0x11: "sint48", 0x12: "sint64", 0x13: "sint128", 0x14: "float32", 0x15: "float64",
        0x16: "medfloat16", 0x17: "medfloat32", 0x18: "uint16 [2]", 0x19: "utf8s", 0x1A: "utf16s", 0x1B: "struct",
        0x1C: "medASN1",
    ]

    /// The value `bytes` as this format describes: scaled by the exponent, with the unit's short name; nil when the
    /// bytes are too short for the format or the format is not a single number or string (struct, 128-bit, medASN1).
    /// "87 percentage", "21.5 thermodynamic temperature (degree Celsius)", "\"text\"".
    public func decode(_ bytes: [UInt8]) -> String? {
        var reader = ByteReader(bytes)
        let number: Double
        switch format {
        case 0x01: guard let raw = try? reader.readUInt8() else { return nil }; return raw == 0 ? "false" : "true"
        case 0x02: guard let raw = try? reader.readUInt8() else { return nil }; number = Double(raw & 0x03)
        case 0x03: guard let raw = try? reader.readUInt8() else { return nil }; number = Double(raw & 0x0F)
        case 0x04: guard let raw = try? reader.readUInt8() else { return nil }; number = Double(raw)
        case 0x05: guard let raw = try? reader.readUInt16() else { return nil }; number = Double(raw & 0x0FFF)
        case 0x06: guard let raw = try? reader.readUInt16() else { return nil }; number = Double(raw)
        case 0x07: guard let raw = try? reader.readUInt24() else { return nil }; number = Double(raw)
        case 0x08: guard let raw = try? reader.readUInt32() else { return nil }; number = Double(raw)
        case 0x09: guard let raw = try? reader.readBytes(6) else { return nil }; number = Double(Self.unsigned(raw))
        case 0x0A: guard let raw = try? reader.readUInt64() else { return nil }; number = Double(raw)
        case 0x0C: guard let raw = try? reader.readInt8() else { return nil }; number = Double(raw)
        case 0x0D: guard let raw = try? reader.readUInt16() else { return nil }; number = Double(Self.signed(UInt64(raw & 0x0FFF), bits: 12))
        case 0x0E: guard let raw = try? reader.readUInt16() else { return nil }; number = Double(Int16(bitPattern: raw))
        case 0x0F: guard let raw = try? reader.readUInt24() else { return nil }; number = Double(Self.signed(UInt64(raw), bits: 24))
        case 0x10: guard let raw = try? reader.readUInt32() else { return nil }; number = Double(Int32(bitPattern: raw))
        case 0x11: guard let raw = try? reader.readBytes(6) else { return nil }; number = Double(Self.signed(Self.unsigned(raw), bits: 48))
        case 0x12: guard let raw = try? reader.readUInt64() else { return nil }; number = Double(Int64(bitPattern: raw))
        case 0x14: guard let raw = try? reader.readUInt32() else { return nil }; number = Double(Float(bitPattern: raw))
        case 0x15: guard let raw = try? reader.readUInt64() else { return nil }; number = Double(bitPattern: raw)
        case 0x16: guard let raw = try? reader.readUInt16() else { return nil }; return IEEE11073.sfloat(raw).map { withUnit(Self.number($0)) }
        case 0x17: guard let raw = try? reader.readUInt32() else { return nil }; return IEEE11073.float(raw).map { withUnit(Self.number($0)) }
        case 0x19: return String(validating: bytes, as: UTF8.self).map { "\"\($0)\"" }
        case 0x1A:
            guard bytes.count % 2 == 0 else { return nil }
            var units: [UInt16] = []
            while let unit = try? reader.readUInt16() { units.append(unit) }
            return String(validating: units, as: UTF16.self).map { "\"\($0)\"" }
        default: return nil
        }
        return withUnit(Self.number(number * Self.power(exponent)))
    }

    private func withUnit(_ text: String) -> String {
        unitName.map { "\(text) \($0)" } ?? text
    }

    static func power(_ exponent: Int8) -> Double {
        var result = 1.0
        for _ in 0..<abs(Int(exponent)) { result *= 10 }
        return exponent < 0 ? 1 / result : result
    }

    static func unsigned(_ littleEndian: [UInt8]) -> UInt64 {
        littleEndian.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func signed(_ raw: UInt64, bits: Int) -> Int64 {
        let sign = UInt64(1) << (bits - 1)
        return raw & sign == 0 ? Int64(raw) : Int64(raw) - Int64(sign << 1)
    }

    /// A number without a needless ".0" and without float noise: 87, 21.5, 0.001.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value > 0 ? "+INFINITY" : "-INFINITY") }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        var text = String(format6: value)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        return text
    }
}

extension String {
    /// `value` with up to 6 decimals, no locale (no Foundation needed).
    init(format6 value: Double) {
        let scaled = (abs(value) * 1_000_000).rounded()
        guard scaled < 9e18 else { self = "\(value)"; return }
        let whole = Int64(scaled) / 1_000_000
        let fraction = Int64(scaled) % 1_000_000
        let digits = String(fraction)
        self = (value < 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: 6 - digits.count) + digits
    }
}
