// LE PHY values and PHY bit sets used by PHY commands, extended scanning and connection events.

/// One LE PHY as a one-byte value (Core v5.4 Vol 4 Part E §7.7.65.12 TX_PHY/RX_PHY, §7.7.65.13 Primary_PHY).
///
/// 0x01 LE 1M, 0x02 LE 2M, 0x03 LE Coded; 0x00 in Secondary_PHY means "no packets on the secondary channel".
/// Other values are kept as they are.
public struct LEPHY: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The PHY byte.
    public let rawValue: UInt8
    /// Wraps a PHY byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: LE 1M.
    public static let le1M = LEPHY(rawValue: 0x01)
    /// 0x02: LE 2M.
    public static let le2M = LEPHY(rawValue: 0x02)
    /// 0x03: LE Coded.
    public static let leCoded = LEPHY(rawValue: 0x03)

    public var description: String {
        switch rawValue {
        case 0x00: "none"
        case 0x01: "LE 1M"
        case 0x02: "LE 2M"
        case 0x03: "LE Coded"
        default: "PHY 0x\(String(rawValue, radix: 16))"
        }
    }
}

/// A set of LE PHYs as a bit field (Core v5.4 Vol 4 Part E §7.8.48, §7.8.49 TX_PHYs/RX_PHYs, §7.8.64 Scanning_PHYs).
///
/// Bit 0 LE 1M, bit 1 LE 2M, bit 2 LE Coded.
public struct LEPHYSet: OptionSet, Hashable, Sendable {
    /// The bit field.
    public let rawValue: UInt8
    /// Wraps a bit field.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: LE 1M.
    public static let le1M = LEPHYSet(rawValue: 1 << 0)
    /// Bit 1: LE 2M.
    public static let le2M = LEPHYSet(rawValue: 1 << 1)
    /// Bit 2: LE Coded.
    public static let leCoded = LEPHYSet(rawValue: 1 << 2)
}

/// The address the controller uses as its own when scanning or initiating (Core v5.4 Vol 4 Part E §7.8.10 Own_Address_Type).
public enum LEOwnAddressType: UInt8, Hashable, Sendable {
    /// 0x00: public device address.
    case `public` = 0x00
    /// 0x01: random device address (set with LE Set Random Address).
    case random = 0x01
    /// 0x02: an RPA from the resolving list, else the public address.
    case resolvableOrPublic = 0x02
    /// 0x03: an RPA from the resolving list, else the random address.
    case resolvableOrRandom = 0x03
}

/// Passive or active scanning (Core v5.4 Vol 4 Part E §7.8.10 LE_Scan_Type).
public enum LEScanType: UInt8, Hashable, Sendable {
    /// 0x00: passive: no scan requests are sent.
    case passive = 0x00
    /// 0x01: active: scan requests may be sent.
    case active = 0x01
}
