// Scanning: legacy or extended commands, advertising reports into the merger, discoveries out.

import OCBCore
import OCBHCI

extension HostController {
    /// Sends the scan parameters and enable: extended (Vol 4 Part E §7.8.64-65) when the controller lists the
    /// extended scan and create commands, else legacy (§7.8.10-11); a running scan is restarted with `options`.
    /// Completes with nil when scanning, ``HostError/notPoweredOn(_:)``, ``HostError/unsupported(_:)`` for an
    /// interval or window outside 0x0004...0x4000 (× 0.625 ms) or a window above the interval, or the command's error.
    public func startScan(_ options: ScanOptions, completion: @escaping @Sendable (HostError?) -> Void) {
        request { self.startScanOnQueue(options) { error in self.deliver { completion(error) } } }
    }

    /// Releases the held advertisements as ``HostEvent/discovered(_:)``, then disables scanning; completes with nil
    /// at once when not scanning.
    public func stopScan(completion: @escaping @Sendable (HostError?) -> Void) {
        request { self.stopScanOnQueue { error in self.deliver { completion(error) } } }
    }

    /// The family to use: the one already used since Reset, else extended when the controller lists the extended
    /// scan and create commands, else legacy.
    func chooseFamily() -> CommandFamily {
        if let commandFamily { return commandFamily }
        guard let info else { return .legacy }
        let extended = info.supportedCommands.contains(.leSetExtendedScanParameters)
            && info.supportedCommands.contains(.leSetExtendedScanEnable)
            && info.supportedCommands.contains(.leExtendedCreateConnection)
        return extended ? .extended : .legacy
    }

    var ownAddressType: LEOwnAddressType { info?.ownAddress.type == .random ? .random : .public }

    private func startScanOnQueue(_ options: ScanOptions, _ done: @escaping (HostError?) -> Void) {
        guard currentState == .poweredOn else { return done(.notPoweredOn(currentState)) }
        guard (0x0004...0x4000).contains(options.interval), (0x0004...0x4000).contains(options.window), options.window <= options.interval else {
            return done(.unsupported("scan interval/window out of range (0x0004...0x4000, window ≤ interval)"))
        }
        let family = chooseFamily()
        commandFamily = family
        let begin: () -> Void = { [self] in
            let merger = ScanResultMerger(configuration: .init(isActive: options.isActive, responseWait: options.scanResponseWait,
                                                               filterDuplicates: options.hostFiltersDuplicates,
                                                               coalesces: options.coalescesDiscoveries, serviceFilter: options.services))
            let scanType: LEScanType = options.isActive ? .active : .passive
            let enabled: (HostError?) -> Void = { [self] error in
                if error == nil {
                    scan = ScanSession(options: options, merger: merger, family: family)
                    rescheduleTimer()
                }
                done(error)
            }
            switch family {
            case .legacy:
                send(HCILESetScanParameters(scanType: scanType, interval: options.interval, window: options.window,
                                            ownAddressType: ownAddressType)) { [self] in
                    if let error = $0.error { return enabled(error) }
                    send(HCILESetScanEnable(enable: true, filterDuplicates: options.controllerFiltersDuplicates)) { enabled($0.error) }
                }
            case .extended:
                let phy = LEExtendedScanPHYParameters(scanType: scanType, interval: options.interval, window: options.window)
                send(HCILESetExtendedScanParameters(ownAddressType: ownAddressType, le1M: phy, leCoded: nil)) { [self] in
                    if let error = $0.error { return enabled(error) }
                    send(HCILESetExtendedScanEnable(enable: true, filterDuplicates: options.controllerFiltersDuplicates ? 1 : 0)) { enabled($0.error) }
                }
            }
        }
        if scan != nil {
            disableScan { error in
                if let error { return done(error) }
                begin()
            }
        } else {
            begin()
        }
    }

    private func stopScanOnQueue(_ done: @escaping (HostError?) -> Void) {
        guard scan != nil else { return done(nil) }
        disableScan(done)
    }

    /// Sends scan disable, releasing held advertisements first. Unfinished extended advertising chains are dropped:
    /// the controller sends no more of them once scanning stops, and a later scan starts new chains (§7.7.65.13).
    private func disableScan(_ done: @escaping (HostError?) -> Void) {
        guard let session = scan else { return done(nil) }
        releaseHeldAdvertisements()
        scan = nil
        _ = reassembler.reset()
        switch session.family {
        case .legacy: send(HCILESetScanEnable(enable: false)) { done($0.error) }
        case .extended: send(HCILESetExtendedScanEnable(enable: false)) { done($0.error) }
        }
    }

    func tickScan(now: ContinuousClock.Instant) {
        guard scan != nil else { return }
        for device in scan?.merger.tick(now: now) ?? [] {
            if !emitDiscovery(device) { scan?.merger.forgetReported(device.peer) }
        }
    }

    /// Feeds one observation to the running scan.
    func observe(_ observation: AdvertisingObservation) {
        var observation = observation
        if observation.peer.type == .random, let known = knownPeer(forPrivate: observation.peer) { observation.peer = known }
        // Joins the read's discoveries (``ScanSession/found``), handed over with them at the read's end.
        // At the read's time, as the reports read in place beside it (``SerialHost/readStamp``).
        observe(collected: scan?.collect(observation, at: scanStamp))
    }

    /// The controller ended the scan on its own (LE Scan Timeout, §7.7.65.17).
    func scanEndedByController() {
        guard scan != nil else { return }
        releaseHeldAdvertisements()
        scan = nil
        _ = reassembler.reset()
        emit(.scanStopped(.unsupported("controller ended the scan (LE Scan Timeout)")))
    }
}
