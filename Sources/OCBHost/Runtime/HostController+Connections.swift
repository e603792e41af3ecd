// Connections: queued create/cancel with timeouts, completion, disconnect, parameter updates, RSSI, data length and PHY.

import OCBCore
import OCBHCI
import OCBL2CAP

extension HostController {
    /// Queues an attempt for `peer`: one LE (Extended) Create Connection at a time (Vol 4 Part E §7.8.12, §7.8.66),
    /// with the scan timing and link parameters of `options`, cancelled with LE Create Connection Cancel after
    /// `options.timeout`. Ends in ``HostEvent/connected(_:)`` or ``HostEvent/connectionFailed(_:_:)``
    /// (``HostError/notPoweredOn(_:)``, ``HostError/connectTimeout(_:)``, ``HostError/connectionFailed(_:_:)``, ...).
    /// Called on the host's queue (a backend running there) while no other request of the app waits for it, the
    /// attempt is queued at once, not after what the queue holds (during a flood, a turn of discoveries); a request
    /// asked before it still goes first.
    public func connect(to peer: PeerAddress, options: ConnectOptions) {
        let work: @Sendable () -> Void = {
            guard self.currentState == .poweredOn else {
                return self.emit(.connectionFailed(peer, .notPoweredOn(self.currentState)))
            }
            let (attempt, actions) = self.attempts.enqueue(peer, timeout: options.timeout, now: self.clock.now)
            self.attemptOptions[attempt.id] = options
            self.perform(actions)
        }
        requestInPlace(work)
    }

    /// Removes the queued attempts for `peer`, or cancels the one in progress (LE Create Connection Cancel,
    /// §7.8.13); it ends with ``HostError/connectCancelled(_:)`` unless the connection completed first.
    public func cancelConnect(to peer: PeerAddress) {
        request { self.perform(self.attempts.cancel(peer, now: self.clock.now)) }
    }

    /// Sends HCI Disconnect (Vol 4 Part E §7.1.6) with `reason`; ends in ``HostEvent/disconnected(_:reason:error:)``
    /// on Disconnection Complete. No effect for an unknown handle; when the controller answers 0x02 Unknown
    /// Connection Identifier the link is ended at once.
    public func disconnect(_ handle: ConnectionHandle, reason: HCIErrorCode = .remoteUserTerminatedConnection) {
        request {
            guard self.links[handle] != nil else { return }
            self.links[handle]?.disconnectRequested = true
            self.sendExpectingStatus(HCIDisconnect(handle: handle, reason: reason)) { [self] error in
                guard let error, links[handle] != nil else { return }
                // 0x02 Unknown Connection Identifier: the link is already gone; its Disconnection Complete follows or never will.
                emit(.diagnostic("Disconnect of 0x\(String(handle.rawValue, radix: 16)) failed: \(error)"))
                if case .commandFailed(_, .unknownConnectionIdentifier) = error { endLink(handle, reason: .connectionTerminatedByLocalHost, error: nil) }
            }
        }
    }

    /// Sends HCI Read RSSI (Vol 4 Part E §7.5.4) and delivers the RSSI in dBm (-127...20). Fails with
    /// ``HostError/notConnected(_:)``, ``HostError/commandFailed(_:_:)``, ``HostError/commandTimeout(_:)`` or
    /// ``HostError/malformedResponse(_:_:)``.
    public func readRSSI(_ handle: ConnectionHandle, completion: @escaping @Sendable (Result<Int8, HostError>) -> Void) {
        requestInPlace {
            guard self.links[handle] != nil else { return self.deliver { completion(.failure(.notConnected(handle))) } }
            self.send(HCIReadRSSI(handle: handle)) { result in
                let mapped = result.map { $0.rssi }
                self.deliver { completion(mapped) }
            }
        }
    }

    /// Performs the queue's actions (on `queue`).
    func perform(_ actions: [ConnectionAttemptQueue.Action]) {
        for action in actions {
            switch action {
            case .create(let attempt):
                attemptSentAt = clock.now
                sendCreate(attempt)
            case .cancelCreate:
                sendExpectingStatus(HCILECreateConnectionCancel()) { [self] error in
                    // 0x0C: nothing pending any more (the completion is on its way); the grace timer covers the rest.
                    if let error { emit(.diagnostic("LE Create Connection Cancel: \(error)")) }
                }
            case .finished(let attempt, let outcome):
                attemptSentAt = nil
                finish(attempt, outcome)
            }
        }
        rescheduleTimer()
    }

    private func sendCreate(_ attempt: ConnectionAttemptQueue.Attempt) {
        let options = attemptOptions[attempt.id] ?? ConnectOptions()
        let family = chooseFamily()
        commandFamily = family
        let parameters = LEConnectionParameters(intervalMin: options.intervalMin, intervalMax: options.intervalMax,
                                                maxLatency: options.latency, supervisionTimeout: options.supervisionTimeout)
        let done: (HostError?) -> Void = { [self] error in
            guard let error else { return }
            guard attempts.activeAttempt?.id == attempt.id else { return }
            var status: UInt8 = 0x1F
            if case .commandFailed(_, let code) = error { status = code.rawValue }
            if case .commandTimeout = error { status = 0x22 }
            perform(attempts.createRejected(status: status))
        }
        // A bonded device is reached at the private address it was last heard from (no controller resolving list).
        let target = bondBook.airAddress(for: attempt.peer)
        attemptTarget = target
        switch family {
        case .legacy:
            sendExpectingStatus(HCILECreateConnection(peerAddressType: target.type, peerAddress: target.address,
                                                      ownAddressType: ownAddressType, connection: parameters,
                                                      scanInterval: options.scanInterval, scanWindow: options.scanWindow), done)
        case .extended:
            let phy = LEInitiatingPHYParameters(scanInterval: options.scanInterval, scanWindow: options.scanWindow, connection: parameters)
            sendExpectingStatus(HCILEExtendedCreateConnection(peerAddressType: target.type, peerAddress: target.address,
                                                              ownAddressType: ownAddressType, le1M: phy), done)
        }
    }

    private func finish(_ attempt: ConnectionAttemptQueue.Attempt, _ outcome: ConnectionAttemptQueue.Outcome) {
        let options = attemptOptions.removeValue(forKey: attempt.id)
        switch outcome {
        case .connected(let handle):
            guard let link = links[handle] else { return }
            emit(.connected(link.info))
            afterConnect(handle, options: options ?? ConnectOptions())
        case .connectedAfterCancel(let handle, let reason):
            links[handle]?.disconnectRequested = true
            links[handle].map { _ in sendExpectingStatus(HCIDisconnect(handle: handle, reason: .remoteUserTerminatedConnection)) { _ in } }
            // The link exists only until its Disconnection Complete; report the attempt as failed now.
            links[handle]?.suppressEvents = true
            emit(.connectionFailed(attempt.peer, reason == .cancelled ? .connectCancelled(attempt.peer) : .connectTimeout(attempt.peer)))
        case .ended(.cancelled):
            emit(.connectionFailed(attempt.peer, .connectCancelled(attempt.peer)))
        case .ended(.timedOut):
            emit(.connectionFailed(attempt.peer, .connectTimeout(attempt.peer)))
        case .failed(let status):
            emit(.connectionFailed(attempt.peer, .connectionFailed(attempt.peer, HCIErrorCode(rawValue: status))))
        }
    }

    /// Optional link improvements that never block the connection: data length and PHY, when supported.
    private func afterConnect(_ handle: ConnectionHandle, options: ConnectOptions) {
        guard let info else { return }
        if options.requestDataLength, info.leFeatures.contains(.leDataPacketLengthExtension),
           info.supportedCommands.contains(.leSetDataLength) {
            // 251 octets, 2120 µs: the LE 1M maximum (Vol 6 Part B §4.5.10).
            send(HCILESetDataLength(handle: handle, txOctets: 251, txTime: 2120)) { [self] in
                if let error = $0.error { emit(.diagnostic("LE Set Data Length: \(error)")) }
            }
        }
        if options.requestTwoMegabitPHY, info.leFeatures.contains(.le2MPHY), info.supportedCommands.contains(.leSetPHY) {
            sendExpectingStatus(HCILESetPHY(handle: handle, txPHYs: [.le1M, .le2M], rxPHYs: [.le1M, .le2M])) { [self] in
                if let error = $0 { emit(.diagnostic("LE Set PHY: \(error)")) }
            }
        }
    }

    func tickAttempts(now: ContinuousClock.Instant) {
        let actions = attempts.tick(now: now)
        if !actions.isEmpty { perform(actions) }
    }

    // MARK: - Events

    /// LE (Enhanced) Connection Complete (Vol 4 Part E §7.7.65.1, §7.7.65.10).
    func handleConnectionComplete(_ event: LEConnectionComplete) {
        if event.status.isSuccess {
            if links[event.handle] != nil {
                // A controller fault: a second connection on a live handle. The old link ends first, so its requests complete.
                emit(.diagnostic("LE Connection Complete for live handle 0x\(String(event.handle.rawValue, radix: 16)); the old link ends"))
                endLink(event.handle, reason: .unspecifiedError, error: .disconnected(event.handle, .unspecifiedError))
            }
            let air = PeerAddress(event.peerAddress, type: event.peerAddressType)
            let peer = knownPeer(forPrivate: air, connected: true) ?? air
            let info = ConnectionInfo(handle: event.handle, peer: peer, role: event.role == 0 ? .central : .peripheral,
                                      parameters: LinkParameters(interval: event.connectionInterval, latency: event.peripheralLatency,
                                                                 supervisionTimeout: event.supervisionTimeout))
            links[event.handle] = LinkState(info: info, attTransactionTimeout: configuration.attTransactionTimeout)
            links[event.handle]?.airAddress = air
            attachSigner(event.handle)
            links[event.handle]?.att.client.raisesSecurityOnError = configuration.security.pairsOnInsufficientSecurity
            guard event.role == 0 else {
                emit(.diagnostic("unexpected peripheral-role connection 0x\(String(event.handle.rawValue, radix: 16))"))
                return
            }
        }
        perform(attempts.connectionComplete(status: event.status.rawValue, handle: event.handle))
    }

    /// Disconnection Complete (Vol 4 Part E §7.7.5).
    func handleDisconnectionComplete(_ event: HCIDisconnectionCompleteEvent) {
        guard event.status.isSuccess else {
            return emit(.diagnostic("Disconnection Complete with status \(event.status) on 0x\(String(event.handle.rawValue, radix: 16))"))
        }
        if event.reason == .connectionTerminatedMICFailure, let link = links[event.handle], link.security.usesBondKey {
            emit(.notice("the link to \(link.info.peer.address) ended with a MIC failure (0x3D): the bond's key and the peer's differ "
                         + "(it paired with another host, or was reset); remove the bond (`cbtool bonds remove \(link.info.peer.address)`) and pair again"))
        }
        let requested = links[event.handle]?.disconnectRequested ?? false
        let timedOut = links[event.handle]?.att.timedOut ?? false
        endLink(event.handle, reason: event.reason,
                error: timedOut ? .attTimeout(event.handle) : requested ? nil : .disconnected(event.handle, event.reason))
    }

    /// ``ATTLinkHost/disconnectAfterATTTimeout(_:)``: HCI Disconnect with 0x13 Remote User Terminated Connection (as
    /// BlueZ does on an ATT timeout); Disconnection Complete then reports ``HostError/attTimeout(_:)``.
    func disconnectAfterATTTimeout(_ handle: ConnectionHandle) {
        disconnect(handle, reason: .remoteUserTerminatedConnection)
    }

    /// Forgets a link: closes its GATT client (procedures end with GATTError.disconnected) and ATT requests, frees its ACL buffers, reports it (on `queue`).
    func endLink(_ handle: ConnectionHandle, reason: HCIErrorCode, error: HostError?) {
        guard let link = links.removeValue(forKey: handle) else { return }
        link.att.close(error ?? .disconnected(handle, reason), now: clock.now)
        endSecurity(link, error: error ?? .disconnected(handle, reason))
        _ = recombiner.reset(handle: handle)
        // The controller flushed this handle's unacknowledged packets (Vol 4 Part E §7.7.5).
        _ = acl?.connectionClosed(handle: handle)
        if !link.suppressEvents { emit(.disconnected(link.info, reason: reason, error: error)) }
        pumpACL()
    }

    /// LE Connection Update Complete (§7.7.65.3).
    func handleConnectionUpdateComplete(_ event: LEConnectionUpdateComplete) {
        guard event.status.isSuccess, links[event.handle] != nil else { return }
        let parameters = LinkParameters(interval: event.connectionInterval, latency: event.peripheralLatency,
                                        supervisionTimeout: event.supervisionTimeout)
        links[event.handle]?.info.parameters = parameters
        emit(.connectionUpdated(handle: event.handle, parameters: parameters))
    }

    /// LE Remote Connection Parameter Request (§7.7.65.6): accept valid ranges (§7.8.31), else reject (§7.8.32).
    func handleRemoteConnectionParameterRequest(_ event: LERemoteConnectionParameterRequest) {
        let proposed = L2CAPConnectionParameters(intervalMin: event.intervalMin, intervalMax: event.intervalMax,
                                                 latency: event.maxLatency, timeout: event.timeout)
        if proposed.isValid {
            let parameters = LEConnectionParameters(intervalMin: event.intervalMin, intervalMax: event.intervalMax,
                                                    maxLatency: event.maxLatency, supervisionTimeout: event.timeout)
            send(HCILERemoteConnectionParameterRequestReply(handle: event.handle, connection: parameters)) { [self] in
                if let error = $0.error { emit(.diagnostic("parameter request reply: \(error)")) }
            }
        } else {
            send(HCILERemoteConnectionParameterRequestNegativeReply(handle: event.handle, reason: .unacceptableConnectionParameters)) { _ in }
        }
    }

    /// Applies parameters the peripheral asked for over L2CAP signaling (Vol 3 Part A §4.20) with LE Connection Update.
    func applyParameterUpdate(_ handle: ConnectionHandle, _ requested: L2CAPConnectionParameters) {
        let parameters = LEConnectionParameters(intervalMin: requested.intervalMin, intervalMax: requested.intervalMax,
                                                maxLatency: requested.latency, supervisionTimeout: requested.timeout)
        sendExpectingStatus(HCILEConnectionUpdate(handle: handle, connection: parameters)) { [self] in
            if let error = $0 { emit(.diagnostic("LE Connection Update: \(error)")) }
        }
    }
}
