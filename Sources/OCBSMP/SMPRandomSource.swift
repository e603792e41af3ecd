// Where the pairing state machine gets its random nonces and its key pair: libcrypto, or fixed values in tests.

/// The randomness of pairing (Core v5.4 Vol 3 Part H §2.3.5.6: nonces; §2.3.5.6.1: the P-256 key pair), injected so
/// that the state machine stays sans-I/O and tests are exact. Throws ``SMPCryptoError``.
public protocol SMPRandomSource: Sendable {
    /// A fresh 128-bit nonce, most significant octet first.
    func nonce() throws(SMPCryptoError) -> [UInt8]
    /// A fresh P-256 key pair.
    func keyPair() throws(SMPCryptoError) -> P256KeyPair
}

/// libcrypto's generator (the key pair) and the system's (`SystemRandomNumberGenerator`, getrandom) for nonces.
public struct SystemSMPRandomSource: SMPRandomSource {
    /// Makes the source.
    public init() {}

    /// 16 bytes from `SystemRandomNumberGenerator` (the kernel's getrandom).
    public func nonce() throws(SMPCryptoError) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// A libcrypto P-256 key pair.
    public func keyPair() throws(SMPCryptoError) -> P256KeyPair { try P256KeyPair() }
}
