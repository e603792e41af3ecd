// What a completed pairing gives: the keys and how they were made.

/// The keys of a pairing (Core v5.4 Vol 3 Part H §2.4, §3.6), most significant octet first.
///
/// `longTermKey` is the Secure Connections LTK (f5), or the legacy LTK the peripheral distributed (empty when it
/// distributed none: the STK is not kept); `ediv`/`rand` identify a legacy LTK (0 and zeros otherwise).
public struct SMPPairingResult: Hashable, Sendable {
    /// The Long Term Key; empty when there is none to keep.
    public var longTermKey: [UInt8] = []
    /// The legacy LTK's EDIV.
    public var ediv: UInt16 = 0
    /// The legacy LTK's 8-byte Rand.
    public var rand: [UInt8] = [UInt8](repeating: 0, count: 8)
    /// The negotiated encryption key size, octets.
    public var keySize = 16
    /// True for LE Secure Connections.
    public var secureConnections = false
    /// The peer's IRK, when distributed.
    public var identityResolvingKey: [UInt8]?
    /// The peer's identity address, when distributed.
    public var identityAddress: SMPAddress?
    /// The peer's CSRK, when distributed.
    public var signatureKey: [UInt8]?
    /// This side's CSRK, when it distributed one (it signs this side's Signed Write Commands, §2.4.5).
    public var localSignatureKey: [UInt8]?
    /// True when both sides set Bonding_Flags 0b01 (§3.5.1): the keys are to be stored.
    public var bonding = false
    /// False: Just Works gives unauthenticated keys (no MITM protection).
    public var authenticated = false
    /// Internal: the peer's nonce (for the DHKey check) and whether Central Identification came.
    var peerNonce: [UInt8] = []
    var receivedCentralIdentification = false

    /// An empty result.
    public init() {}
}
