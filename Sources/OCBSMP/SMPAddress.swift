// A device address as the Security Manager's functions take it: the type octet then the 48-bit address.

import OCBCore

/// An address for c1, f5 and f6 (Core v5.4 Vol 3 Part H §2.2.3, §2.2.7): `type` 0 public or 1 random, then the address.
public struct SMPAddress: Hashable, Sendable {
    /// True for a random address (type octet 1), false for a public one (0).
    public var isRandom: Bool
    /// The address (as the connection used it: a resolvable private address stays one).
    public var address: BluetoothAddress

    /// Makes an address.
    public init(isRandom: Bool, address: BluetoothAddress) {
        self.isRandom = isRandom
        self.address = address
    }

    /// The type octet: 0x00 public, 0x01 random.
    public var typeOctet: UInt8 { isRandom ? 0x01 : 0x00 }

    /// The 6 address octets, most significant first.
    public var octets: [UInt8] { address.bytes }

    /// The 7 octets of A1/A2 in f5 and f6: type, then the address, most significant first.
    public var withType: [UInt8] { [typeOctet] + octets }
}
