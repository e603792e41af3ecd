// How a central manager turns backend events into state changes and delegate calls (on its queue).
internal import OCBHCI
internal import OCBCore
internal import OCBHost
import Foundation

extension CBCentralManager {
    /// Handles one backend event; runs on the delegate queue.
    func handle(_ event: BackendEvent) {
        switch event {
        case .stateChanged(let state, let controller): handleState(state, controller: controller)
        case .advertisement(let report):
            if let discovery = prepareDiscovery(report) { deliver([discovery]) }
        case .discovered(let devices): deliver(prepareDiscoveries(devices))
        case .connected(let peer, let mtu): handleConnected(peer, mtu: mtu)
        case .connectionFailed(let peer, let reason):
            handleLinkDown(peer, reason: reason, failedToConnect: true, attTimedOut: false, controllerLost: false)
        case .disconnected(let peer, let reason, let error):
            handleLinkDown(peer, reason: reason, failedToConnect: false, attTimedOut: error == .timeout, controllerLost: error == .controllerLost)
        case .response(let peer, let id, let response):
            lock.run { active[peer] }?.handleResponse(id, response)
        case .valueNotified(let peer, let handle, let value, _):
            let target: (CBPeripheral, CBCharacteristic)? = lock.run {
                guard let peripheral = active[peer], peripheral.storedState == .connected,
                      let found = peripheral.characteristic(valueHandle: handle) else { return nil }
                found.storedValue = Data(value)
                return (peripheral, found)
            }
            if let (peripheral, characteristic) = target {
                peripheral.delegate?.peripheral(peripheral, didUpdateValueFor: characteristic, error: nil)
            }
        case .writeWithoutResponseAvailability(let peer, let canSend):
            writeWithoutResponseUpdate(peer, canSend: canSend, sent: false)
        case .writeWithoutResponseSent(let peer, let canSend):
            writeWithoutResponseUpdate(peer, canSend: canSend, sent: true)
        case .servicesChanged(let peer, let range):
            guard let peripheral = lock.run({ active[peer] }) else { return }
            let invalidated: [CBService] = lock.run {
                let hit = (peripheral.storedServices ?? []).filter { $0.startHandle <= range.upperBound && $0.endHandle >= range.lowerBound }
                for service in hit { service.invalidateTree() }
                if peripheral.storedServices != nil { peripheral.storedServices?.removeAll { service in hit.contains { $0 === service } } }
                return hit
            }
            peripheral.delegate?.peripheral(peripheral, didModifyServices: invalidated)
        case .nameChanged(let peer, let name):
            guard let peripheral = lock.run({ active[peer] ?? handedOut[peer]?.value }) else { return }
            let changed: Bool = lock.run {
                guard peripheral.storedName != name else { return false }
                peripheral.storedName = name
                return true
            }
            if changed { peripheral.delegate?.peripheralDidUpdateName(peripheral) }
        case .pairingPrompt(let peer, let prompt, let id):
            handlePairingPrompt(peer, prompt, id: id)
        case .securityChanged(let peer, let security):
            lock.run { active[peer]?.storedSecurity = security }
        case .bonded(let peers):
            lock.run { bondedPeers = peers }
        case .scanFailed(let reason): handleScanFailed(reason)
        case .scanStopped: releaseStoppedScan()
        }
    }

    /// A pairing needs the user: the pairing delegate answers (``CBPairingDelegate``); without one (or for an unknown
    /// peripheral) the prompt is cancelled, a passkey to display too (no one would see it), so the pairing fails at
    /// once rather than at the SMP timeout. Each answer carries the prompt's id: an answer to an older prompt is dropped.
    private func handlePairingPrompt(_ peer: PeerAddress, _ prompt: PairingPrompt, id: UInt64) {
        let backend = self.backend
        let found: (CBPeripheral, any CBPairingDelegate)? = lock.run {
            guard let peripheral = active[peer], let delegate = storedPairingDelegate else { return nil }
            return (peripheral, delegate)
        }
        guard let (peripheral, delegate) = found else { return backend.answerPairing(peer, .cancel, prompt: id) }
        switch prompt {
        case .enterPasskey:
            delegate.centralManager(self, peripheral: peripheral, needsPasskey: { value in
                backend.answerPairing(peer, value.map { .passkey($0) } ?? .cancel, prompt: id)
            })
        case .displayPasskey(let value):
            delegate.centralManager(self, peripheral: peripheral, displayPasskey: value)
        case .confirmNumber(let value):
            delegate.centralManager(self, peripheral: peripheral, confirmNumber: value, reply: { accepted in
                backend.answerPairing(peer, .confirm(accepted), prompt: id)
            })
        }
    }

    /// After a stopped scan's last discovery reached the delegate queue (``FacadeDelivery/scanReleased``): forgets the
    /// peripherals handed out that the app did not keep, and gives the heap's free pages back to the system
    /// (``Host/HeapRelease``): a scan among many advertisers does not leave its memory resident.
    func releaseStoppedScan() {
        lock.run {
            pruneHandedOut()
        }
        HeapRelease.returnFreePages()
    }

    /// The scan did not start or was ended below the app: `isScanning` becomes false and the delegate's Linux addition `centralManager(_:didFailToScanWithError:)` gets a `CBError.unknown` whose
    /// `userInfo["OCBBackendReason"]` (and `NSLocalizedDescriptionKey`) is `reason`. Nothing when no scan was asked for.
    private func handleScanFailed(_ reason: String) {
        let wasScanning: Bool = lock.run {
            guard storedIsScanning else { return false }
            storedIsScanning = false
            scanParameters = nil
            return true
        }
        guard wasScanning else { return }
        saveRestoration()
        delegate?.centralManager(self, didFailToScanWithError: CBError(.unknown, userInfo: [
            "OCBBackendReason": reason, NSLocalizedDescriptionKey: reason]))
    }

    private func handleState(_ state: CBManagerState, controller: BluetoothAddress?) {
        var dropped: [(CBPeripheral, [PendingOperation])] = []
        let changed: Bool = lock.run {
            if let controller { controllerAddress = controller }
            guard state != storedState || !hasReportedState else { return false }
            storedState = state
            hasReportedState = true
            if state != .poweredOn {
                storedIsScanning = false
                scanParameters = nil
                reported.reset()
                for peripheral in active.values where !(restorePending?.peripherals.contains { $0 === peripheral } ?? false) {
                    dropped.append((peripheral, peripheral.operations))
                    peripheral.operations = []
                    peripheral.invalidateAllAttributes()
                    peripheral.linkMTU = nil
                    peripheral.storedState = .disconnected
                    peripheral.cancelRequested = false
                    active[peripheral.peer] = nil
                }
                handedOut = [:]
                recentlyDiscovered.removeAll()
            }
            return true
        }
        guard changed else { return }
        if !dropped.isEmpty { saveRestoration() }
        for (peripheral, operations) in dropped { peripheral.failAll(operations) }
        if state == .poweredOn { resumeRestored() }
        delegate?.centralManagerDidUpdateState(self)
    }

    /// The host's room for Write Commands changed, or one write went out (`sent`): `peripheralIsReady` when
    /// `canSendWriteWithoutResponse` turns true.
    private func writeWithoutResponseUpdate(_ peer: PeerAddress, canSend: Bool, sent: Bool) {
        guard let peripheral = lock.run({ active[peer] }) else { return }
        let becameReady: Bool = lock.run {
            let was = peripheral.canSendNow
            peripheral.storedCanSend = canSend
            if sent { peripheral.writesWithoutResponseInFlight = max(0, peripheral.writesWithoutResponseInFlight - 1) }
            if peripheral.writesWithoutResponseInFlight == 0 { peripheral.writeDropLogged = false }
            return !was && peripheral.canSendNow
        }
        if becameReady { peripheral.delegate?.peripheralIsReady(toSendWriteWithoutResponse: peripheral) }
    }

    private func handleConnected(_ peer: PeerAddress, mtu: LinkMTU) {
        let peripheral: CBPeripheral? = lock.run {
            guard let peripheral = active[peer], peripheral.storedState == .connecting else { return nil }
            peripheral.storedState = .connected
            peripheral.storedSecurity = LinkSecurity()
            peripheral.linkMTU = mtu
            peripheral.storedCanSend = true
            peripheral.writesWithoutResponseInFlight = 0
            return peripheral
        }
        guard let peripheral else { return }
        delegate?.centralManager(self, didConnect: peripheral)
    }

    /// A connection attempt failed or a connection ended (after an ATT transaction timeout when `attTimedOut`:
    /// `CBError.connectionTimeout` naming it, as iOS reports a lost ATT bearer). A link the controller's loss ended
    /// (`controllerLost`) is never reported as reconnecting: the state change that follows invalidates the peripheral.
    private func handleLinkDown(_ peer: PeerAddress, reason: HCIErrorCode, failedToConnect: Bool, attTimedOut: Bool, controllerLost: Bool) {
        enum Report { case failed(CBError), disconnected((any Error)?, reconnecting: Bool) }
        let outcome: (CBPeripheral, [PendingOperation], Report)? = lock.run {
            guard let peripheral = active[peer] else { return nil }
            let operations = peripheral.operations
            peripheral.operations = []
            peripheral.invalidateAllAttributes()
            peripheral.linkMTU = nil
            let wasConnecting = peripheral.storedState == .connecting
            let report: Report
            if peripheral.cancelRequested {
                report = .disconnected(nil, reconnecting: false)
            } else if failedToConnect || wasConnecting {
                report = .failed(DisconnectReason.connectError(reason))
            } else if attTimedOut {
                report = .disconnected(DisconnectReason.attTimeoutError(reason), reconnecting: peripheral.autoReconnect)
            } else if controllerLost {
                report = .disconnected(DisconnectReason.controllerLostError(reason), reconnecting: false)
            } else {
                report = .disconnected(DisconnectReason.disconnectError(reason), reconnecting: peripheral.autoReconnect)
            }
            if case .disconnected(_, reconnecting: true) = report {
                peripheral.storedState = .connecting
            } else {
                peripheral.storedState = .disconnected
                peripheral.cancelRequested = false
                active[peer] = nil
            }
            return (peripheral, operations, report)
        }
        guard let (peripheral, operations, report) = outcome else { return }
        saveRestoration()
        peripheral.failAll(operations)
        switch report {
        case .failed(let error):
            delegate?.centralManager(self, didFailToConnect: peripheral, error: error)
        case .disconnected(let error, let reconnecting):
            delegate?.centralManager(self, didDisconnectPeripheral: peripheral, timestamp: Date().timeIntervalSinceReferenceDate,
                                     isReconnecting: reconnecting, error: error)
            if reconnecting { backend.connect(peer) }
        }
    }
}
