// Scanning over the host: ScanParameters to ScanOptions, and a host discovery to the facade's AdvertisementReport.
import Foundation
internal import OCBAdvertising
internal import OCBCore
internal import OCBHost

extension HostCentralBackend {
    /// Starts (or restarts) an active scan with ``scanOptions(_:)``'s settings; a failure to start reaches the
    /// facade as ``BackendEvent/scanFailed(reason:)`` with ``scanFailureReason(_:)``'s line. No event when the host
    /// is not powered on (the state change already ended the scan).
    package func startScan(_ parameters: ScanParameters) {
        submit { [self] in
            host.startScan(Self.scanOptions(parameters)) { [weak self] error in
                guard let self, let error, !stopped else { return }
                switch error {
                case .notPoweredOn, .stopped: return  // the state change, or the app's own stop, already ended it
                default: break
                }
                scanFailed("scanning did not start: " + Self.scanFailureReason(error, sharedController: host is KernelHost))
            }
        }
    }

    /// Reports a scan failure to the facade, logging it as a `[CoreBluetooth] WARNING:` line first unless
    /// `CBCentralManagerOptionShowPowerAlertKey` was false (``warnsOnUnavailability``), as the state warnings.
    func scanFailed(_ reason: String) {
        if warnsOnUnavailability { Diagnostics.warning(reason) }
        emit(.scanFailed(reason: reason))
    }

    /// What a scan failure means and what to do, in one line: the host error, with the cause behind the common ones
    /// (0x0C Command Disallowed: on a controller the kernel shares, someone else scans; a timeout: the controller
    /// does not answer).
    static func scanFailureReason(_ error: HostError, sharedController: Bool) -> String {
        switch error {
        case .commandFailed(_, .commandDisallowed) where !sharedController:
            "\(error): the controller refused to scan; try again, or power-cycle the controller"
        case .commandFailed(_, .commandDisallowed):
            "\(error): the controller is already scanning for another client (bluetoothd discovering, `bluetoothctl scan on`, "
                + "another process, or one that died while scanning); stop that scan or power-cycle the controller"
        case .commandTimeout:
            "\(error): the controller did not answer; check that it is powered and attached"
        default:
            "\(error)"
        }
    }

    /// Stops scanning; held advertisements are still delivered first. A failure is only logged, and not at all when
    /// the host is stopped, not powered on or has lost its transport (then no scan is running anyway).
    package func stopScan() {
        submit { [self] in
            host.stopScan { [weak self] error in
                switch error {
                case nil, .stopped?, .notPoweredOn?, .transportClosed?: break  // no scan is left running on the controller
                case let error?: Diagnostics.warning("scan could not stop: \(error)")
                }
                // The scan's state is gone (the host's merger, the facade's coalescing); the facade gives its memory
                // back once the scan's last discoveries are behind it.
                self?.emitUnlessStopped(.scanStopped)
            }
        }
    }

    /// Active scanning (scan responses are merged into what the app sees, Core v5.4 Vol 4 Part E §7.8.10) unless
    /// ``ScanParameters/passive`` (Linux-only `CBCentralManagerScanOptionPassiveKey`), 60 ms
    /// interval and 30 ms window (0.625 ms units), no controller duplicate filter. Unless the app allows duplicates,
    /// the host coalesces as Apple does (once, once more with a completing scan response), and so does the facade.
    /// The service filter goes to the host only when no solicited services are asked for (the host matches
    /// advertised service UUIDs only; the facade applies both filters itself).
    static func scanOptions(_ parameters: ScanParameters) -> ScanOptions {
        let services: Set<BluetoothUUID> = parameters.solicitedServices.isEmpty ? Set(parameters.services ?? []) : []
        var options = ScanOptions(isActive: !parameters.passive, controllerFiltersDuplicates: false,
                                  hostFiltersDuplicates: !parameters.allowDuplicates, services: services)
        options.coalescesDiscoveries = !parameters.allowDuplicates
        return options
    }
}
