// The central's side of pairing (Just Works, LE Secure Connections or legacy) as a sans-I/O state machine.

/// Pairing as the initiator (the central), Core v5.4 Vol 3 Part H §2.3, §3: PDUs in, PDUs and requests out.
///
/// Phase 1 sends a Pairing Request and takes the Pairing Response. Phase 2 runs the method both sides' features give
/// (``SMPPairingMethod/select(initiator:responder:secureConnections:)``): with LE Secure Connections when both set the
/// SC bit (public keys, f5 keys, DHKey checks f6) — Just Works and Numeric Comparison (confirm f4, nonces, g2 for the
/// user, §2.3.5.6.2) or Passkey Entry (20 rounds of f4 over the passkey's bits, §2.3.5.6.3) —, legacy pairing otherwise
/// (TK 0 or the passkey, confirms c1, STK s1; §2.3.5.5). A user step comes out as ``Output/passkeyRequested``,
/// ``Output/displayPasskey(_:)`` or ``Output/confirmNumber(_:)`` and goes on with ``passkeyEntered(_:now:)`` or
/// ``numberConfirmed(_:now:)``; with IO capability NoInputNoOutput (the default) every pairing is Just Works. Then it asks the host to encrypt (``Output/startEncryption(longTermKey:ediv:rand:)``)
/// and, once encrypted (``encryptionChanged(_:now:)``), takes the keys the peripheral distributes (phase 3) and gives
/// them (``Output/completed(_:)``). Any failure sends Pairing Failed (unless the peer sent it) and ends with
/// ``Output/failed(_:)``. The SMP timeout is 30 s from the last PDU (§3.4): ``tick(now:)``. Bounded: one pairing at a time.
public struct SMPInitiator: Sendable {
    /// What the host does next.
    public enum Output: Hashable, Sendable {
        /// Send these bytes on the link's SMP channel (L2CAP CID 0x0006).
        case send([UInt8])
        /// Encrypt the link (HCI LE Enable Encryption): the key most significant octet first, EDIV and the 8-byte Rand
        /// (0 and zeros for an STK or a Secure Connections LTK).
        case startEncryption(longTermKey: [UInt8], ediv: UInt16, rand: [UInt8])
        /// Pairing succeeded: the keys.
        case completed(SMPPairingResult)
        /// Pairing failed: why, and whether this side sent Pairing Failed.
        case failed(reason: SMPPairingFailedReason, sentByUs: Bool)
        /// Passkey Entry: ask the user for the six-digit passkey the peripheral shows; answer with ``passkeyEntered(_:now:)``.
        case passkeyRequested
        /// Passkey Entry: show this passkey (0...999,999, six digits) for the user to type on the peripheral.
        case displayPasskey(UInt32)
        /// Numeric Comparison: show this six-digit number (0...999,999) and ask whether the peripheral shows the same;
        /// answer with ``numberConfirmed(_:now:)``.
        case confirmNumber(UInt32)
    }

    private enum Phase: Sendable {
        case idle, waitingResponse, waitingPublicKey, waitingConfirm, waitingRandom, waitingDHKeyCheck, waitingEncryption
        case distributing, done
        /// Waiting for the user's passkey (``passkeyEntered(_:now:)``).
        case waitingPasskey
        /// Waiting for the user to confirm the number (``numberConfirmed(_:now:)``).
        case waitingUserConfirmation
    }

    /// The SMP transaction timeout (§3.4).
    public static let timeout = Duration.seconds(30)

    private let random: any SMPRandomSource
    private let local: SMPAddress
    private let peer: SMPAddress
    private let requestFeatures: SMPPairingFeatures
    /// Pairing for an authenticated key: a method without MITM protection fails with Authentication Requirements (§2.3.5.1).
    private let requiresMITM: Bool
    private var phase = Phase.idle
    private var deadline: ContinuousClock.Instant?
    private var preq: [UInt8] = []
    private var pres: [UInt8] = []
    private var responseFeatures: SMPPairingFeatures?
    private var secureConnections = false
    private var keyPair: P256KeyPair?
    private var peerPublicKey: (x: [UInt8], y: [UInt8])?
    private var dhKey: [UInt8] = []
    private var localNonce: [UInt8] = []
    private var peerConfirm: [UInt8] = []
    private var macKey: [UInt8] = []
    private var key: [UInt8] = []
    private var result = SMPPairingResult()
    private var method = SMPPairingMethod.justWorks
    /// The passkey of Passkey Entry (0...999,999).
    private var passkey: UInt32 = 0
    /// The Passkey Entry round of Secure Connections (0...19: the passkey's bit this round commits to).
    private var round = 0

    /// A pairing of `local` (this central's address on the connection) with `peer`, asking for bonding when `bonding`;
    /// `ioCapability` other than NoInputNoOutput also asks for MITM protection (a user step, §2.3.1).
    public init(local: SMPAddress, peer: SMPAddress, bonding: Bool = true, ioCapability: SMPIOCapability = .noInputNoOutput,
                requiresMITM: Bool = false, random: any SMPRandomSource = SystemSMPRandomSource()) {
        self.requiresMITM = requiresMITM
        self.local = local
        self.peer = peer
        self.random = random
        var authentication: SMPAuthenticationRequirements = bonding ? [.bonding, .secureConnections] : [.secureConnections]
        if ioCapability != .noInputNoOutput { authentication.insert(.mitm) }
        requestFeatures = SMPPairingFeatures(ioCapability: ioCapability,
                                             authenticationRequirements: authentication,
                                             maximumEncryptionKeySize: 16, initiatorKeyDistribution: bonding ? [.signingKey] : [],
                                             responderKeyDistribution: bonding ? [.encryptionKey, .identityKey, .signingKey] : [])
    }

    /// The earliest time ``tick(now:)`` has something to do; nil when idle or done.
    public var nextDeadline: ContinuousClock.Instant? { deadline }

    /// True once pairing completed or failed.
    public var isFinished: Bool { phase == .done }

    /// Starts pairing: the Pairing Request.
    public mutating func start(now: ContinuousClock.Instant) -> [Output] {
        guard phase == .idle else { return [] }
        let pdu = SMPPDU.pairingRequest(requestFeatures).bytes
        preq = pdu
        phase = .waitingResponse
        deadline = now + Self.timeout
        return [.send(pdu)]
    }

    /// The link's encryption changed (HCI Encryption Change, Vol 4 Part E §7.7.8): phase 3 begins, or pairing fails.
    public mutating func encryptionChanged(_ success: Bool, now: ContinuousClock.Instant) -> [Output] {
        guard phase == .waitingEncryption else { return [] }
        guard success else { return fail(.unspecifiedReason, send: false) }
        deadline = now + Self.timeout
        phase = .distributing
        return finishIfDistributed()
    }

    /// The SMP timeout: pairing fails (no Pairing Failed is sent after a timeout, §3.4).
    public mutating func tick(now: ContinuousClock.Instant) -> [Output] {
        guard let deadline, now >= deadline, phase != .done else { return [] }
        return fail(.unspecifiedReason, send: false)
    }

    /// The user's passkey for ``Output/passkeyRequested`` (0...999,999), or nil when the user cancelled (Pairing
    /// Failed, Passkey Entry Failed).
    public mutating func passkeyEntered(_ value: UInt32?, now: ContinuousClock.Instant) -> [Output] {
        guard phase == .waitingPasskey else { return [] }
        guard let value, value <= 999_999 else { return fail(.passkeyEntryFailed, send: true) }
        passkey = value
        deadline = now + Self.timeout
        do throws(SMPCryptoError) { return try beginAfterPasskey() } catch { return fail(.unspecifiedReason, send: true) }
    }

    /// The user gave up a user step (a prompt dismissed, a passkey shown no one types): Pairing Failed with Passkey
    /// Entry Failed or Numeric Comparison Failed, in any phase before the DHKey check; nothing once that is done.
    public mutating func cancelUserStep(now: ContinuousClock.Instant) -> [Output] {
        switch phase {
        case .idle, .done, .waitingDHKeyCheck, .waitingEncryption, .distributing: return []
        default: return fail(method == .numericComparison ? .numericComparisonFailed : .passkeyEntryFailed, send: true)
        }
    }

    /// The user's answer to ``Output/confirmNumber(_:)``: the DHKey check goes out, or Pairing Failed (Numeric
    /// Comparison Failed).
    public mutating func numberConfirmed(_ accepted: Bool, now: ContinuousClock.Instant) -> [Output] {
        guard phase == .waitingUserConfirmation else { return [] }
        guard accepted else { return fail(.numericComparisonFailed, send: true) }
        deadline = now + Self.timeout
        do throws(SMPCryptoError) { return try sendDHKeyCheck() } catch { return fail(.unspecifiedReason, send: true) }
    }

    /// One SMP PDU from the peripheral.
    public mutating func receive(_ bytes: [UInt8], now: ContinuousClock.Instant) -> [Output] {
        guard phase != .done, phase != .idle else { return [] }
        let pdu: SMPPDU
        do { pdu = try SMPPDU(bytes: bytes) } catch {
            if case .unknownCode = error { return fail(.commandNotSupported, send: true) }
            return fail(.invalidParameters, send: true)
        }
        deadline = now + Self.timeout
        do throws(SMPCryptoError) {
            return try handle(pdu)
        } catch {
            return fail(error == .invalidPublicKey ? .dhKeyCheckFailed : .unspecifiedReason, send: true)
        }
    }

    private mutating func handle(_ pdu: SMPPDU) throws(SMPCryptoError) -> [Output] {
        switch (phase, pdu) {
        case (_, .pairingFailed(let reason)):
            return fail(reason, send: false)
        case (.waitingResponse, .pairingResponse(let features)):
            guard (7...16).contains(features.maximumEncryptionKeySize) else { return fail(.encryptionKeySize, send: true) }
            pres = pdu.bytes
            responseFeatures = features
            result.keySize = Int(features.maximumEncryptionKeySize)
            secureConnections = features.authenticationRequirements.contains(.secureConnections)
                && requestFeatures.authenticationRequirements.contains(.secureConnections)
            result.bonding = features.authenticationRequirements.contains(.bonding)
                && requestFeatures.authenticationRequirements.contains(.bonding)
            result.secureConnections = secureConnections
            method = SMPPairingMethod.select(initiator: requestFeatures, responder: features, secureConnections: secureConnections)
            result.authenticated = method != .justWorks
            if requiresMITM, method == .justWorks { return fail(.authenticationRequirements, send: true) }
            if secureConnections {
                let pair = try random.keyPair()
                keyPair = pair
                phase = .waitingPublicKey
                return [.send(SMPPDU.pairingPublicKey(x: pair.x.reversed(), y: pair.y.reversed()).bytes)]
            }
            // Legacy: TK 0 (Just Works) or the passkey; the central's confirm goes first (§2.3.5.5).
            return try startPasskeyOrContinue()
        case (.waitingPublicKey, .pairingPublicKey(let x, let y)):
            guard let pair = keyPair else { return fail(.unspecifiedReason, send: true) }
            let peerX = Array(x.reversed()), peerY = Array(y.reversed())
            // A peer whose key has our X coordinate is refused (§2.3.5.6.1): f4 takes X only, so a reflected (x, y) or
            // (x, p−y) would let it echo our Passkey Entry commitments and learn the passkey (CVE-2020-26558).
            guard peerX != pair.x else { return fail(.invalidParameters, send: true) }
            dhKey = try pair.dhKey(peerX: peerX, peerY: peerY)
            peerPublicKey = (peerX, peerY)
            if isPasskey { return try startPasskeyOrContinue() }
            phase = .waitingConfirm  // Just Works / Numeric Comparison: the peripheral's confirm comes first
            return []
        case (.waitingConfirm, .pairingConfirm(let value)):
            peerConfirm = Array(value.reversed())
            // Secure Connections: a fresh nonce, except in Passkey Entry, whose round nonce went into the confirm sent.
            if secureConnections, !isPasskey { localNonce = try random.nonce() }
            phase = .waitingRandom
            return [.send(SMPPDU.pairingRandom(localNonce.reversed()).bytes)]
        case (.waitingRandom, .pairingRandom(let value)):
            let peerNonce = Array(value.reversed())
            if secureConnections, isPasskey { return try passkeyRoundRandom(peerNonce) }
            return secureConnections ? try secureRandom(peerNonce) : try legacyRandom(peerNonce)
        case (.waitingDHKeyCheck, .pairingDHKeyCheck(let value)):
            guard let response = responseFeatures else { return fail(.unspecifiedReason, send: true) }
            let peerNonce = result.peerNonce
            let expected = try SMPCrypto.f6(w: macKey, n1: peerNonce, n2: localNonce, r: checkValueR,
                                            ioCap: Self.ioCap(response), a1: peer.withType, a2: local.withType)
            guard Array(value.reversed()) == expected else { return fail(.dhKeyCheckFailed, send: true) }
            phase = .waitingEncryption
            return [.startEncryption(longTermKey: key, ediv: 0, rand: [UInt8](repeating: 0, count: 8))]
        case (.distributing, .encryptionInformation(let ltk)):
            result.longTermKey = Array(ltk.reversed())
            return finishIfDistributed()
        case (.distributing, .centralIdentification(let ediv, let rand)):
            result.ediv = ediv
            result.rand = Array(rand.reversed())
            result.receivedCentralIdentification = true
            return finishIfDistributed()
        case (.distributing, .identityInformation(let irk)):
            result.identityResolvingKey = Array(irk.reversed())
            return finishIfDistributed()
        case (.distributing, .identityAddressInformation(let type, let address)):
            result.identityAddress = SMPAddress(isRandom: type & 0x01 == 0x01, address: address)
            return finishIfDistributed()
        case (.distributing, .signingInformation(let csrk)):
            result.signatureKey = Array(csrk.reversed())
            return finishIfDistributed()
        case (_, .securityRequest):
            return []  // already pairing (§2.4.6)
        default:
            return fail(.unspecifiedReason, send: true)  // a PDU out of its place
        }
    }

    private mutating func secureRandom(_ peerNonce: [UInt8]) throws(SMPCryptoError) -> [Output] {
        guard let pair = keyPair, let peerKey = peerPublicKey else { return fail(.unspecifiedReason, send: true) }
        // Just Works / Numeric Comparison: Cb = f4(PKbx, PKax, Nb, 0) (§2.3.5.6.2).
        guard try SMPCrypto.f4(u: peerKey.x, v: pair.x, x: peerNonce, z: 0) == peerConfirm else { return fail(.confirmValueFailed, send: true) }
        result.peerNonce = peerNonce
        if method == .numericComparison {
            // Va = g2(PKax, PKbx, Na, Nb) mod 10^6, shown to the user (§2.3.5.6.2 step 6).
            let value = try SMPCrypto.g2(u: pair.x, v: peerKey.x, x: localNonce, y: peerNonce) % 1_000_000
            phase = .waitingUserConfirmation
            return [.confirmNumber(value)]
        }
        return try sendDHKeyCheck()
    }

    /// f5's keys from the last nonces, then this side's DHKey check Ea = f6(MacKey, Na, Nb, rb, IOcapA, A, B)
    /// (§2.3.5.6.5), rb the passkey in Passkey Entry, 0 otherwise.
    private mutating func sendDHKeyCheck() throws(SMPCryptoError) -> [Output] {
        let keys = try SMPCrypto.f5(w: dhKey, n1: localNonce, n2: result.peerNonce, a1: local.withType, a2: peer.withType)
        macKey = keys.macKey
        key = Self.shortened(keys.ltk, to: result.keySize)
        result.longTermKey = key
        let check = try SMPCrypto.f6(w: macKey, n1: localNonce, n2: result.peerNonce, r: checkValueR,
                                     ioCap: Self.ioCap(requestFeatures), a1: local.withType, a2: peer.withType)
        phase = .waitingDHKeyCheck
        return [.send(SMPPDU.pairingDHKeyCheck(check.reversed()).bytes)]
    }

    private var isPasskey: Bool {
        if case .passkeyEntry = method { return true }
        return false
    }

    /// r of f6 in the DHKey checks, and the legacy TK: the passkey as a 128-bit value in Passkey Entry, zero otherwise
    /// (§2.3.5.6.5, §2.3.5.3).
    private var checkValueR: [UInt8] {
        guard isPasskey else { return [UInt8](repeating: 0, count: 16) }
        return [UInt8](repeating: 0, count: 12) + (0..<4).map { UInt8(truncatingIfNeeded: passkey >> (8 * (3 - UInt32($0)))) }
    }

    /// After the Pairing Response (legacy) or the public keys (Secure Connections): Passkey Entry shows a new passkey or
    /// asks for one; otherwise (legacy Just Works) the central's confirm goes out.
    private mutating func startPasskeyOrContinue() throws(SMPCryptoError) -> [Output] {
        guard case .passkeyEntry(let centralInputs) = method else { return try beginAfterPasskey() }
        if centralInputs {
            phase = .waitingPasskey
            return [.passkeyRequested]
        }
        // A uniformly drawn six-digit passkey (§2.3.5.3): 20 random bits, drawn again when 1,000,000 or more.
        var value: UInt32 = 1_000_000
        while value >= 1_000_000 {
            let bytes = try random.nonce()
            value = bytes.suffix(3).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0xFFFFF
        }
        passkey = value
        return [.displayPasskey(value)] + (try beginAfterPasskey())
    }

    /// The first confirm this side sends: legacy c1 with the TK (0 or the passkey), or Secure Connections Passkey
    /// Entry's first round.
    private mutating func beginAfterPasskey() throws(SMPCryptoError) -> [Output] {
        if secureConnections {
            round = 0
            return try sendPasskeyRoundConfirm()
        }
        localNonce = try random.nonce()
        let confirm = try legacyConfirm(localNonce)
        phase = .waitingConfirm
        return [.send(SMPPDU.pairingConfirm(confirm.reversed()).bytes)]
    }

    /// Passkey Entry round `round`: Cai = f4(PKax, PKbx, Nai, 0x80 | bit) (§2.3.5.6.3); the peripheral's confirm follows.
    private mutating func sendPasskeyRoundConfirm() throws(SMPCryptoError) -> [Output] {
        guard let pair = keyPair, let peerKey = peerPublicKey else { return fail(.unspecifiedReason, send: true) }
        localNonce = try random.nonce()
        let bit = UInt8(truncatingIfNeeded: (passkey >> UInt32(round)) & 1)
        let confirm = try SMPCrypto.f4(u: pair.x, v: peerKey.x, x: localNonce, z: 0x80 | bit)
        phase = .waitingConfirm
        return [.send(SMPPDU.pairingConfirm(confirm.reversed()).bytes)]
    }

    /// The peripheral's nonce of a Passkey Entry round: Cbi = f4(PKbx, PKax, Nbi, 0x80 | bit) must hold; after the 20th
    /// round the DHKey check follows with Na20 and Nb20.
    private mutating func passkeyRoundRandom(_ peerNonce: [UInt8]) throws(SMPCryptoError) -> [Output] {
        guard let pair = keyPair, let peerKey = peerPublicKey else { return fail(.unspecifiedReason, send: true) }
        let bit = UInt8(truncatingIfNeeded: (passkey >> UInt32(round)) & 1)
        guard try SMPCrypto.f4(u: peerKey.x, v: pair.x, x: peerNonce, z: 0x80 | bit) == peerConfirm else {
            return fail(.confirmValueFailed, send: true)
        }
        result.peerNonce = peerNonce
        round += 1
        if round < 20 { return try sendPasskeyRoundConfirm() }
        return try sendDHKeyCheck()
    }

    private mutating func legacyRandom(_ peerNonce: [UInt8]) throws(SMPCryptoError) -> [Output] {
        guard try legacyConfirm(peerNonce) == peerConfirm else { return fail(.confirmValueFailed, send: true) }
        key = Self.shortened(try SMPCrypto.s1(k: checkValueR, r1: peerNonce, r2: localNonce), to: result.keySize)
        phase = .waitingEncryption
        return [.startEncryption(longTermKey: key, ediv: 0, rand: [UInt8](repeating: 0, count: 8))]
    }

    /// c1 with the TK (``checkValueR``) over this pairing's request and response (§2.2.3).
    private func legacyConfirm(_ nonce: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try SMPCrypto.c1(k: checkValueR, r: nonce, preq: preq.reversed(), pres: pres.reversed(),
                         iat: local.typeOctet, ia: local.octets, rat: peer.typeOctet, ra: peer.octets)
    }

    /// A key shortened to the agreed size (§3.5.5 note, Vol 4 Part E §7.8.24): its most significant octets zeroed.
    static func shortened(_ key: [UInt8], to size: Int) -> [UInt8] {
        guard (7..<16).contains(size), key.count == 16 else { return key }
        return [UInt8](repeating: 0, count: 16 - size) + key.suffix(size)
    }

    /// IOcap of f6 (§2.2.8): AuthReq, OOB data flag, IO capability, most significant first.
    static func ioCap(_ features: SMPPairingFeatures) -> [UInt8] {
        [features.authenticationRequirements.rawValue, features.oobDataPresent ? 0x01 : 0x00, features.ioCapability.rawValue]
    }

    /// Completes once every key the peripheral agreed to send has come (§3.6.1; in Secure Connections EncKey is not sent).
    private mutating func finishIfDistributed() -> [Output] {
        let agreed = (responseFeatures?.responderKeyDistribution ?? []).intersection(requestFeatures.responderKeyDistribution)
        let encryptionKeyDone = !agreed.contains(.encryptionKey) || secureConnections
            || (result.receivedCentralIdentification && !result.longTermKey.isEmpty)
        let identityDone = !agreed.contains(.identityKey) || (result.identityResolvingKey != nil && result.identityAddress != nil)
        let signingDone = !agreed.contains(.signingKey) || result.signatureKey != nil
        guard encryptionKeyDone, identityDone, signingDone else { return [] }
        if !secureConnections && !agreed.contains(.encryptionKey) { result.longTermKey = [] }  // an STK is not kept
        phase = .done
        deadline = nil
        // Then this side's keys (§3.6.1: the responder distributes first): a CSRK, for signed writes to the peripheral.
        let ours = (responseFeatures?.initiatorKeyDistribution ?? []).intersection(requestFeatures.initiatorKeyDistribution)
        var outputs: [Output] = []
        if result.bonding, ours.contains(.signingKey) {
            guard let csrk = try? random.nonce() else { return fail(.unspecifiedReason, send: true) }
            result.localSignatureKey = csrk
            outputs.append(.send(SMPPDU.signingInformation(signatureKey: csrk.reversed()).bytes))
        }
        return outputs + [.completed(result)]
    }

    private mutating func fail(_ reason: SMPPairingFailedReason, send: Bool) -> [Output] {
        phase = .done
        deadline = nil
        return (send ? [.send(SMPPDU.pairingFailed(reason).bytes)] : []) + [.failed(reason: reason, sentByUs: send)]
    }
}
