// An LE Secure Connections key pair on P-256 and its Diffie-Hellman key with a peer, through libcrypto.

@_implementationOnly import COCBCrypto

/// A P-256 key pair for LE Secure Connections (Core v5.4 Vol 3 Part H §2.3.5.6.1), made and used by OpenSSL's libcrypto.
///
/// Values are 32 bytes, most significant first (the Pairing Public Key PDU carries X and Y least significant first,
/// §3.5.6). ``dhKey(peerX:peerY:)`` refuses a peer point that is not on the curve (the invalid-curve attack,
/// CVE-2018-5383), with ``SMPCryptoError/invalidPublicKey``.
public struct P256KeyPair: Sendable {
    /// The private scalar (kept in memory only as long as the pairing; never logged).
    let privateKey: [UInt8]
    /// The public key's X coordinate.
    public let x: [UInt8]
    /// The public key's Y coordinate.
    public let y: [UInt8]

    /// A fresh key pair from libcrypto's random generator. Throws ``SMPCryptoError/library(_:)``.
    public init() throws(SMPCryptoError) {
        var d = [UInt8](repeating: 0, count: 32), px = d, py = d
        let ok = d.withUnsafeMutableBufferPointer { dp in px.withUnsafeMutableBufferPointer { xp in py.withUnsafeMutableBufferPointer { yp in
            ocb_p256_generate(dp.baseAddress, xp.baseAddress, yp.baseAddress)
        } } }
        guard ok == 1 else { throw .library("P-256 key generation") }
        (privateKey, x, y) = (d, px, py)
    }

    /// A key pair from a known private scalar and its public key (the specification's sample keys, Appendix D.1).
    /// Throws ``SMPCryptoError/wrongLength(function:input:got:expected:)``.
    public init(privateKey: [UInt8], x: [UInt8], y: [UInt8]) throws(SMPCryptoError) {
        for (value, name) in [(privateKey, "private key"), (x, "X"), (y, "Y")] where value.count != 32 {
            throw .wrongLength(function: "P-256", input: name, got: value.count, expected: 32)
        }
        (self.privateKey, self.x, self.y) = (privateKey, x, y)
    }

    /// The DHKey with the peer's public key (X, Y): the X coordinate of the shared point. Throws
    /// ``SMPCryptoError/invalidPublicKey`` for a point off the curve, ``SMPCryptoError/wrongLength(function:input:got:expected:)``
    /// or ``SMPCryptoError/library(_:)``.
    public func dhKey(peerX: [UInt8], peerY: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        for (value, name) in [(peerX, "peer X"), (peerY, "peer Y")] where value.count != 32 {
            throw .wrongLength(function: "P-256", input: name, got: value.count, expected: 32)
        }
        var out = [UInt8](repeating: 0, count: 32)
        let result = privateKey.withUnsafeBufferPointer { d in peerX.withUnsafeBufferPointer { px in peerY.withUnsafeBufferPointer { py in
            out.withUnsafeMutableBufferPointer { o in ocb_p256_dh(d.baseAddress, px.baseAddress, py.baseAddress, o.baseAddress) }
        } } }
        switch result {
        case 1: return out
        case 0: throw .invalidPublicKey
        default: throw .library("P-256 Diffie-Hellman")
        }
    }
}
