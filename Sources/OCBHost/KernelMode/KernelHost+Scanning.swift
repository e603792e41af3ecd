// Kernel mode scanning over the raw HCI socket, in the family the controller accepts.

import OCBHCI

extension KernelHost {
    /// Sends the scan parameters and enable in the family the controller supports (extended: Vol 4 Part E §7.8.64-65,
    /// legacy: §7.8.10-11), switching family once on 0x0C Command Disallowed. Completes with nil when scanning,
    /// ``HostError/notPoweredOn(_:)``, or the command's ``HostError/commandFailed(_:_:)`` /
    /// ``HostError/commandTimeout(_:)``.
    public func startScan(_ options: ScanOptions, completion: @escaping @Sendable (HostError?) -> Void) {
        queue.async {
            guard self.currentState == .poweredOn else { return self.deliver { completion(.notPoweredOn(self.currentState)) } }
            let preferred: CommandFamily = self.family ?? ((self.info?.supportedCommands.contains(.leSetExtendedScanEnable) ?? false) ? .extended : .legacy)
            self.enableScan(options, family: preferred, retry: true) { error in self.deliver { completion(error) } }
        }
    }

    /// Releases the held advertisements as ``HostEvent/discovered(_:)``, then disables scanning; completes with nil
    /// at once when not scanning.
    public func stopScan(completion: @escaping @Sendable (HostError?) -> Void) {
        queue.async {
            guard var session = self.scan else { return self.deliver { completion(nil) } }
            for device in session.merger.flush() { self.emit(.discovered(device)) }
            self.scan = nil
            _ = self.reassembler.reset()  // no more fragments of unfinished chains come once scanning stops
            self.disableScan(session.family) { error in self.deliver { completion(error) } }
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

    private func enableScan(_ options: ScanOptions, family: CommandFamily, retry: Bool, _ done: @escaping (HostError?) -> Void) {
        let scanType: LEScanType = options.isActive ? .active : .passive
        let started: (HostError?) -> Void = { [self] error in
            if case .commandFailed(_, .commandDisallowed) = error, retry {
                return enableScan(options, family: family == .legacy ? .extended : .legacy, retry: false, done)
            }
            if error == nil {
                self.family = family
                scan = ScanSession(options: options, merger: ScanResultMerger(configuration: .init(
                    isActive: options.isActive, responseWait: options.scanResponseWait,
                    filterDuplicates: options.hostFiltersDuplicates, serviceFilter: options.services)), family: family)
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
