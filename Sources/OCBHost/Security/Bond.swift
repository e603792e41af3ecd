// What a bond keeps of a paired peer: its identity and the keys distributed during pairing.

import OCBCore

/// The keys of one bonded peer (Core v5.4 Vol 3 Part H §3.6, §2.4), as the key store writes them.
///
/// Keys are 32 lower-case hex digits, most significant octet first (as ``OCBSMP/SMPCrypto`` takes them). `ediv` and
/// `rand` identify a legacy LTK (both 0 for Secure Connections, §2.4.2.3); `keySize` is 7...16 octets;
/// `authenticated` says the key came with MITM protection (Passkey Entry, Numeric Comparison, OOB), `secureConnections`
/// that it came from LE Secure Connections.
public struct Bond: Codable, Hashable, Sendable {
    /// The peer's identity address ("C1:A0:00:00:00:01"; its resolvable private addresses resolve to it with the IRK).
    public var peer: String
    /// "public" or "random" (a static random identity address).
    public var peerAddressType: String
    /// The Long Term Key.
    public var longTermKey: String
    /// The Encrypted Diversifier of a legacy LTK (0 for Secure Connections).
    public var ediv: UInt16
    /// The 64-bit Rand of a legacy LTK, 16 hex digits (zeros for Secure Connections).
    public var rand: String
    /// The negotiated encryption key size, octets.
    public var keySize: Int
    /// True when the key was made with MITM protection.
    public var authenticated: Bool
    /// True for an LE Secure Connections key.
    public var secureConnections: Bool
    /// The peer's Identity Resolving Key, when it distributed one.
    public var identityResolvingKey: String?
    /// The peer's Connection Signature Resolving Key, when it distributed one.
    public var signatureKey: String?
    /// When the bond was made, ISO 8601 UTC.
    public var created: String
    /// The address the peer had on the link the bond was made on, when that was a resolvable private address (nil:
    /// it was the identity address). The host reports the device by this address ever after, whatever address it
    /// rotates to (``knownAddress``), so its `CBPeripheral.identifier` stays the one the app saw when it paired.
    public var pairedAddress: String?
    /// The resolvable private address the device was last heard from (nil: never, or it uses its identity address):
    /// where a connect goes before the device is heard again, in this process or the next.
    public var lastAddress: String?
    /// This host's CSRK given to the device (it signs this host's Signed Write Commands, Vol 3 Part H §2.4.5), when
    /// the device took one.
    public var localSignatureKey: String?
    /// The SignCounter of this host's next signed write (Vol 3 Part C §10.4.1): it only grows, across processes.
    public var localSignCounter: UInt32?

    /// Makes a bond.
    public init(peer: String, peerAddressType: String, longTermKey: String, ediv: UInt16 = 0, rand: String = "0000000000000000",
                keySize: Int = 16, authenticated: Bool, secureConnections: Bool, identityResolvingKey: String? = nil,
                signatureKey: String? = nil, created: String, pairedAddress: String? = nil) {
        self.peer = peer
        self.peerAddressType = peerAddressType
        self.longTermKey = longTermKey
        self.ediv = ediv
        self.rand = rand
        self.keySize = keySize
        self.authenticated = authenticated
        self.secureConnections = secureConnections
        self.identityResolvingKey = identityResolvingKey
        self.signatureKey = signatureKey
        self.created = created
        self.pairedAddress = pairedAddress
    }

    /// The address the host reports this device by: ``pairedAddress`` (random) when set, else the identity address.
    public var knownAddress: (address: String, isRandom: Bool) {
        if let pairedAddress { return (pairedAddress, true) }
        return (peer, peerAddressType == "random")
    }

    /// Nil when the bond is well formed; else what is wrong ("longTermKey is not 32 hex digits").
    public var problem: String? {
        if BluetoothAddress(peer) == nil { return "peer \"\(peer)\" is not an address" }
        if let pairedAddress, BluetoothAddress(pairedAddress) == nil { return "pairedAddress \"\(pairedAddress)\" is not an address" }
        if let lastAddress, BluetoothAddress(lastAddress) == nil { return "lastAddress \"\(lastAddress)\" is not an address" }
        if !["public", "random"].contains(peerAddressType) { return "peerAddressType \"\(peerAddressType)\" is not public or random" }
        for (name, value) in [("longTermKey", longTermKey), ("identityResolvingKey", identityResolvingKey), ("signatureKey", signatureKey),
                              ("localSignatureKey", localSignatureKey)] {
            if let value, value.count != 32 || Hex.bytes(value) == nil { return "\(name) is not 32 hex digits" }
        }
        if rand.count != 16 || Hex.bytes(rand) == nil { return "rand is not 16 hex digits" }
        if !(7...16).contains(keySize) { return "keySize \(keySize) is not 7...16" }
        return nil
    }
}
