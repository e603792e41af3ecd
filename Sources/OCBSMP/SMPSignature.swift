// The data signing of LE: the 12-byte Authentication Signature of a Signed Write Command, made with a CSRK.

/// The LE signing algorithm (Core v5.4 Vol 3 Part H §2.4.5; Vol 3 Part C §10.4.1): the signature of a data PDU m is
/// SignCounter (4 octets) followed by the 64 most significant bits of AES-CMAC_CSRK(m || SignCounter).
///
/// Byte order: m and SignCounter are sent least significant octet first (m is the ATT PDU as on the wire, SignCounter
/// little-endian), while AES-CMAC (RFC 4493) takes its input most significant octet first: the whole message is
/// taken as one number sent LSB first, so it is reversed before CMAC, and the MAC's 8 most significant octets are sent
/// least significant first. This is what BlueZ (src/shared/crypto.c) and the certification tests SM/MAS/SIGN use.
public enum SMPSignature {
    /// The 12 octets of the Authentication Signature field (Vol 3 Part F §3.4.5.4) for `message` (the ATT PDU up to
    /// the signature: opcode, handle, value) with `csrk` (16 bytes, most significant octet first, as SMP results keep
    /// it) and `counter`. Throws ``SMPCryptoError`` (a wrong key length, a libcrypto failure).
    public static func sign(_ message: [UInt8], csrk: [UInt8], counter: UInt32) throws(SMPCryptoError) -> [UInt8] {
        let counterBytes = (0..<4).map { UInt8(truncatingIfNeeded: counter >> (8 * UInt32($0))) }
        let mac = try SMPCrypto.cmac(key: csrk, (message + counterBytes).reversed())
        return counterBytes + mac.prefix(8).reversed()
    }
}
