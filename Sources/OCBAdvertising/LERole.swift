// The LE Role AD type: which GAP roles the device supports and prefers.

/// The LE Role AD structure (Core Specification Supplement Part A §1.17), one octet.
public enum LERole: Hashable, Sendable {
    /// 0x00: only the Peripheral role.
    case peripheralOnly
    /// 0x01: only the Central role.
    case centralOnly
    /// 0x02: both, Peripheral preferred for connection establishment.
    case bothPeripheralPreferred
    /// 0x03: both, Central preferred for connection establishment.
    case bothCentralPreferred
    /// A reserved value, kept as received.
    case reserved(UInt8)

    /// Decodes the octet.
    public init(rawValue: UInt8) {
        switch rawValue {
        case 0x00: self = .peripheralOnly
        case 0x01: self = .centralOnly
        case 0x02: self = .bothPeripheralPreferred
        case 0x03: self = .bothCentralPreferred
        default: self = .reserved(rawValue)
        }
    }

    /// The octet.
    public var rawValue: UInt8 {
        switch self {
        case .peripheralOnly: 0x00
        case .centralOnly: 0x01
        case .bothPeripheralPreferred: 0x02
        case .bothCentralPreferred: 0x03
        case .reserved(let value): value
        }
    }
}
