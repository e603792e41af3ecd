// The full host's Security Manager: pairing on CID 6, link encryption with HCI LE Enable Encryption, bonds kept and used.

import Foundation
import OCBATT
import OCBCore
import OCBHCI
import OCBL2CAP
import OCBSMP

extension HostController {
    /// Why the link's security is being raised.
    enum SecurityCause {
        /// The API asked (``secure(_:completion:)``).
        case request
        /// The ATT bearer parked a request answered with this insufficient-security error.
        case att(ATTErrorResponse)
        /// The peripheral sent a Security Request (Core v5.4 Vol 3 Part H §3.6.7).
        case peerRequest
    }

    /// Encrypts connection `handle`: with the bond's key when the peer is bonded (no pairing), else by pairing
    /// (Just Works; bonding per ``SecurityConfiguration/bondable``). Completes with the link's security once
    /// encrypted (at once when it is already), or ``HostError/pairingFailed(_:_:byPeer:)``,
    /// ``HostError/encryptionFailed(_:_:)``, ``HostError/notConnected(_:)``, ``HostError/disconnected(_:_:)``.
    public func secure(_ handle: ConnectionHandle, completion: @escaping @Sendable (Result<LinkSecurity, HostError>) -> Void) {
        requestInPlace {
            self.raiseSecurity(handle, because: .request) { result in self.deliver { completion(result) } }
        }
    }

    /// Gives the link's GATT client a signer when the device's bond has this host's CSRK (signed writes, Vol 3 Part G
    /// §4.9.2); each signature takes the bond's next SignCounter, which is written back before the write goes.
    func attachSigner(_ handle: ConnectionHandle) {
        guard let link = links[handle], let bond = bondBook.bond(for: link.info.peer.address), bond.localSignatureKey != nil else { return }
        let identity = bond.peer
        link.att.client.signer = { [weak self] message in self?.sign(message, identity: identity) ?? [] }
    }

    /// The signature of `message` with the bond of `identity`, its counter then one more and saved; empty (the write is
    /// refused) when the bond or its key is gone or the counter is spent.
    private func sign(_ message: [UInt8], identity: String) -> [UInt8] {
        guard let address = BluetoothAddress(identity), let (signature, bond) = bondBook.bonds[address]?.signing(message) else { return [] }
        bondBook.update(bond)
        do throws(BondStoreError) { try bondStore?.save(bond) } catch {
            emit(.notice("key store: \(error); the signed write is not sent (its counter could not be kept)"))
            return []
        }
        return signature
    }

    /// ``CentralHost/setPairingIOCapability(_:)``: the IO capability of pairings started from now on.
    public func setPairingIOCapability(_ capability: SMPIOCapability) {
        requestInPlace { self.pairingIOCapability = capability }
    }

    /// ``CentralHost/answerPairing(_:_:)``: the user's passkey or confirmation goes to the link's pairing.
    public func answerPairing(_ handle: ConnectionHandle, _ answer: PairingAnswer, prompt id: UInt64) {
        requestInPlace {
            // Only the prompt now asked: an answer to an older one (its pairing failed, another began) is dropped.
            guard let current = self.links[handle]?.security.promptID, current == id else { return }
            self.links[handle]?.security.promptID = nil
            let now = self.clock.now
            self.stepPairing(handle) { pairing in
                switch answer {
                case .passkey(let value): pairing.passkeyEntered(value, now: now)
                case .confirm(let accepted): pairing.numberConfirmed(accepted, now: now)
                case .cancel: pairing.cancelUserStep(now: now)
                }
            }
        }
    }

    /// The link's current security (nil when not connected).
    public func security(of handle: ConnectionHandle) -> LinkSecurity? {
        onQueue { links[handle]?.security.current }
    }

    /// The bond of the device at `address` (its identity address, or a resolvable private address a bond's IRK
    /// resolves), as loaded at power-on or made since; nil when none.
    public func bond(for address: BluetoothAddress) -> Bond? {
        onQueue { bondBook.bond(for: address) }
    }

    /// ``SerialHost/knownPeer(forPrivate:)``: a bond's ``Bond/knownAddress`` when one of the bonds' IRKs resolves `peer`;
    /// a new private address is written to the bond (``Bond/lastAddress``) at most once a minute from advertising,
    /// always from a connection (`connected`).
    func knownPeer(forPrivate peer: PeerAddress) -> PeerAddress? {
        knownPeer(forPrivate: peer, connected: false)
    }

    /// ``knownPeer(forPrivate:)``, `connected` when the address is a new connection's (then always written).
    func knownPeer(forPrivate peer: PeerAddress, connected: Bool) -> PeerAddress? {
        let known = bondBook.knownPeer(for: peer)
        // The device a connect waits for, heard at another private address (it rotated while no one listened): the
        // attempt goes again, there (LE Create Connection Cancel, then a new create).
        if !connected, let known, attempts.activeAttempt?.peer == known, let target = attemptTarget, target.address != peer.address {
            attemptTarget = peer
            emit(.diagnostic("connect to \(known.address): heard at \(peer.address), not \(target.address); connecting there"))
            perform(attempts.restart(now: clock.now))
        }
        // A bonded device heard at a new private address: kept, so a connect in a later process goes there too.
        let now = clock.now
        for bond in bondBook.takeMovedBonds() {
            // At most once a minute per bond: a device advertising several sets (or a replay of its old addresses)
            // flips between addresses, and a file write per report would stall the host.
            // A connection's address is always written (connections are few, and it is where the device is now).
            if !connected, let saved = lastAddressSaved[bond.peer], now - saved < .seconds(60) { continue }
            lastAddressSaved[bond.peer] = now
            do throws(BondStoreError) {
                try bondStore?.save(bond)
                bondBook.update(bond)
            } catch {
                emit(.notice("key store: \(error)"))
            }
        }
        return known
    }

    /// Loads the bonds of the controller just brought up; a file that cannot be read is said as a notice (it names
    /// the file) and the other bonds are kept.
    func loadBonds(controller: BluetoothAddress) {
        let store = BondStore(controller: controller, root: configuration.security.stateDirectory)
        bondStore = store
        let (bonds, problems) = store.load()
        bondBook = BondBook(bonds)
        for problem in problems { emit(.notice("key store: \(problem)")) }
    }

    /// Starts raising `handle`'s security unless a procedure runs already; `done` (if any) gets the outcome.
    func raiseSecurity(_ handle: ConnectionHandle, because cause: SecurityCause, _ done: ((Result<LinkSecurity, HostError>) -> Void)?) {
        guard let link = links[handle] else {
            done?(.failure(.notConnected(handle)))
            return
        }
        if let done { links[handle]?.security.waiters.append(done) }
        if case .att = cause { links[handle]?.security.attWaiting = true }
        guard link.security.procedure == nil else { return }
        let current = link.security.current
        if link.security.smpTimedOut {
            // No SMP on this link after an SMP timeout (Vol 3 Part H §3.4): a new connection is needed.
            return finishSecurity(handle, .failure(.pairingTimedOut(handle)))
        }
        switch cause {
        case .att(let response) where current.encrypted && response.error == .insufficientEncryption:
            // Answered before the link's encryption finished: it goes again now.
            return finishSecurity(handle, .success(current))
        case .att(let response) where current.encrypted && response.error == .insufficientAuthentication && !current.authenticated
            && pairingIOCapability != .noInputNoOutput && !link.security.pairingFailed:
            // An unauthenticated key where an authenticated one is needed, and a user at hand: pair again with MITM (as iOS);
            // a pairing that can only be Just Works again fails (Authentication Requirements) instead of looping.
            return startPairing(handle, requiresMITM: true)
        case .att(let response) where current.encrypted:
            // Encrypted, and still not enough: Just Works cannot give an authenticated key, nor a longer one.
            let what = response.error == .insufficientAuthentication ? "an authenticated (MITM) key" : "more than a \(current.keySize)-octet key"
            return finishSecurity(handle, .failure(.insufficientSecurity(handle, what)))
        case .att where link.security.pairingFailed:
            // Pairing failed on this link already (and was said): the request just gets its error.
            return finishSecurity(handle, .failure(.insufficientSecurity(handle, "encryption")), quiet: true)
        case .peerRequest where link.security.pairingFailed:
            return finishSecurity(handle, .failure(.insufficientSecurity(handle, "security")), quiet: true)
        case .request, .peerRequest:
            if current.encrypted { return finishSecurity(handle, .success(current)) }
        case .att:
            break
        }
        if let bond = bondBook.bond(for: link.info.peer.address) {
            encrypt(handle, with: bond)
        } else {
            startPairing(handle)
        }
    }

    /// LE Enable Encryption with the bond's LTK, EDIV and Rand (Vol 4 Part E §7.8.24); Encryption Change ends it.
    private func encrypt(_ handle: ConnectionHandle, with bond: Bond) {
        links[handle]?.security.procedure = .encrypting(bond)
        links[handle]?.security.encryptionDeadline = clock.now + LinkSecurityState.encryptionTimeout
        rescheduleTimer()
        emit(.diagnostic("security on 0x\(String(handle.rawValue, radix: 16)): encrypting with the bond of \(bond.peer)"))
        enableEncryption(handle, key: Hex.bytes(bond.longTermKey) ?? [], ediv: bond.ediv, rand: Hex.bytes(bond.rand) ?? []) { [self] error in
            guard case .encrypting? = links[handle]?.security.procedure else { return }
            finishSecurity(handle, .failure(error))
        }
    }

    /// HCI LE Enable Encryption (Vol 4 Part E §7.8.24) with a key and Rand kept most significant octet first (sent
    /// least significant first); `failed` gets a refusal (a non-zero Command Status), Encryption Change the rest.
    private func enableEncryption(_ handle: ConnectionHandle, key: [UInt8], ediv: UInt16, rand: [UInt8],
                                  failed: @escaping (HostError) -> Void) {
        let number = rand.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        sendExpectingStatus(HCILEEnableEncryption(handle: handle, randomNumber: number, encryptedDiversifier: ediv,
                                                  longTermKey: key.reversed())) { error in
            if let error { failed(error) }
        }
    }

    /// Pairing as the initiator (``OCBSMP/SMPInitiator``) with this host's and the peer's addresses on the link.
    private func startPairing(_ handle: ConnectionHandle, requiresMITM: Bool = false) {
        guard let link = links[handle], let own = info?.ownAddress else {
            return finishSecurity(handle, .failure(.notPoweredOn(currentState)))
        }
        let local = SMPAddress(isRandom: own.type == .random, address: own.address)
        let peer = SMPAddress(isRandom: link.airAddress.type == .random || link.airAddress.type == .randomIdentity,
                              address: link.airAddress.address)
        var initiator = SMPInitiator(local: local, peer: peer, bonding: configuration.security.bondable,
                                     ioCapability: pairingIOCapability, requiresMITM: requiresMITM,
                                     random: configuration.security.random)
        let outputs = initiator.start(now: clock.now)
        links[handle]?.security.procedure = .pairing(initiator)
        emit(.diagnostic("security on 0x\(String(handle.rawValue, radix: 16)): pairing (IO capability 0x\(String(pairingIOCapability.rawValue, radix: 16)))"))
        applySMP(outputs, on: handle)
    }

    /// Runs `step` on the link's pairing and carries out what it gives; nothing when no pairing runs.
    func stepPairing(_ handle: ConnectionHandle, timeout: Bool = false, _ step: (inout SMPInitiator) -> [SMPInitiator.Output]) {
        guard case .pairing(var initiator)? = links[handle]?.security.procedure else { return }
        let outputs = step(&initiator)
        links[handle]?.security.procedure = .pairing(initiator)
        applySMP(outputs, on: handle, timeout: timeout)
    }

    /// Sends the pairing's PDUs on CID 0x0006, starts encryption, stores the keys or reports the failure.
    private func applySMP(_ outputs: [SMPInitiator.Output], on handle: ConnectionHandle, timeout: Bool = false) {
        for output in outputs {
            switch output {
            case .send(let pdu):
                if let error = sendFrame(L2CAPBasicFrame(handle: handle, channelID: .securityManagerProtocol, payload: pdu)) {
                    emit(.diagnostic("SMP send on 0x\(String(handle.rawValue, radix: 16)): \(error)"))
                }
            case .startEncryption(let key, let ediv, let rand):
                enableEncryption(handle, key: key, ediv: ediv, rand: rand) { [self] _ in
                    stepPairing(handle) { $0.encryptionChanged(false, now: clock.now) }
                }
            case .completed(let result):
                paired(handle, result)
            case .passkeyRequested:
                prompt(handle, .enterPasskey)
            case .displayPasskey(let value):
                prompt(handle, .displayPasskey(value))
            case .confirmNumber(let value):
                prompt(handle, .confirmNumber(value))
            case .failed(let reason, let sentByUs):
                links[handle]?.security.pairingFailed = true
                if timeout { links[handle]?.security.smpTimedOut = true }
                finishSecurity(handle, .failure(timeout ? .pairingTimedOut(handle) : .pairingFailed(handle, reason, byPeer: !sentByUs)))
            }
        }
        rescheduleTimer()
    }

    /// Asks the user: a new prompt id, which the answer must carry (a display prompt is answered only by a cancel).
    private func prompt(_ handle: ConnectionHandle, _ prompt: PairingPrompt) {
        promptCounter &+= 1
        links[handle]?.security.promptID = promptCounter
        emit(.pairingPrompt(handle: handle, prompt: prompt, id: promptCounter))
    }

    /// Pairing completed: the keys become a bond (when both sides asked for bonding and there is an LTK to keep).
    private func paired(_ handle: ConnectionHandle, _ result: SMPPairingResult) {
        guard let link = links[handle] else { return }
        var security = link.security.current
        security.authenticated = result.authenticated
        security.secureConnections = result.secureConnections
        if security.keySize == 0 { security.keySize = result.keySize }
        let air = link.airAddress
        // The identity: the one the peer distributed when it is one (public, or random static: Vol 6 Part B §1.3.2.1),
        // else the address of the link when that is one; a private address with no valid identity is not kept.
        let identity = [result.identityAddress, SMPAddress(isRandom: air.type != .public, address: air.address)]
            .compactMap { $0 }.first(where: Self.isIdentityAddress)
        if let distributed = result.identityAddress, !Self.isIdentityAddress(distributed) {
            emit(.notice("the peer on connection 0x\(String(handle.rawValue, radix: 16)) gave \(distributed.address) as its identity, which is no identity address: ignored"))
        }
        // A pairing whose identity is another bonded device's (the link's address is none of that device's) does not
        // replace that bond: a device claiming someone else's identity must not take over its keys unnoticed.
        let claimed = identity.flatMap { bondBook.bonds[$0.address] }
        let takesOver = claimed != nil && bondBook.bond(for: air.address)?.peer != claimed?.peer
        if takesOver, let identity {
            emit(.notice("the peer on connection 0x\(String(handle.rawValue, radix: 16)) (\(air.address)) gave the identity \(identity.address) of another bonded device: its bond is kept and this pairing is not stored (if it is that device, reset: `cbtool bonds remove \(identity.address)`, then pair again)"))
        }
        if result.bonding, !result.longTermKey.isEmpty, let store = bondStore, let identity, !takesOver {
            // Paired over a resolvable private address: the device stays known by it (its identifier with it).
            let paired = air.type == .random && air.address.randomSubtype == .resolvablePrivate && air.address != identity.address
                ? air.address.description : nil
            var bond = Bond(peer: identity.address.description, peerAddressType: identity.isRandom ? "random" : "public",
                            longTermKey: Hex.string(result.longTermKey), ediv: result.ediv, rand: Hex.string(result.rand),
                            keySize: result.keySize, authenticated: result.authenticated,
                            secureConnections: result.secureConnections,
                            identityResolvingKey: result.identityResolvingKey.map { Hex.string($0) },
                            signatureKey: result.signatureKey.map { Hex.string($0) },
                            created: ISO8601DateFormatter().string(from: Date()), pairedAddress: paired)
            bond.localSignatureKey = result.localSignatureKey.map { Hex.string($0) }
            bond.localSignCounter = result.localSignatureKey == nil ? nil : 0
            do throws(BondStoreError) {
                try store.save(bond)
                bondBook.add(bond)
                emit(.bonds(bondBook.bonds.values.sorted { $0.peer < $1.peer }))
                security.bonded = true
                attachSigner(handle)
                emit(.diagnostic("security on 0x\(String(handle.rawValue, radix: 16)): bonded with \(bond.peer) (\(store.path(of: identity.address)))"))
            } catch {
                emit(.notice("key store: \(error); the link is encrypted, but the bond is not kept"))
            }
        } else if result.bonding, !result.longTermKey.isEmpty, identity == nil {
            emit(.notice("the peer on connection 0x\(String(handle.rawValue, radix: 16)) uses a private address and gave no identity address: the link is encrypted, but the bond cannot be kept"))
        }
        links[handle]?.security.current = security
        finishSecurity(handle, .success(security))
    }

    /// True for an identity address: public, or random static (top bits 0b11, neither all zeros nor all ones in the
    /// random part).
    static func isIdentityAddress(_ address: SMPAddress) -> Bool {
        guard address.isRandom else { return address.address != .zero }
        let random = address.address.value & 0x3FFF_FFFF_FFFF
        return address.address.randomSubtype == .static && random != 0 && random != 0x3FFF_FFFF_FFFF
    }

    /// Ends the running procedure: the waiters get the outcome, a parked ATT request goes again (or fails with its
    /// error), and a change of the link's security is reported.
    func finishSecurity(_ handle: ConnectionHandle, _ result: Result<LinkSecurity, HostError>, quiet: Bool = false) {
        guard let link = links[handle] else { return }
        links[handle]?.security.procedure = nil
        links[handle]?.security.encryptionDeadline = nil
        links[handle]?.security.promptID = nil
        links[handle]?.security.waiters = []
        links[handle]?.security.attWaiting = false
        if case .failure(let error) = result, !quiet {
            // Said where the app's log shows it: the app itself only gets the ATT error of its request.
            if case .encryptionFailed(_, .pinOrKeyMissing) = error {
                emit(.notice("\(error) (`cbtool bonds remove \(link.info.peer.address)`)"))
            } else {
                emit(.notice("\(error)"))
            }
        }
        if case .success(let security) = result, security != link.security.current || link.security.procedure != nil {
            emit(.securityChanged(handle: handle, security: security))
        }
        for waiter in link.security.waiters { waiter(result) }
        if link.security.attWaiting {
            let now = clock.now
            let success = (try? result.get()) != nil
            applyATT(success ? link.att.securityRaised(now: now) : link.att.securityNotRaised(now: now), on: handle)
        }
    }

    /// ``ATTLinkHost/securityRequired(_:on:)``: pair or encrypt, unless turned off, then send the request again.
    func securityRequired(_ response: ATTErrorResponse, on handle: ConnectionHandle) {
        raiseSecurity(handle, because: .att(response), nil)
    }

    /// One SMP PDU from the peer on CID 0x0006.
    func receiveSMP(_ pdu: [UInt8], on handle: ConnectionHandle) {
        guard let link = links[handle] else { return }
        if case .pairing = link.security.procedure {
            return stepPairing(handle) { $0.receive(pdu, now: clock.now) }
        }
        switch pdu.first {
        case SMPCode.securityRequest.rawValue:
            // The peripheral asks for security (§2.4.6): encrypt with the bond, else pair, as iOS does.
            raiseSecurity(handle, because: .peerRequest, nil)
        case SMPCode.pairingRequest.rawValue:
            // Only the central initiates pairing on LE (§3.5.1): Command Not Supported.
            _ = sendFrame(L2CAPBasicFrame(handle: handle, channelID: .securityManagerProtocol,
                                          payload: SMPPDU.pairingFailed(.commandNotSupported).bytes))
        default:
            // Code and length only: a late key distribution PDU would put key octets in the log.
            emit(.diagnostic("SMP on 0x\(String(handle.rawValue, radix: 16)): code 0x\(String(pdu.first ?? 0, radix: 16)), \(pdu.count) bytes, outside pairing; dropped"))
        }
    }

    /// HCI Encryption Change (Vol 4 Part E §7.7.8) or Encryption Key Refresh Complete (§7.7.39).
    func handleEncryptionChange(handle: ConnectionHandle, status: HCIErrorCode, encrypted: Bool, keySize: UInt8?) {
        guard let link = links[handle] else { return }
        let on = status.isSuccess && encrypted
        if status.isSuccess {
            links[handle]?.security.current.encrypted = encrypted
            if let keySize { links[handle]?.security.current.keySize = Int(keySize) }
            if !encrypted { links[handle]?.security.current = LinkSecurity() }
        }
        switch link.security.procedure {
        case .encrypting(let bond):
            guard on else { return finishSecurity(handle, .failure(.encryptionFailed(handle, status.isSuccess ? .unspecifiedError : status))) }
            var security = links[handle]?.security.current ?? LinkSecurity()
            security.authenticated = bond.authenticated
            security.secureConnections = bond.secureConnections
            if keySize == nil { security.keySize = bond.keySize }
            security.bonded = true
            links[handle]?.security.current = security
            finishSecurity(handle, .success(security))
        case .pairing:
            stepPairing(handle) { $0.encryptionChanged(on, now: clock.now) }
        case nil:
            emit(.diagnostic("security on 0x\(String(handle.rawValue, radix: 16)): encryption \(on ? "on" : "off") (\(status))"))
        }
    }

    /// Times out pairings 30 s after their last PDU (Vol 3 Part H §3.4).
    func tickSecurity(now: ContinuousClock.Instant) {
        for handle in links.keys.sorted() {
            guard let deadline = links[handle]?.security.nextDeadline, deadline <= now else { continue }
            if case .encrypting? = links[handle]?.security.procedure {
                // No Encryption Change within the LL procedure response timeout (40 s, Vol 6 Part B §5.2).
                finishSecurity(handle, .failure(.encryptionFailed(handle, .llResponseTimeout)))
                continue
            }
            stepPairing(handle, timeout: true) { $0.tick(now: now) }
        }
    }

    /// The earliest pairing deadline of all links.
    var nextSecurityDeadline: ContinuousClock.Instant? {
        var earliest: ContinuousClock.Instant?
        for link in links.values { earliest = DeadlineTimer.earliest(earliest, link.security.nextDeadline) }
        return earliest
    }

    /// The link ended: whoever waits for its security gets `error`.
    func endSecurity(_ link: LinkState, error: HostError) {
        for waiter in link.security.waiters { waiter(.failure(error)) }
    }
}
