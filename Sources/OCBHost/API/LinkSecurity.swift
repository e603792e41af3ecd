// How one LE link is protected: encrypted or not, with what kind of key, and whether the key is a bond's.

/// The security of an LE connection (Core v5.4 Vol 3 Part C §10.2.1, LE security mode 1).
///
/// ``level`` is the mode 1 level: 1 no security, 2 encrypted with an unauthenticated key (Just Works), 3 encrypted
/// with an authenticated key (Passkey Entry, Numeric Comparison), 4 authenticated LE Secure Connections with a
/// 128-bit key.
public struct LinkSecurity: Sendable, Hashable, CustomStringConvertible {
    /// True once the controller reported the link encrypted (HCI Encryption Change, Vol 4 Part E §7.7.8).
    public var encrypted = false
    /// True when the key was made with MITM protection.
    public var authenticated = false
    /// True for a key made by LE Secure Connections.
    public var secureConnections = false
    /// The encryption key size in octets (7...16), 0 while not encrypted.
    public var keySize = 0
    /// True when the key is a stored bond's (re-encryption) or was stored as one after pairing.
    public var bonded = false

    /// Not encrypted.
    public init() {}

    /// Makes the value.
    public init(encrypted: Bool, authenticated: Bool, secureConnections: Bool, keySize: Int, bonded: Bool) {
        self.encrypted = encrypted
        self.authenticated = authenticated
        self.secureConnections = secureConnections
        self.keySize = keySize
        self.bonded = bonded
    }

    /// LE security mode 1 level (1...4), from the fields above.
    public var level: Int {
        guard encrypted else { return 1 }
        guard authenticated else { return 2 }
        return secureConnections && keySize == 16 ? 4 : 3
    }

    /// "encrypted, unauthenticated (Just Works), LE Secure Connections, 16-octet key, bonded" or "not encrypted".
    public var description: String {
        guard encrypted else { return "not encrypted" }
        return ["encrypted", authenticated ? "authenticated" : "unauthenticated (Just Works)",
                secureConnections ? "LE Secure Connections" : "legacy pairing", "\(keySize)-octet key",
                bonded ? "bonded" : "not bonded"].joined(separator: ", ")
    }
}
