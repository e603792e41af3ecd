// Resolving a resolvable private address with an Identity Resolving Key (ah), so a rotating peer keeps one identity.

import OCBCore

/// The check of Core v5.4 Vol 6 Part B §1.3.2.3: a random address whose two most significant bits are 0b01 is
/// prand (its upper 24 bits) || hash (its lower 24 bits), and it belongs to the device whose IRK gives
/// `ah(IRK, prand) == hash` (Vol 3 Part H §2.2.2).
public enum ResolvablePrivateAddress {
    /// True when `address` is resolvable (top bits 0b01) and `irk` (16 bytes, most significant first) resolves it.
    /// False for any other address; throws only ``SMPCryptoError`` (a wrong IRK length, a libcrypto failure).
    public static func resolves(_ address: BluetoothAddress, irk: [UInt8]) throws(SMPCryptoError) -> Bool {
        guard address.value >> 46 == 0b01 else { return false }
        let octets = address.bytes
        return try SMPCrypto.ah(k: irk, r: Array(octets.prefix(3))) == Array(octets.suffix(3))
    }
}
