// The Security Manager's cryptographic toolbox (e, AES-CMAC, f4, f5, f6, g2, h6, h7, ah, c1, s1) over libcrypto.

@_implementationOnly import COCBCrypto

/// The functions of Core v5.4 Vol 3 Part H §2.2, computed by OpenSSL's libcrypto (AES-128 and AES-CMAC, RFC 4493);
/// this type only arranges their inputs as the specification defines them.
///
/// Byte order: every value here is most significant octet first, as the specification writes its functions and its
/// sample data (Appendix D); SMP PDUs carry them least significant octet first, so a caller reverses PDU fields.
/// Addresses A1/A2 are 56 bits: the address type octet (0 public, 1 random) then the 48-bit address.
/// Throws ``SMPCryptoError``: a wrong input length, or a libcrypto failure.
public enum SMPCrypto {
    private static func check(_ value: [UInt8], _ count: Int, _ function: String, _ input: String) throws(SMPCryptoError) {
        guard value.count == count else { throw .wrongLength(function: function, input: input, got: value.count, expected: count) }
    }

    /// The security function e (§2.2.1): AES-128 of a 16-byte block with a 16-byte key.
    public static func e(key: [UInt8], _ block: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try check(key, 16, "e", "key")
        try check(block, 16, "e", "plaintext")
        var out = [UInt8](repeating: 0, count: 16)
        let ok = key.withUnsafeBufferPointer { k in block.withUnsafeBufferPointer { b in out.withUnsafeMutableBufferPointer { o in
            ocb_aes128_block(k.baseAddress, b.baseAddress, o.baseAddress)
        } } }
        guard ok == 1 else { throw .library("AES-128") }
        return out
    }

    /// AES-CMAC with a 16-byte key (§2.2.5, RFC 4493) of any message.
    public static func cmac(key: [UInt8], _ message: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try check(key, 16, "AES-CMAC", "key")
        var out = [UInt8](repeating: 0, count: 16)
        let ok = key.withUnsafeBufferPointer { k in message.withUnsafeBufferPointer { m in out.withUnsafeMutableBufferPointer { o in
            ocb_aes_cmac(k.baseAddress, m.baseAddress, m.count, o.baseAddress)
        } } }
        guard ok == 1 else { throw .library("AES-CMAC") }
        return out
    }

    /// f4, the LE Secure Connections confirm value (§2.2.6): AES-CMAC_X(U || V || Z); U, V the 32-byte public key
    /// X coordinates, X a 16-byte nonce, Z one octet (0 for Just Works and Numeric Comparison).
    public static func f4(u: [UInt8], v: [UInt8], x: [UInt8], z: UInt8) throws(SMPCryptoError) -> [UInt8] {
        try check(u, 32, "f4", "U")
        try check(v, 32, "f4", "V")
        return try cmac(key: x, u + v + [z])
    }

    /// f5, the LE Secure Connections key generation (§2.2.7): (MacKey, LTK) from the 32-byte DHKey W, the nonces N1,
    /// N2 (16 bytes) and the 7-byte addresses A1 (initiating), A2 (responding).
    public static func f5(w: [UInt8], n1: [UInt8], n2: [UInt8], a1: [UInt8], a2: [UInt8]) throws(SMPCryptoError) -> (macKey: [UInt8], ltk: [UInt8]) {
        try check(w, 32, "f5", "W")
        try check(n1, 16, "f5", "N1")
        try check(n2, 16, "f5", "N2")
        try check(a1, 7, "f5", "A1")
        try check(a2, 7, "f5", "A2")
        let salt: [UInt8] = [0x6C, 0x88, 0x83, 0x91, 0xAA, 0xF5, 0xA5, 0x38, 0x60, 0x37, 0x0B, 0xDB, 0x5A, 0x60, 0x83, 0xBE]
        let t = try cmac(key: salt, w)
        let keyID: [UInt8] = [0x62, 0x74, 0x6C, 0x65]  // "btle"
        let tail = keyID + n1 + n2 + a1 + a2 + [0x01, 0x00]  // Length = 256
        return (try cmac(key: t, [0x00] + tail), try cmac(key: t, [0x01] + tail))
    }

    /// f6, the LE Secure Connections check value (§2.2.8): AES-CMAC_W(N1 || N2 || R || IOcap || A1 || A2); W the 16-byte
    /// MacKey, R 16 bytes, IOcap 3 bytes (AuthReq, OOB data flag, IO capability).
    public static func f6(w: [UInt8], n1: [UInt8], n2: [UInt8], r: [UInt8], ioCap: [UInt8], a1: [UInt8], a2: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try check(n1, 16, "f6", "N1")
        try check(n2, 16, "f6", "N2")
        try check(r, 16, "f6", "R")
        try check(ioCap, 3, "f6", "IOcap")
        try check(a1, 7, "f6", "A1")
        try check(a2, 7, "f6", "A2")
        return try cmac(key: w, n1 + n2 + r + ioCap + a1 + a2)
    }

    /// g2, the LE Secure Connections numeric comparison value (§2.2.9): AES-CMAC_X(U || V || Y) mod 2^32; the user
    /// compares its last six decimal digits (value mod 1,000,000).
    public static func g2(u: [UInt8], v: [UInt8], x: [UInt8], y: [UInt8]) throws(SMPCryptoError) -> UInt32 {
        try check(u, 32, "g2", "U")
        try check(v, 32, "g2", "V")
        try check(y, 16, "g2", "Y")
        let mac = try cmac(key: x, u + v + y)
        return mac[12...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// h6, the link key conversion function (§2.2.10): AES-CMAC_W(keyID), keyID 4 bytes.
    public static func h6(w: [UInt8], keyID: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try check(keyID, 4, "h6", "keyID")
        return try cmac(key: w, keyID)
    }

    /// h7, the link key conversion function with a SALT (§2.2.11): AES-CMAC_SALT(W).
    public static func h7(salt: [UInt8], w: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try cmac(key: salt, w)
    }

    /// ah, the random address hash (§2.2.2): e(k, 0^104 || r) mod 2^24; k the 16-byte IRK, r the 3-byte prand.
    /// A resolvable private address is prand || hash (Vol 6 Part B §1.3.2.2).
    public static func ah(k: [UInt8], r: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try check(r, 3, "ah", "r")
        return Array(try e(key: k, [UInt8](repeating: 0, count: 13) + r)[13...])
    }

    /// c1, the LE legacy pairing confirm value (§2.2.3): e(k, e(k, r XOR p1) XOR p2) with p1 = pres || preq || rat' ||
    /// iat' and p2 = 0^32 || ia || ra; k the TK, preq/pres the 7-byte Pairing Request and Response PDUs, iat/rat the
    /// initiator's and responder's address types (0 public, 1 random), ia/ra their 6-byte addresses.
    public static func c1(k: [UInt8], r: [UInt8], preq: [UInt8], pres: [UInt8], iat: UInt8, ia: [UInt8], rat: UInt8, ra: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try check(r, 16, "c1", "r")
        try check(preq, 7, "c1", "preq")
        try check(pres, 7, "c1", "pres")
        try check(ia, 6, "c1", "ia")
        try check(ra, 6, "c1", "ra")
        let p1 = pres + preq + [rat & 0x01, iat & 0x01]
        let p2 = [UInt8](repeating: 0, count: 4) + ia + ra
        let first = try e(key: k, zip(r, p1).map { $0 ^ $1 })
        return try e(key: k, zip(first, p2).map { $0 ^ $1 })
    }

    /// s1, the LE legacy pairing key generation (§2.2.4): e(k, r1' || r2'), r1', r2' the least significant 64 bits of
    /// the 16-byte r1 (responder's) and r2 (initiator's) random values.
    public static func s1(k: [UInt8], r1: [UInt8], r2: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try check(r1, 16, "s1", "r1")
        try check(r2, 16, "s1", "r2")
        return try e(key: k, Array(r1[8...]) + Array(r2[8...]))
    }
}
