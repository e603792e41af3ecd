// The address types HCI reports and the sub-types of random addresses.

/// An LE address type as HCI reports it (Core v5.4 Vol 4 Part E §7.7.65.2, Peer_Address_Type / Address_Type).
///
/// One byte: 0x00 public device address, 0x01 random device address, 0x02 public identity
/// address (resolved from an RPA), 0x03 random (static) identity address (resolved from an RPA).
/// Other values are kept as ``other(_:)``.
public enum AddressType: Hashable, Sendable, CustomStringConvertible {
    /// 0x00: public device address.
    case `public`
    /// 0x01: random device address.
    case random
    /// 0x02: public identity address (the controller resolved an RPA).
    case publicIdentity
    /// 0x03: random (static) identity address (the controller resolved an RPA).
    case randomIdentity
    /// Any other value, kept as received.
    case other(UInt8)

    /// Decodes the HCI byte.
    public init(rawValue: UInt8) {
        switch rawValue {
        case 0x00: self = .public
        case 0x01: self = .random
        case 0x02: self = .publicIdentity
        case 0x03: self = .randomIdentity
        default: self = .other(rawValue)
        }
    }

    /// The HCI byte.
    public var rawValue: UInt8 {
        switch self {
        case .public: 0x00
        case .random: 0x01
        case .publicIdentity: 0x02
        case .randomIdentity: 0x03
        case .other(let value): value
        }
    }

    /// True for the random kinds (random and random identity).
    public var isRandom: Bool { self == .random || self == .randomIdentity }

    public var description: String {
        switch self {
        case .public: "public"
        case .random: "random"
        case .publicIdentity: "public identity"
        case .randomIdentity: "random identity"
        case .other(let value): "type 0x\(String(value, radix: 16))"
        }
    }
}

/// The sub-type of a random device address, given by its two most significant bits
/// (Core v5.4 Vol 6 Part B §1.3.2): 0b11 static, 0b01 resolvable private, 0b00 non-resolvable private, 0b10 reserved.
public enum RandomAddressSubtype: Hashable, Sendable, CustomStringConvertible {
    /// 0b11: static device address.
    case `static`
    /// 0b01: resolvable private address (RPA).
    case resolvablePrivate
    /// 0b00: non-resolvable private address.
    case nonResolvablePrivate
    /// 0b10: reserved for future use.
    case reserved

    /// Decodes the two top bits (0...3).
    public init(topBits: UInt8) {
        switch topBits & 0b11 {
        case 0b11: self = .static
        case 0b01: self = .resolvablePrivate
        case 0b00: self = .nonResolvablePrivate
        default: self = .reserved
        }
    }

    public var description: String {
        switch self {
        case .static: "static"
        case .resolvablePrivate: "resolvable private"
        case .nonResolvablePrivate: "non-resolvable private"
        case .reserved: "reserved"
        }
    }
}
