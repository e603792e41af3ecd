// The Client Characteristic Configuration descriptor value: which server-initiated updates are enabled.

/// The value of a Client Characteristic Configuration descriptor (CCCD, 0x2902), two bytes little-endian
/// (Core v5.4 Vol 3 Part G §3.3.3.3, Table 3.11): bit 0 (0x0001) Notification, bit 1 (0x0002) Indication.
public struct GATTClientCharacteristicConfiguration: OptionSet, Hashable, Sendable {
    /// The 16-bit value.
    public let rawValue: UInt16

    /// Makes the configuration from its 16-bit value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 0x0001: notifications enabled.
    public static let notification = GATTClientCharacteristicConfiguration(rawValue: 0x0001)
    /// 0x0002: indications enabled.
    public static let indication = GATTClientCharacteristicConfiguration(rawValue: 0x0002)

    /// The two bytes written to the CCCD, little-endian: `01 00` notify, `02 00` indicate, `00 00` off.
    public var bytes: [UInt8] { [UInt8(truncatingIfNeeded: rawValue), UInt8(truncatingIfNeeded: rawValue >> 8)] }
}
