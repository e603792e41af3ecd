// The Security Manager's cryptographic functions against the sample data of Core v5.4 Vol 3 Part H Appendix D and RFC 4493.
import OCBCore
import OCBSMP
import Testing

/// Hex with spaces, as the specification prints it ("d5cb8454 d177733e …"), most significant octet first.
private func h(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }

// Appendix D.1: the P-256 sample keys.
private let privateA = h("3f49f6d4 a3c55f38 74c9b3e3 d2103f50 4aff607b eb40b799 5899b8a6 cd3c1abd")
private let publicAX = h("20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6")
private let publicAY = h("dc809c49 652aeb6d 63329abf 5a52155c 766345c2 8fed3024 741c8ed0 1589d28b")
private let privateB = h("55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd")
private let publicBX = h("1ea1f0f0 1faf1d96 09592284 f19e4c00 47b58afd 8615a69f 559077b2 2faaa190")
private let publicBY = h("4c55f33e 429dad37 7356703a 9ab85160 472d1130 e28e3676 5f89aff9 15b1214a")
private let dhKey = h("ec0234a3 57c8ad05 341010a6 0a397d9b 99796b13 b4f866f1 868d34f3 73bfa698")

@Suite("SMP cryptographic toolbox")
struct SMPCryptoTests {
    @Test("AES-CMAC: the four examples of RFC 4493 §4 (key 2b7e1516…)")
    func cmac() throws {
        let key = h("2b7e1516 28aed2a6 abf71588 09cf4f3c")
        let message = h("6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51 "
                        + "30c81c46 a35ce411 e5fbc119 1a0a52ef f69f2445 df4f9b17 ad2b417b e66c3710")
        #expect(try SMPCrypto.cmac(key: key, []) == h("bb1d6929 e9593728 7fa37d12 9b756746"))
        #expect(try SMPCrypto.cmac(key: key, Array(message.prefix(16))) == h("070a16b4 6b4d4144 f79bdd9d d04a287c"))
        #expect(try SMPCrypto.cmac(key: key, Array(message.prefix(40))) == h("dfa66747 de9ae630 30ca3261 1497c827"))
        #expect(try SMPCrypto.cmac(key: key, message) == h("51f0bebf 7e3b9d92 fc497417 79363cfe"))
    }

    @Test("P-256: the sample keys of Appendix D.1 give the same DHKey both ways; a fresh pair agrees with itself")
    func p256() throws {
        let a = try P256KeyPair(privateKey: privateA, x: publicAX, y: publicAY)
        let b = try P256KeyPair(privateKey: privateB, x: publicBX, y: publicBY)
        #expect(try a.dhKey(peerX: publicBX, peerY: publicBY) == dhKey)
        #expect(try b.dhKey(peerX: publicAX, peerY: publicAY) == dhKey)
        let fresh = try P256KeyPair()
        #expect(try fresh.dhKey(peerX: publicAX, peerY: publicAY) == a.dhKey(peerX: fresh.x, peerY: fresh.y))
    }

    @Test("P-256: a peer point off the curve is refused (invalid-curve attack), never multiplied")
    func invalidCurvePoint() throws {
        let a = try P256KeyPair(privateKey: privateA, x: publicAX, y: publicAY)
        var y = publicBY
        y[31] ^= 0x01
        #expect(throws: SMPCryptoError.invalidPublicKey) { try a.dhKey(peerX: publicBX, peerY: y) }
        #expect(throws: SMPCryptoError.invalidPublicKey) { try a.dhKey(peerX: [UInt8](repeating: 0, count: 32), peerY: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: SMPCryptoError.wrongLength(function: "P-256", input: "peer X", got: 31, expected: 32)) {
            try a.dhKey(peerX: Array(publicBX.prefix(31)), peerY: publicBY)
        }
    }

    /// The V of the f4 and g2 samples (Appendix D.2, D.5): the same 32 bytes as D.1's private key B.
    private static let sampleV = h("55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd")

    @Test("f4 (Appendix D.2)")
    func f4() throws {
        #expect(try SMPCrypto.f4(u: publicAX, v: Self.sampleV, x: h("d5cb8454 d177733e ffffb2ec 712baeab"), z: 0x00)
                == h("f2c916f1 07a9bd1c f1eda1be a974872d"))
    }

    @Test("f5 (Appendix D.3): MacKey and LTK")
    func f5() throws {
        let keys = try SMPCrypto.f5(w: dhKey, n1: h("d5cb8454 d177733e ffffb2ec 712baeab"), n2: h("a6e8e7cc 25a75f6e 216583f7 ff3dc4cf"),
                                    a1: h("00561237 37bfce"), a2: h("00a71370 2dcfc1"))
        #expect(keys.macKey == h("2965f176 a1084a02 fd3f6a20 ce636e20"))
        #expect(keys.ltk == h("69867911 69d7cd23 980522b5 94750a38"))
    }

    @Test("f6 (Appendix D.4)")
    func f6() throws {
        #expect(try SMPCrypto.f6(w: h("2965f176 a1084a02 fd3f6a20 ce636e20"), n1: h("d5cb8454 d177733e ffffb2ec 712baeab"),
                                 n2: h("a6e8e7cc 25a75f6e 216583f7 ff3dc4cf"), r: h("12a3343b b453bb54 08da42d2 0c2d0fc8"),
                                 ioCap: h("010102"), a1: h("00561237 37bfce"), a2: h("00a71370 2dcfc1"))
                == h("e3c47398 9cd0e8c5 d26c0b09 da958f61"))
    }

    @Test("g2 (Appendix D.5): 0x2F9ED5BA")
    func g2() throws {
        let value = try SMPCrypto.g2(u: publicAX, v: Self.sampleV, x: h("d5cb8454 d177733e ffffb2ec 712baeab"), y: h("a6e8e7cc 25a75f6e 216583f7 ff3dc4cf"))
        #expect(value == 0x2F9E_D5BA)
    }

    @Test("h6 and h7 (Appendix D.8, D.9)")
    func h6h7() throws {
        let key = h("ec0234a3 57c8ad05 341010a6 0a397d9b")
        #expect(try SMPCrypto.h6(w: key, keyID: h("6c656272")) == h("2d9ae102 e76dc91c e8d3a9e2 80b16399"))
        #expect(try SMPCrypto.h7(salt: h("00000000 00000000 00000000 746D7031"), w: key) == h("fb173597 c6a3c0ec d2998c2a 75a57011"))
    }

    @Test("ah (Appendix D.7): the hash of a resolvable private address")
    func ah() throws {
        #expect(try SMPCrypto.ah(k: h("ec0234a3 57c8ad05 341010a6 0a397d9b"), r: h("708194")) == h("0dfbaa"))
    }

    @Test("a resolvable private address: prand 708194 with the hash ah gives (Appendix D.7) resolves; others do not")
    func resolvablePrivateAddress() throws {
        let irk = h("ec0234a3 57c8ad05 341010a6 0a397d9b")
        #expect(try ResolvablePrivateAddress.resolves(try #require(BluetoothAddress("70:81:94:0D:FB:AA")), irk: irk))
        #expect(try !ResolvablePrivateAddress.resolves(try #require(BluetoothAddress("70:81:94:0D:FB:AB")), irk: irk))
        // The same bits with the top two 0b11 (a static random address) or 0b00 (non-resolvable) are not resolvable.
        #expect(try !ResolvablePrivateAddress.resolves(try #require(BluetoothAddress("F0:81:94:0D:FB:AA")), irk: irk))
        #expect(try !ResolvablePrivateAddress.resolves(try #require(BluetoothAddress("30:81:94:0D:FB:AA")), irk: irk))
    }

    @Test("c1 and s1 of legacy pairing (Vol 3 Part H §2.2.3, §2.2.4 examples)")
    func legacy() throws {
        let k = [UInt8](repeating: 0, count: 16)
        #expect(try SMPCrypto.c1(k: k, r: h("5783D521 56AD6F0E 6388274E C6702EE0"), preq: h("07071000000101"), pres: h("05000800000302"),
                                 iat: 1, ia: h("A1A2A3A4A5A6"), rat: 0, ra: h("B1B2B3B4B5B6"))
                == h("1e1e3fef 878988ea d2a74dc5 bef13b86"))
        #expect(try SMPCrypto.s1(k: k, r1: h("000F0E0D 0C0B0A09 11223344 55667788"), r2: h("01020304 05060708 99AABBCC DDEEFF00"))
                == h("9a1fe1f0 e8b0f49b 5b4216ae 796da062"))
    }

    @Test("wrong input lengths are typed errors naming the function and the input")
    func wrongLengths() {
        #expect(throws: SMPCryptoError.wrongLength(function: "f4", input: "U", got: 31, expected: 32)) {
            try SMPCrypto.f4(u: Array(publicAX.prefix(31)), v: publicBX, x: [UInt8](repeating: 0, count: 16), z: 0)
        }
        #expect(throws: SMPCryptoError.wrongLength(function: "AES-CMAC", input: "key", got: 15, expected: 16)) {
            try SMPCrypto.cmac(key: [UInt8](repeating: 0, count: 15), [])
        }
        #expect(throws: SMPCryptoError.wrongLength(function: "ah", input: "r", got: 4, expected: 3)) {
            try SMPCrypto.ah(k: [UInt8](repeating: 0, count: 16), r: [1, 2, 3, 4])
        }
    }
}
