// The LE Bluetooth Device Address AD type: an address and whether it is public or random.
import OCBCore

/// The LE Bluetooth Device Address AD structure (Core Specification Supplement Part A §1.16).
///
/// Layout: the address (6 octets, little-endian), then one octet whose bit 0 is 0 for a public and 1 for a
/// random device address; bits 1-7 are reserved and kept as received.
public struct LEDeviceAddress: Hashable, Sendable {
    /// The device address.
    public var address: BluetoothAddress
    /// The type octet as sent.
    public var typeOctet: UInt8

    /// Makes the value; `typeOctet` 0x00 public, 0x01 random.
    public init(address: BluetoothAddress, typeOctet: UInt8) {
        self.address = address
        self.typeOctet = typeOctet
    }

    /// `.public` or `.random`, from bit 0 of the type octet.
    public var addressType: AddressType { typeOctet & 1 == 0 ? .public : .random }
}
