// Kernel mode scanning: the kernel's discovery when we may ask for it, else our own scan commands on the raw socket.

import OCBHCI

extension KernelHost {
    /// Starts scanning; the reports always come from the raw HCI socket, in full (event type, address type, scan
    /// response, extended reports, RSSI, TX power). Two ways, chosen per scan:
    /// - An active scan asks the kernel for its discovery (management Start Discovery, LE address types, BlueZ
    ///   doc/mgmt-api.txt), as bluetoothd does, so the kernel arbitrates: a scan another client runs makes it answer
    ///   Busy and we receive that scan's reports (``KernelDiscovery/shared``); a scan left behind on the controller is
    ///   disabled first; and a round ends by itself after 10.24 s, so a process that dies leaves no scan behind.
    ///   When a round ends (Discovering 0) while the app still scans, the next is asked for. The kernel picks the scan
    ///   parameters (active, its own interval and window) and enables the controller's duplicate filter, so each
    ///   advertiser is reported about once per round.
    /// - A passive scan, or a process without CAP_NET_ADMIN (Start Discovery answers Permission Denied; one
    ///   diagnostic), sends LE Set (Extended) Scan Parameters and Enable itself (Vol 4 Part E §7.8.10-11, §7.8.64-65)
    ///   in the family the controller supports, switching family once on 0x0C Command Disallowed when the controller
    ///   lists the other family's commands. Such a scan outlives a process killed before it disables it.
    /// A call while scanning restarts the scan with `options`. Completes with nil when scanning,
    /// ``HostError/notPoweredOn(_:)``, ``HostError/managementCommandFailed(_:_:)`` or the command's
    /// ``HostError/commandFailed(_:_:)`` / ``HostError/commandTimeout(_:)``.
    public func startScan(_ options: ScanOptions, completion: @escaping @Sendable (HostError?) -> Void) {
        request {
            guard self.currentState == .poweredOn else { return self.deliver { completion(.notPoweredOn(self.currentState)) } }
            self.startScanOnQueue(options) { error in self.deliver { completion(error) } }
        }
    }

    /// Releases the held advertisements as ``HostEvent/discovered(_:)``, then ends the scan: Stop Discovery for a
    /// discovery of ours, nothing for a shared one, LE Set (Extended) Scan Enable 0 for our own commands; completes
    /// with nil at once when not scanning.
    public func stopScan(completion: @escaping @Sendable (HostError?) -> Void) {
        request {
            guard let session = self.scan else { return self.deliver { completion(nil) } }
            self.releaseHeldAdvertisements()
            self.scan = nil
            _ = self.reassembler.reset()  // no more fragments of unfinished chains come once scanning stops
            self.endScan(session) { error in self.deliver { completion(error) } }
        }
    }

    /// Ends what `session` runs on the controller; `done` gets nil or the command's error (on `queue`).
    func endScan(_ session: ScanSession, _ done: @escaping (HostError?) -> Void) {
        switch session.discovery {
        case .owned?, .restarting?, .starting?:
            managementCommand(.stopDiscovery(index: controllerIndex)) { _ in done(nil) }  // Rejected: the round had ended
        case .shared?:
            done(nil)
        case nil:
            disableScan(session.family, done)
        }
    }

    /// Sends LE Set Scan Enable (§7.8.11) or LE Set Extended Scan Enable (§7.8.65) with Enable 0 in `family`, the one
    /// the scan was enabled in; `done` gets nil or the command's error (on `queue`).
    func disableScan(_ family: CommandFamily, _ done: @escaping (HostError?) -> Void) {
        switch family {
        case .legacy: command(HCILESetScanEnable.self, HCILESetScanEnable(enable: false)) { done($0.error) }
        case .extended: command(HCILESetExtendedScanEnable.self, HCILESetExtendedScanEnable(enable: false)) { done($0.error) }
        }
    }

    private func startScanOnQueue(_ options: ScanOptions, _ done: @escaping (HostError?) -> Void) {
        if let running = scan {
            // A restart: a discovery goes on with the new options; our own scan is disabled first. Either way what the
            // old options held waiting for a scan response is handed over first, as a stop does.
            releaseHeldAdvertisements()
            if running.discovery != nil, options.isActive, management != nil {
                scan?.options = options
                scan?.merger = Self.merger(options)
                return done(nil)
            }
            scan = nil
            return endScan(running) { [self] _ in startScanOnQueue(options, done) }
        }
        if options.isActive, management != nil, !discoveryDenied {
            return startDiscovery(options, done)
        }
        let preferred: CommandFamily = family ?? ((info?.supportedCommands.contains(.leSetExtendedScanEnable) ?? false) ? .extended : .legacy)
        enableScan(options, family: preferred, retry: true, done)
    }

    static func merger(_ options: ScanOptions) -> ScanResultMerger {
        ScanResultMerger(configuration: .init(isActive: options.isActive, responseWait: options.scanResponseWait,
                                              filterDuplicates: options.hostFiltersDuplicates,
                                              coalesces: options.coalescesDiscoveries, serviceFilter: options.services))
    }

    /// Asks for the kernel's discovery; Busy joins another client's, Permission Denied falls back to our own commands.
    /// The session exists from the moment the command is sent: the kernel enables the scan before it answers, and the
    /// first reports (each advertiser once per round, the controller's duplicate filter) reach the raw socket, read
    /// on the same queue, possibly before that answer.
    private func startDiscovery(_ options: ScanOptions, _ done: @escaping (HostError?) -> Void) {
        scan = ScanSession(options: options, merger: Self.merger(options), family: .legacy, discovery: .starting)
        let failed: (HostError) -> Void = { [self] error in
            if scan?.discovery == .starting { scan = nil; _ = reassembler.reset() }
            done(error)
        }
        managementCommand(.startDiscovery(index: controllerIndex)) { [self] result in
            guard scan?.discovery == .starting else { return done(.stopped) }  // stopped or torn down meanwhile
            switch result {
            case .failure(let error):
                failed(error)
            case .success((.success, _)):
                scan?.discovery = .owned
                done(nil)
            case .success((.busy, _)):
                emit(.notice("hci\(controllerIndex): another client's discovery is running (bluetoothd, `bluetoothctl scan on`, "
                                 + "another process): sharing its reports"))
                scan?.discovery = .shared
                done(nil)
            case .success((.permissionDenied, _)):
                scan = nil
                discoveryDenied = true
                emit(.notice("hci\(controllerIndex): no CAP_NET_ADMIN, so the kernel's discovery is not available: scanning with "
                                 + "our own commands, which the kernel does not arbitrate (a killed process leaves the scan on)"))
                startScanOnQueue(options, done)
            case .success((.notPowered, _)):
                failed(.notPoweredOn(.poweredOff))
            case .success((let status, _)):
                failed(.managementCommandFailed(.startDiscovery, status))
            }
        }
    }

    /// A discovery round ended (Discovering 0, any client's): while the app scans on a discovery, ask for the next.
    func discoveryRoundEnded() {
        guard let session = scan, session.discovery == .owned || session.discovery == .shared else { return }
        scan?.discovery = .restarting
        managementCommand(.startDiscovery(index: controllerIndex)) { [self] result in
            guard scan?.discovery == .restarting else { return }  // stopped or restarted meanwhile
            switch result {
            case .success((.success, _)): scan?.discovery = .owned
            case .success((.busy, _)): scan?.discovery = .shared
            case .success((let status, _)): abandonScan(.managementCommandFailed(.startDiscovery, status))
            case .failure(let error): abandonScan(error)
            }
        }
    }

    /// Ends the scan below the app: held advertisements first, then ``HostEvent/scanStopped(_:)``.
    private func abandonScan(_ error: HostError) {
        guard scan != nil else { return }
        releaseHeldAdvertisements()
        scan = nil
        _ = reassembler.reset()
        emit(.scanStopped(error))
    }

    private func enableScan(_ options: ScanOptions, family: CommandFamily, retry: Bool, _ done: @escaping (HostError?) -> Void) {
        let scanType: LEScanType = options.isActive ? .active : .passive
        let started: (HostError?) -> Void = { [self] error in
            // 0x0C after the kernel used the other family (Vol 4 Part E §3.1.1): switch once, never to a family the
            // controller does not list (it would answer 0x01 Unknown HCI Command and hide the real refusal).
            if case .commandFailed(_, .commandDisallowed) = error, retry,
               let other = family.otherScanFamily(supported: info?.supportedCommands ?? SupportedCommands(bytes: [])) {
                return enableScan(options, family: other, retry: false, done)
            }
            if error == nil {
                self.family = family
                scan = ScanSession(options: options, merger: Self.merger(options), family: family)
            }
            done(error)
        }
        switch family {
        case .legacy:
            command(HCILESetScanParameters.self, HCILESetScanParameters(scanType: scanType, interval: options.interval, window: options.window)) { [self] in
                if let error = $0.error { return started(error) }
                command(HCILESetScanEnable.self, HCILESetScanEnable(enable: true, filterDuplicates: options.controllerFiltersDuplicates)) { started($0.error) }
            }
        case .extended:
            let phy = LEExtendedScanPHYParameters(scanType: scanType, interval: options.interval, window: options.window)
            command(HCILESetExtendedScanParameters.self, HCILESetExtendedScanParameters(le1M: phy)) { [self] in
                if let error = $0.error { return started(error) }
                command(HCILESetExtendedScanEnable.self, HCILESetExtendedScanEnable(enable: true, filterDuplicates: options.controllerFiltersDuplicates ? 1 : 0)) { started($0.error) }
            }
        }
    }
}
