// The stable identifier of a peripheral: a name-based UUID (version 5) of the controller and device addresses.
internal import OCBCore
import Foundation

/// Derives `CBPeer.identifier` for a device seen through a controller.
///
/// iOS gives each device a UUID that stays the same on one phone. Here the UUID is version 5 (SHA-1, RFC 9562 §5.5)
/// in the namespace ``namespace`` over the name `"<controller address>/<device address>/<address type byte>"`,
/// e.g. `"00:1A:7D:DA:71:13/C0:11:22:33:44:55/1"`: the same controller and device always give the same identifier,
/// another controller gives another one (as another phone would).
enum PeripheralIdentifier {
    /// The OpenCoreBluetooth namespace UUID `6F43422D-5065-7269-7068-6572616C0000` ("oCB-Peripheral").
    static let namespace: [UInt8] = [0x6F, 0x43, 0x42, 0x2D, 0x50, 0x65, 0x72, 0x69, 0x70, 0x68, 0x65, 0x72, 0x61, 0x6C, 0x00, 0x00]

    /// The identifier of `peer` seen through the controller at `controller`.
    static func make(controller: BluetoothAddress, peer: PeerAddress) -> UUID {
        // The name's bytes written directly (a new advertiser costs one derivation; text formatting cost more than it),
        // by a static function on the array passed inout (a nested one capturing it would box it on the heap).
        var name: [UInt8] = []
        name.reserveCapacity(namespace.count + 40)
        name += namespace
        append(controller, to: &name)
        name.append(UInt8(ascii: "/"))
        append(peer.address, to: &name)
        name.append(UInt8(ascii: "/"))
        appendDecimal(peer.type.rawValue, to: &name)
        return version5(prefixedName: name)
    }

    /// `address` as text, most significant byte first, upper-case hex digits separated by colons.
    private static func append(_ address: BluetoothAddress, to name: inout [UInt8]) {
        for index in 0..<6 {
            let byte = UInt8(truncatingIfNeeded: address.value >> (40 - 8 * UInt64(index)))
            if index > 0 { name.append(UInt8(ascii: ":")) }
            name.append(hexDigit(byte >> 4))
            name.append(hexDigit(byte & 0x0F))
        }
    }

    /// `value` in decimal digits, as `String(value)` writes it.
    private static func appendDecimal(_ value: UInt8, to name: inout [UInt8]) {
        if value >= 100 { name.append(UInt8(ascii: "0") + value / 100) }
        if value >= 10 { name.append(UInt8(ascii: "0") + value / 10 % 10) }
        name.append(UInt8(ascii: "0") + value % 10)
    }

    /// An upper-case hex digit.
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    /// A version-5 UUID of `name` in `namespace` (16 bytes, big-endian; RFC 9562 §5.5).
    static func version5(namespace: [UInt8] = namespace, name: String) -> UUID {
        version5(prefixedName: namespace + Array(name.utf8))
    }

    /// A version-5 UUID of the namespace's 16 bytes followed by the name's.
    private static func version5(prefixedName bytes: [UInt8]) -> UUID {
        var hash = SHA1.digest(bytes)
        hash[6] = (hash[6] & 0x0F) | 0x50
        hash[8] = (hash[8] & 0x3F) | 0x80
        return UUID(uuid: (hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7],
                           hash[8], hash[9], hash[10], hash[11], hash[12], hash[13], hash[14], hash[15]))
    }
}
