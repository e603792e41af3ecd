// IEEE 11073-20601 SFLOAT and FLOAT, the medical number formats of health profiles.

/// IEEE 11073-20601 §8.3 numbers as GATT carries them (little-endian).
///
/// SFLOAT (16 bits): 4-bit signed exponent (bits 15-12), 12-bit signed mantissa; FLOAT (32 bits): 8-bit signed
/// exponent, 24-bit signed mantissa. Special mantissas (NaN, NRes, ±INFINITY, reserved) give nil.
public enum IEEE11073 {
    /// The value of an SFLOAT, nil for the special values 0x07FF NaN, 0x0800 NRes, 0x07FE +INF, 0x0802 −INF, 0x0801.
    public static func sfloat(_ raw: UInt16) -> Double? {
        let mantissaBits = raw & 0x0FFF
        guard !(0x07FE...0x0802).contains(mantissaBits) else { return nil }
        let mantissa = Int(mantissaBits) - (mantissaBits & 0x0800 != 0 ? 0x1000 : 0)
        let exponentBits = Int(raw >> 12)
        let exponent = exponentBits - (exponentBits & 0x8 != 0 ? 0x10 : 0)
        return Double(mantissa) * PresentationFormat.power(Int8(exponent))
    }

    /// The value of a FLOAT, nil for the special mantissas 0x7FFFFF NaN, 0x800000 NRes, 0x7FFFFE, 0x800002, 0x800001.
    public static func float(_ raw: UInt32) -> Double? {
        let mantissaBits = raw & 0x00FF_FFFF
        guard !(0x7F_FFFE...0x80_0002).contains(mantissaBits) else { return nil }
        let mantissa = Int(mantissaBits) - (mantissaBits & 0x80_0000 != 0 ? 0x100_0000 : 0)
        let exponent = Int(Int8(bitPattern: UInt8(truncatingIfNeeded: raw >> 24)))
        guard (-127...127).contains(exponent) else { return nil }
        return Double(mantissa) * PresentationFormat.power(Int8(exponent))
    }
}
