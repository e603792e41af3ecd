// Link security in kernel mode: the kernel's Security Manager pairs and encrypts when the ATT socket asks for BT_SECURITY.

import Foundation
import OCBATT
import OCBCore
import OCBHCI
import OCBSMP

/// What kernel mode keeps of one link's security (owned by its ``KernelLink``).
struct KernelLinkSecurity {
    /// Called with the outcome of the raise in progress (each once).
    var waiters: [(Result<LinkSecurity, HostError>) -> Void] = []
    /// True while the link's ATT bearer holds a request for the outcome.
    var attWaiting = false
    /// Stops waiting for the socket to become writable again; nil when no raise is in progress.
    var cancelWait: (@Sendable () -> Void)?
    /// The raise's number (``KernelHost/securityGeneration`` when it started), so a stale deadline does nothing.
    var generation = 0
    /// Encrypted, and waiting (briefly) for the kernel to report the new keys before going on, so the bond is
    /// kept even when the app disconnects at once.
    var awaitingKeys: LinkSecurity?
    /// True once a raise failed on this link: an ATT error does not start another (iOS asks once).
    var failed = false
}

extension KernelHost {
    /// How long the kernel's pairing may take before the raise is given up: the 30 s SMP timeout (Core v5.4 Vol 3
    /// Part H §3.4) and a margin.
    static let securityWait: DispatchTimeInterval = .seconds(35)

    /// ``CentralHost/secure(_:completion:)``: asks the kernel for BT_SECURITY_MEDIUM on the link's ATT socket; the
    /// kernel encrypts with the key it holds (bluetoothd's, or the bonds this host loaded) or pairs (Just Works with
    /// NoInputNoOutput). Completes once the socket is writable again at that level, or fails with
    /// ``HostError/encryptionFailed(_:_:)`` (the kernel's Authentication Failed event), ``HostError/pairingTimedOut(_:)``,
    /// ``HostError/notConnected(_:)``.
    public func secure(_ handle: ConnectionHandle, completion: @escaping @Sendable (Result<LinkSecurity, HostError>) -> Void) {
        requestInPlace {
            self.raiseSecurity(handle, fromATT: false) { result in self.deliver { completion(result) } }
        }
    }

    /// ``CentralHost/security(of:)``: the level and key size the kernel reports for the link's socket.
    public func security(of handle: ConnectionHandle) -> LinkSecurity? {
        onQueue { links[handle].map { currentSecurity($0) } }
    }

    /// ``CentralHost/setPairingIOCapability(_:)``: ignored in kernel mode (the kernel pairs with bluetoothd's agent's IO
    /// capability, or NoInputNoOutput without bluetoothd).
    public func setPairingIOCapability(_ capability: SMPIOCapability) {}

    /// ``CentralHost/answerPairing(_:_:)``: kernel mode shows no prompts, so there is nothing to answer.
    public func answerPairing(_ handle: ConnectionHandle, _ answer: PairingAnswer, prompt id: UInt64) {}

    /// ``SerialHost/knownPeer(forPrivate:)``: when this host keeps the bonds (no bluetoothd), a report's resolvable
    /// private address resolved with their IRKs, as the full host does: the device is reported by the address it is
    /// known by (``Bond/knownAddress``); the raw socket's reports carry the address on the air.
    func knownPeer(forPrivate peer: PeerAddress) -> PeerAddress? {
        guard kernelBonds != nil else { return nil }
        return kernelBondBook.knownPeer(for: peer)
    }

    /// True when `address` (as a kernel event gives it: the identity once the kernel has the IRK, else the address on
    /// the air) is the device of `link`.
    func link(_ link: KernelLink, isDevice address: BluetoothAddress) -> Bool {
        link.info.peer.address == address || kernelBondBook.bond(for: link.info.peer.address)?.peer == address.description
    }

    /// ``ATTLinkHost/securityRequired(_:on:)``: raise the socket's security once, then send the request again.
    func securityRequired(_ response: ATTErrorResponse, on handle: ConnectionHandle) {
        raiseSecurity(handle, fromATT: true, nil)
    }

    /// The link's security as ``LinkSecurity``: the socket's level (2 and up encrypted, 3 and up authenticated) and key
    /// size (a link the kernel encrypted on its own at connection, with a key it holds, has a key size and may still
    /// say level 1); whether the key is LE Secure Connections and a bond from this host's store when it keeps the bonds.
    func currentSecurity(_ link: KernelLink) -> LinkSecurity {
        // A key size only while connected and encrypted: after the link went, BT_SECURITY reports the level we asked for.
        guard let (level, keySize) = link.socket.security(), keySize > 0 else { return LinkSecurity() }
        let bond = kernelBonds == nil ? nil : kernelBondBook.bond(for: link.info.peer.address)
        return LinkSecurity(encrypted: true, authenticated: level >= 3, secureConnections: level >= 4 || bond?.secureConnections == true,
                            keySize: Int(keySize), bonded: bond != nil)
    }

    private func raiseSecurity(_ handle: ConnectionHandle, fromATT: Bool, _ done: ((Result<LinkSecurity, HostError>) -> Void)?) {
        guard let link = links[handle] else {
            done?(.failure(.notConnected(handle)))
            return
        }
        if let done { links[handle]?.security.waiters.append(done) }
        if fromATT { links[handle]?.security.attWaiting = true }
        guard link.security.cancelWait == nil, link.security.awaitingKeys == nil else { return }  // a raise is in progress
        let current = currentSecurity(link)
        if fromATT, current.encrypted, link.att.client.bearer.parkedError == .insufficientEncryption {
            // Answered before the link's encryption finished: now encrypted, so it goes again.
            return finishSecurity(handle, .success(current))
        }
        if fromATT, current.encrypted || link.security.failed {
            // Encrypted and still refused, or refused before: the kernel's Just Works cannot give more.
            return finishSecurity(handle, .failure(.insufficientSecurity(handle, current.encrypted ? "an authenticated (MITM) key" : "encryption, and pairing failed on this link")))
        }
        if !fromATT, current.encrypted { return finishSecurity(handle, .success(current)) }
        do {
            try link.socket.setSecurity(.medium)
        } catch {
            return finishSecurity(handle, .failure(.transportFailed("BT_SECURITY: \(error)")))
        }
        // Host-wide, so a deadline of an ended link never touches a later link on the same handle.
        securityGeneration &+= 1
        let generation = securityGeneration
        links[handle]?.security.generation = generation
        emit(.diagnostic("security on 0x\(String(handle.rawValue, radix: 16)): BT_SECURITY medium asked of the kernel"))
        links[handle]?.security.cancelWait = link.socket.whenWritable(queue: queue) { [weak self] in
            self?.socketWritableAgain(handle, generation: generation)
        }
        queue.asyncAfter(deadline: .now() + Self.securityWait) { [weak self] in
            guard let self, links[handle]?.security.generation == generation, links[handle]?.security.cancelWait != nil else { return }
            finishSecurity(handle, .failure(.pairingTimedOut(handle)))
        }
    }

    /// How long a pairing's success waits for the kernel's New Long Term Key (sent once key distribution ends, shortly
    /// after encryption) when this host keeps the bonds.
    static let keyReportWait: DispatchTimeInterval = .milliseconds(1_500)

    /// The kernel let the socket write again: pairing or encryption ended; the level says how. When this host keeps
    /// the bonds and the link is not encrypted with one yet (a new pairing), the outcome waits for the kernel's key
    /// report (``keyReportWait`` at most), so the bond is on disk before the app may disconnect.
    private func socketWritableAgain(_ handle: ConnectionHandle, generation: Int) {
        guard let link = links[handle], link.security.generation == generation else { return }
        let security = currentSecurity(link)
        guard security.encrypted else { return finishSecurity(handle, .failure(.encryptionFailed(handle, .authenticationFailure))) }
        guard kernelBonds != nil, !security.bonded else { return finishSecurity(handle, .success(security)) }
        links[handle]?.security.awaitingKeys = security
        queue.asyncAfter(deadline: .now() + Self.keyReportWait) { [weak self] in
            guard let self, links[handle]?.security.generation == generation, let waiting = links[handle]?.security.awaitingKeys else { return }
            finishSecurity(handle, .success(waiting))
        }
    }

    /// The kernel reported the keys of `address`: links waiting for them go on, now bonded.
    func keysKept(for address: BluetoothAddress) {
        for (handle, link) in links where (self.link(link, isDevice: address) || pairedOver[address] == link.info.peer.address)
            && link.security.awaitingKeys != nil {
            finishSecurity(handle, .success(currentSecurity(link)))
        }
    }

    /// Management Authentication Failed for the peer of a link (pairing or encryption failed in the kernel).
    func authenticationFailed(_ address: BluetoothAddress, status: ManagementStatus) {
        for (handle, link) in links where self.link(link, isDevice: address) && link.security.cancelWait != nil {
            // Management statuses are not HCI codes (the kernel folds PIN or Key Missing into 0x05 Authentication Failed).
            _ = status
            finishSecurity(handle, .failure(.encryptionFailed(handle, .authenticationFailure)))
        }
    }

    /// Ends the raise: waiters get the outcome, a parked ATT request goes again or fails with its error.
    func finishSecurity(_ handle: ConnectionHandle, _ result: Result<LinkSecurity, HostError>) {
        guard let link = links[handle] else { return }
        link.security.cancelWait?()
        links[handle]?.security.cancelWait = nil
        links[handle]?.security.awaitingKeys = nil
        links[handle]?.security.waiters = []
        links[handle]?.security.attWaiting = false
        switch result {
        case .success(let security): emit(.securityChanged(handle: handle, security: security))
        case .failure(let error):
            links[handle]?.security.failed = true
            emit(.notice("\(error)"))
        }
        for waiter in link.security.waiters { waiter(result) }
        if link.security.attWaiting {
            let now = clock.now
            applyATT((try? result.get()) != nil ? link.att.securityRaised(now: now) : link.att.securityNotRaised(now: now), on: handle)
        }
    }

    /// The link ended: whoever waits for its security gets `error`.
    func endSecurity(_ link: KernelLink, error: HostError) {
        link.security.cancelWait?()
        for waiter in link.security.waiters { waiter(.failure(error)) }
    }
}
