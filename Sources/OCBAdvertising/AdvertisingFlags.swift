// The Flags AD type: discoverable modes and BR/EDR support bits.

/// The Flags AD structure's bits (Core Specification Supplement Part A §1.3; Core v5.4 Vol 3 Part C §11).
///
/// One octet: bit 0 LE Limited Discoverable Mode, bit 1 LE General Discoverable Mode, bit 2 BR/EDR Not Supported,
/// bit 3 Simultaneous LE and BR/EDR (Controller), bit 4 (Host, deprecated); bits 5-7 reserved. Reserved bits are
/// kept as received (`rawValue` 0xC6 stays 0xC6).
public struct AdvertisingFlags: OptionSet, Hashable, Sendable {
    /// The octet as sent.
    public let rawValue: UInt8
    /// Wraps the octet.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: LE Limited Discoverable Mode.
    public static let leLimitedDiscoverable = AdvertisingFlags(rawValue: 1 << 0)
    /// Bit 1: LE General Discoverable Mode.
    public static let leGeneralDiscoverable = AdvertisingFlags(rawValue: 1 << 1)
    /// Bit 2: BR/EDR Not Supported.
    public static let brEDRNotSupported = AdvertisingFlags(rawValue: 1 << 2)
    /// Bit 3: Simultaneous LE and BR/EDR to Same Device Capable (Controller).
    public static let simultaneousLEAndBREDRController = AdvertisingFlags(rawValue: 1 << 3)
    /// Bit 4: Simultaneous LE and BR/EDR to Same Device Capable (Host); deprecated in Core v5.4 but still seen.
    public static let simultaneousLEAndBREDRHost = AdvertisingFlags(rawValue: 1 << 4)
}
