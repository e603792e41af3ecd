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
            if let discovery = prepareDiscovery(report) {
                discoveryDelivered()
                deliver(discovery)
            }
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
            handedOut = handedOut.filter { $0.value.value != nil }
            handedOutPruneAt = max(64, 2 * handedOut.count)
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

    /// One discovery ready for the delegate: decided, coalesced and built where the report arrived (the backend's
    /// queue), so the delegate queue only checks that its scan still runs and calls the delegate.
    struct PreparedDiscovery {
        let peripheral: CBPeripheral
        var advertisementData: [String: Any]
        let rssi: Int
        let renamed: Bool
        /// The scan it belongs to (``scanGeneration``): one stopped or replaced since gets nothing.
        let scan: UInt64
        /// False while ``advertisementData`` is still to be built (``prepareDiscovery(_:)`` builds it outside the lock).
        var isBuilt = true
    }

    /// Decides whether `report` becomes a discovery and builds it (any thread; the manager's lock is taken): the scan's
    /// filters, Apple's coalescing without AllowDuplicates, then the bound on discoveries waiting for the delegate
    /// (``discoveryQueueBound``; a report past it is counted as dropped and, not being recorded as reported, may come
    /// again). Nil when nothing is delivered.
    func prepareDiscovery(_ report: AdvertisementReport) -> PreparedDiscovery? {
        var warn = false
        let prepared: PreparedDiscovery? = lock.run {
            guard storedIsScanning, let parameters = scanParameters, Self.matches(report, parameters) else { return nil }
            // RSSI 127 is "not available" (Core v5.4 Vol 4 Part E §7.7.65.2), and iOS passes it on as 127: a report
            // without one is still a discovery (a kernel or controller that gives none must not hide every device).
            let rssi = report.rssi ?? 127
            let coalesced = !parameters.allowDuplicates && !report.isAnonymous
            if coalesced, !reported.wouldAdmit(report.peer, hasScanResponse: report.hasScanResponse) { return nil }
            let (admitted, overflowStarts) = discoveryBoundLock.withLock { discoveryBound.admit() }
            warn = overflowStarts
            guard admitted else { return nil }
            // An anonymous advertisement (no address) is its own discovery: a new peripheral each time, never
            // coalesced, never stored (two anonymous advertisers must not become one peripheral).
            if report.isAnonymous {
                return PreparedDiscovery(peripheral: CBPeripheral(identifier: UUID(), peer: report.peer, manager: self),
                                         advertisementData: Self.advertisementData(report), rssi: rssi, renamed: false,
                                         scan: scanGeneration)
            }
            if coalesced { _ = reported.admit(report.peer, hasScanResponse: report.hasScanResponse) }
            let peripheral = peripheral(for: report.peer)
            if recentlyDiscovered[report.peer] == nil { recentlyDiscovered.set(report.peer, peripheral) }
            var renamed = false
            if let name = report.localName, name != peripheral.storedName {
                renamed = peripheral.storedName != nil
                peripheral.storedName = name
            }
            // An advertisement like the last one reuses its dictionary; a new one is built after the lock is let go
            // (the delegate queue takes the same lock for each discovery it delivers).
            let reused = peripheral.lastAdvertisement.flatMap { $0.report.hasSameContent(as: report) ? $0.data : nil }
            return PreparedDiscovery(peripheral: peripheral, advertisementData: reused ?? [:], rssi: rssi, renamed: renamed,
                                     scan: scanGeneration, isBuilt: reused != nil)
        }
        if warn { warnDiscoveriesDropped() }
        guard var discovery = prepared, !discovery.isBuilt else { return prepared }
        discovery.advertisementData = Self.advertisementData(report)
        discovery.isBuilt = true
        let data = discovery.advertisementData
        lock.run { discovery.peripheral.lastAdvertisement = (report, data) }
        return discovery
    }

    /// Calls the delegate for a prepared discovery unless its scan stopped since (on the delegate queue).
    func deliver(_ discovery: PreparedDiscovery) {
        // One look under the lock: the scan still runs, and the delegate.
        let current: (any CBCentralManagerDelegate)?? = lock.run {
            storedIsScanning && scanGeneration == discovery.scan ? .some(storedDelegate) : nil
        }
        guard let delegate = current else { return }
        if discovery.renamed { discovery.peripheral.delegate?.peripheralDidUpdateName(discovery.peripheral) }
        delegate?.centralManager(self, didDiscover: discovery.peripheral, advertisementData: discovery.advertisementData,
                                 rssi: Self.rssiNumber(discovery.rssi))
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

    /// The `RSSI` NSNumber of a discovery: one shared object per value from −128 to 127 dBm (what an HCI report can
    /// carry, Core v5.4 Vol 4 Part E §7.7.65.2; 127 is "not available"), made once, so the delegate queue allocates
    /// none per discovery; any other value gets a new one.
    static func rssiNumber(_ rssi: Int) -> NSNumber {
        let index = rssi &+ 128
        return rssiNumbers.indices.contains(index) ? rssiNumbers[index] : NSNumber(value: rssi)
    }
    nonisolated(unsafe) private static let rssiNumbers: [NSNumber] = (-128...127).map { NSNumber(value: $0) }

    /// The NSNumbers of `true` and `false` every advertisementData shares (immutable, so safe on any thread).
    nonisolated(unsafe) private static let trueNumber = NSNumber(value: true)
    nonisolated(unsafe) private static let falseNumber = NSNumber(value: false)

    /// Whether an advertisement passes the scan's service and solicitation filters.
    static func matches(_ report: AdvertisementReport, _ parameters: ScanParameters) -> Bool {
        guard let services = parameters.services, !services.isEmpty else { return true }
        let advertised = report.serviceUUIDs + report.overflowServiceUUIDs
        if advertised.contains(where: services.contains) { return true }
        return report.solicitedServiceUUIDs.contains(where: parameters.solicitedServices.contains)
    }

    /// The advertisementData dictionary with Apple's keys and value types. Built once per new advertisement (with
    /// AllowDuplicates, once per report whose data changed): room for its usual entries is made up front, the
    /// booleans are two shared NSNumbers, and the manufacturer data is written straight into a `Data` of its size.
    static func advertisementData(_ report: AdvertisementReport) -> [String: Any] {
        var data = [String: Any](minimumCapacity: 6)
        data[CBAdvertisementDataIsConnectable] = report.isConnectable ? trueNumber : falseNumber
        if report.isTruncated { data[CBAdvertisementDataIsTruncatedKey] = trueNumber }
        if let name = report.localName { data[CBAdvertisementDataLocalNameKey] = name }
        if let manufacturer = report.manufacturerData {
            // Company Identifier little-endian first, then the manufacturer's bytes, as iOS gives it: written into a
            // Data of the final size (held inline up to 14 bytes), with no intermediate array.
            var bytes = Data(count: 2 + manufacturer.payload.count)
            bytes.withUnsafeMutableBytes { raw in
                raw[0] = UInt8(truncatingIfNeeded: manufacturer.companyID)
                raw[1] = UInt8(truncatingIfNeeded: manufacturer.companyID >> 8)
                manufacturer.payload.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: raw[2...]).copyMemory(from: $0) }
            }
            data[CBAdvertisementDataManufacturerDataKey] = bytes
        }
        if !report.serviceData.isEmpty {
            var serviceData: [CBUUID: Data] = [:]
            for (uuid, bytes) in report.serviceData { serviceData[CBUUID(bluetoothUUID: uuid)] = Data(bytes) }
            data[CBAdvertisementDataServiceDataKey] = serviceData
        }
        if !report.serviceUUIDs.isEmpty { data[CBAdvertisementDataServiceUUIDsKey] = report.serviceUUIDs.map(CBUUID.init(bluetoothUUID:)) }
        if !report.overflowServiceUUIDs.isEmpty {
            data[CBAdvertisementDataOverflowServiceUUIDsKey] = report.overflowServiceUUIDs.map(CBUUID.init(bluetoothUUID:))
        }
        if let power = report.txPowerLevel { data[CBAdvertisementDataTxPowerLevelKey] = NSNumber(value: power) }
        if !report.solicitedServiceUUIDs.isEmpty {
            data[CBAdvertisementDataSolicitedServiceUUIDsKey] = report.solicitedServiceUUIDs.map(CBUUID.init(bluetoothUUID:))
        }
        return data
    }
}
