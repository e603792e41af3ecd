// A remote LE device's address together with its address type, the key the host uses for devices.

import OCBCore

/// A remote device's 48-bit address and its type, as HCI reports them (Core v5.4 Vol 4 Part E §7.7.65.2).
///
/// Two devices with the same 48 bits but different types (public vs random) are different devices.
public struct PeerAddress: Hashable, Sendable, CustomStringConvertible {
    /// The 48-bit address.
    public var address: BluetoothAddress
    /// Public, random, or an identity type resolved by the controller.
    public var type: AddressType

    /// Makes the pair.
    public init(_ address: BluetoothAddress, type: AddressType) {
        self.address = address
        self.type = type
    }

    /// True for an anonymous extended advertiser (Address_Type 0xFF, Core v5.4 Vol 4 Part E §7.7.65.13): no address
    /// tells it apart from another.
    public var isAnonymous: Bool { type == .other(0xFF) }

    /// `AA:BB:CC:DD:EE:FF (random)`.
    public var description: String { "\(address) (\(type))" }

    /// Hashes the 48 bits and the type's HCI byte as one word: the scan path looks every report's advertiser up in
    /// the host's table, the backend's cache and the facade's peripherals, and one word is one round of the hasher
    /// instead of one per field and a discriminator. Equal values give equal words (`==` is the fields').
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }

    /// What the standard library's hash tables ask (`Hashable`'s underscored requirement; ``hash(into:)`` is its
    /// default): the one word hashed in one shot with the table's seed, as a `UInt64` key is, without the streaming
    /// hasher's set-up, buffer and tail (about 95 instructions a lookup instead of 170; the scan path makes three a
    /// report). Still SipHash-1-3 under the process's random key, so a flood of chosen addresses cannot make the
    /// tables collide. Equal values give equal words, so equal hashes.
    public func _rawHashValue(seed: Int) -> Int {
        key._rawHashValue(seed: seed)
    }

    /// The 48 bits and the type's HCI byte above them: one word, equal for equal values.
    private var key: UInt64 { address.value | UInt64(type.rawValue) << 48 }
}
