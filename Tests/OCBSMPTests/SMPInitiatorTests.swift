// The central's pairing state machine against a peripheral played by the test with the specification's formulas.
import OCBCore
@testable import OCBSMP
import Testing

private func h(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }

/// Fixed randomness: Appendix D.1's key A and the D.3 nonce Na.
private struct FixedRandom: SMPRandomSource {
    func nonce() throws(SMPCryptoError) -> [UInt8] { h("d5cb8454 d177733e ffffb2ec 712baeab") }
    func keyPair() throws(SMPCryptoError) -> P256KeyPair {
        try P256KeyPair(privateKey: h("3f49f6d4 a3c55f38 74c9b3e3 d2103f50 4aff607b eb40b799 5899b8a6 cd3c1abd"),
                        x: h("20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6"),
                        y: h("dc809c49 652aeb6d 63329abf 5a52155c 766345c2 8fed3024 741c8ed0 1589d28b"))
    }
}

@Suite("SMP initiator")
struct SMPInitiatorTests {
    let central = SMPAddress(isRandom: false, address: BluetoothAddress(value: 0x0CB0_0000_0001))
    let peripheral = SMPAddress(isRandom: true, address: BluetoothAddress(value: 0xC1A0_0000_0001))
    let t0 = ContinuousClock.now
    // The peripheral: D.1's key B, nonce Nb of D.3.
    let keyB = try! P256KeyPair(privateKey: h("55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd"),
                                x: h("1ea1f0f0 1faf1d96 09592284 f19e4c00 47b58afd 8615a69f 559077b2 2faaa190"),
                                y: h("4c55f33e 429dad37 7356703a 9ab85160 472d1130 e28e3676 5f89aff9 15b1214a"))
    let nb = h("a6e8e7cc 25a75f6e 216583f7 ff3dc4cf")

    private func sent(_ outputs: [SMPInitiator.Output]) -> [UInt8]? {
        outputs.compactMap { if case .send(let bytes) = $0 { return bytes } else { return nil } }.first
    }

    @Test("LE Secure Connections Just Works: keys, confirm, nonces, DHKey checks and distribution, as the peripheral computes them")
    func secureConnections() throws {
        var pairing = SMPInitiator(local: central, peer: peripheral, random: FixedRandom())
        // Pairing Request: NoInputNoOutput, no OOB, AuthReq Bonding|SC (0x09), 16, initiator SignKey, responder EncKey|IdKey|SignKey.
        let preq = try #require(sent(pairing.start(now: t0)))
        #expect(preq == [0x01, 0x03, 0x00, 0x09, 0x10, 0x04, 0x07])
        // Pairing Response: DisplayYesNo, AuthReq Bonding|SC, 16, initiator SignKey (it takes our CSRK), responder IdKey|SignKey.
        let publicKey = try #require(sent(pairing.receive([0x02, 0x01, 0x00, 0x09, 0x10, 0x04, 0x06], now: t0)))
        let keyA = try FixedRandom().keyPair()
        #expect(publicKey == [0x0C] + keyA.x.reversed() + keyA.y.reversed())
        #expect(pairing.receive(SMPPDU.pairingPublicKey(x: keyB.x.reversed(), y: keyB.y.reversed()).bytes, now: t0).isEmpty)
        // The peripheral's confirm Cb = f4(PKbx, PKax, Nb, 0).
        let cb = try SMPCrypto.f4(u: keyB.x, v: keyA.x, x: nb, z: 0)
        let random = try #require(sent(pairing.receive(SMPPDU.pairingConfirm(cb.reversed()).bytes, now: t0)))
        let na = try FixedRandom().nonce()
        #expect(random == [0x04] + na.reversed())
        let ea = try #require(sent(pairing.receive(SMPPDU.pairingRandom(nb.reversed()).bytes, now: t0)))
        // The peripheral: DHKey, f5 with A1 = the central, A2 = itself; Ea checked, Eb sent.
        let dh = try keyB.dhKey(peerX: keyA.x, peerY: keyA.y)
        let keys = try SMPCrypto.f5(w: dh, n1: na, n2: nb, a1: central.withType, a2: peripheral.withType)
        #expect(ea == [0x0D] + (try SMPCrypto.f6(w: keys.macKey, n1: na, n2: nb, r: [UInt8](repeating: 0, count: 16),
                                                   ioCap: [0x09, 0x00, 0x03], a1: central.withType, a2: peripheral.withType)).reversed())
        let eb = try SMPCrypto.f6(w: keys.macKey, n1: nb, n2: na, r: [UInt8](repeating: 0, count: 16), ioCap: [0x09, 0x00, 0x01],
                                  a1: peripheral.withType, a2: central.withType)
        #expect(pairing.receive(SMPPDU.pairingDHKeyCheck(eb.reversed()).bytes, now: t0)
                == [.startEncryption(longTermKey: keys.ltk, ediv: 0, rand: [UInt8](repeating: 0, count: 8))])
        #expect(pairing.encryptionChanged(true, now: t0).isEmpty, "the identity and signing keys are still to come")
        let irk = h("ec0234a3 57c8ad05 341010a6 0a397d9b")
        #expect(pairing.receive(SMPPDU.identityInformation(identityResolvingKey: irk.reversed()).bytes, now: t0).isEmpty)
        #expect(pairing.receive(SMPPDU.identityAddressInformation(type: 1, address: peripheral.address).bytes, now: t0).isEmpty)
        let done = pairing.receive(SMPPDU.signingInformation(signatureKey: [UInt8](repeating: 0x5C, count: 16)).bytes, now: t0)
        // The responder's keys all came: then ours (§3.6.1), a CSRK from the random source, sent least significant first.
        let csrk = try FixedRandom().nonce()
        #expect(done.first == .send(SMPPDU.signingInformation(signatureKey: csrk.reversed()).bytes))
        guard case .completed(let result)? = done.last else { Issue.record("\(done)"); return }
        #expect(result.localSignatureKey == csrk)
        #expect(result.longTermKey == keys.ltk)
        #expect(result.secureConnections)
        #expect(result.identityResolvingKey == irk)
        #expect(result.identityAddress == peripheral)
        #expect(result.signatureKey == [UInt8](repeating: 0x5C, count: 16))
        #expect(pairing.isFinished)
    }

    @Test("a wrong confirm value ends pairing with Pairing Failed, Confirm Value Failed (0x04)")
    func wrongConfirm() throws {
        var pairing = SMPInitiator(local: central, peer: peripheral, random: FixedRandom())
        _ = pairing.start(now: t0)
        _ = pairing.receive([0x02, 0x03, 0x00, 0x09, 0x10, 0x00, 0x00], now: t0)
        _ = pairing.receive(SMPPDU.pairingPublicKey(x: keyB.x.reversed(), y: keyB.y.reversed()).bytes, now: t0)
        _ = pairing.receive(SMPPDU.pairingConfirm([UInt8](repeating: 0x11, count: 16)).bytes, now: t0)
        #expect(pairing.receive(SMPPDU.pairingRandom(nb.reversed()).bytes, now: t0)
                == [.send([0x05, 0x04]), .failed(reason: .confirmValueFailed, sentByUs: true)])
    }

    /// p − y for P-256 (Core v5.4 Vol 3 Part H §2.3.5.6.1's curve): (x, p − y) is on the curve whenever (x, y) is.
    static func negated(_ y: [UInt8]) -> [UInt8] {
        let p: [UInt8] = h("ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff ffffffff")
        var result = [UInt8](repeating: 0, count: 32), borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            var digit = Int(p[index]) - Int(y[index]) - borrow
            borrow = digit < 0 ? 1 : 0
            if digit < 0 { digit += 256 }
            result[index] = UInt8(digit)
        }
        return result
    }

    @Test("a peer public key off the curve, our own reflected, or our X with the other Y (CVE-2020-26558) ends pairing")
    func badPublicKey() throws {
        let own = try FixedRandom().keyPair()
        for (x, y, reason) in [(keyB.x, Array(keyB.y.dropLast()) + [keyB.y[31] ^ 1], SMPPairingFailedReason.dhKeyCheckFailed),
                               (own.x, own.y, .invalidParameters), (own.x, Self.negated(own.y), .invalidParameters)] {
            var pairing = SMPInitiator(local: central, peer: peripheral, random: FixedRandom())
            _ = pairing.start(now: t0)
            _ = pairing.receive([0x02, 0x03, 0x00, 0x09, 0x10, 0x00, 0x00], now: t0)
            #expect(pairing.receive(SMPPDU.pairingPublicKey(x: x.reversed(), y: y.reversed()).bytes, now: t0)
                    == [.send([0x05, reason.rawValue]), .failed(reason: reason, sentByUs: true)])
        }
    }

    @Test("legacy Just Works: c1 confirms both ways, the STK is s1, the distributed LTK is kept")
    func legacy() throws {
        var pairing = SMPInitiator(local: central, peer: peripheral, random: FixedRandom())
        let preq = try #require(sent(pairing.start(now: t0)))
        // A legacy peripheral: AuthReq Bonding only, 16, responder EncKey.
        let pres: [UInt8] = [0x02, 0x03, 0x00, 0x01, 0x10, 0x00, 0x01]
        let mconfirm = try #require(sent(pairing.receive(pres, now: t0)))
        let na = try FixedRandom().nonce(), tk = [UInt8](repeating: 0, count: 16)
        func c1(_ r: [UInt8]) throws -> [UInt8] {
            try SMPCrypto.c1(k: tk, r: r, preq: preq.reversed(), pres: pres.reversed(), iat: 0, ia: central.octets, rat: 1, ra: peripheral.octets)
        }
        #expect(mconfirm == [0x03] + (try c1(na)).reversed())
        let srand = nb
        #expect(try sent(pairing.receive(SMPPDU.pairingConfirm((try c1(srand)).reversed()).bytes, now: t0)) == [0x04] + na.reversed())
        let stk = try SMPCrypto.s1(k: tk, r1: srand, r2: na)
        #expect(pairing.receive(SMPPDU.pairingRandom(srand.reversed()).bytes, now: t0)
                == [.startEncryption(longTermKey: stk, ediv: 0, rand: [UInt8](repeating: 0, count: 8))])
        _ = pairing.encryptionChanged(true, now: t0)
        let ltk = h("2965f176 a1084a02 fd3f6a20 ce636e20")
        #expect(pairing.receive(SMPPDU.encryptionInformation(longTermKey: ltk.reversed()).bytes, now: t0).isEmpty)
        let done = pairing.receive(SMPPDU.centralIdentification(ediv: 0xBEEF, rand: [1, 2, 3, 4, 5, 6, 7, 8]).bytes, now: t0)
        guard case .completed(let result)? = done.first else { Issue.record("\(done)"); return }
        #expect(result.longTermKey == ltk)
        #expect(result.ediv == 0xBEEF)
        #expect(result.rand == [8, 7, 6, 5, 4, 3, 2, 1])
        #expect(!result.secureConnections)
    }

    @Test("the SMP timeout (30 s) fails pairing without a Pairing Failed; malformed and refused PDUs end it")
    func timeoutAndMalformed() {
        var pairing = SMPInitiator(local: central, peer: peripheral, random: FixedRandom())
        _ = pairing.start(now: t0)
        #expect(pairing.tick(now: t0 + .seconds(29)).isEmpty)
        #expect(pairing.tick(now: t0 + .seconds(30)) == [.failed(reason: .unspecifiedReason, sentByUs: false)])
        var malformed = SMPInitiator(local: central, peer: peripheral, random: FixedRandom())
        _ = malformed.start(now: t0)
        #expect(malformed.receive([0x0F], now: t0) == [.send([0x05, 0x07]), .failed(reason: .commandNotSupported, sentByUs: true)])
        var refused = SMPInitiator(local: central, peer: peripheral, random: FixedRandom())
        _ = refused.start(now: t0)
        #expect(refused.receive([0x05, 0x05], now: t0) == [.failed(reason: .pairingNotSupported, sentByUs: false)])
        var small = SMPInitiator(local: central, peer: peripheral, random: FixedRandom())
        _ = small.start(now: t0)
        #expect(small.receive([0x02, 0x03, 0x00, 0x09, 0x06, 0x00, 0x00], now: t0) == [.send([0x05, 0x06]), .failed(reason: .encryptionKeySize, sentByUs: true)])
    }
}
