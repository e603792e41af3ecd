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
                // The scan's state is gone (the host's merger, these parsed reports, the facade's coalescing); the
                // facade gives its memory back once the scan's last discoveries are behind it.
                self?.parsedReports.removeAll()
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

    /// ``report(_:)`` of `device`, reusing the last one parsed for its advertiser when the data, the scan response,
    /// connectability and truncation are the same (only the RSSI is taken anew). An advertiser's entry is one object
    /// changed in place when its data changes (no allocation, no second lookup). Anonymous advertisers are not kept.
    func report(for device: DiscoveredDevice) -> AdvertisementReport {
        let last = parsedReports[device.peer]
        if let last, last.device.advertisingData == device.advertisingData,
           last.device.scanResponseData == device.scanResponseData, last.device.isConnectable == device.isConnectable,
           last.device.isTruncated == device.isTruncated {
            var report = last.report
            report.rssi = device.rssi.map(Int.init)
            return report
        }
        let report = Self.report(device)
        if let last {
            last.device = device
            last.report = report
        } else if device.peer.type != .other(0xFF) {
            parsedReports.set(device.peer, ParsedReport(device, report))
        }
        return report
    }

    /// The facade's view of a discovery: advertising data and scan response read leniently (malformed structures
    /// skipped, Core Supplement v11 Part A) and merged by ``Advertising/MergedAdvertisement``'s rules: lists united in
    /// order, advertising data first; a Complete Local Name before a Shortened one, the scan response's between two
    /// of a kind; service data, manufacturer data and TX power from the advertising data first. Manufacturer data is
    /// the first Manufacturer Specific Data structure (company identifier, then its bytes); TX power is the TX Power
    /// Level AD structure (0x0A), not the extended report's field; RSSI nil when the controller gave 127. Overflow
    /// service UUIDs (Apple's hashed bitmap) cannot be decoded back to UUIDs: always empty.
    ///
    /// Both payloads are read in place (``Advertising/AdvertisingDataView``: one pass for the fields, no array per
    /// structure); a list or map is built only when the data has one. Tests check it against the full parse and
    /// ``Advertising/MergedAdvertisement`` on every captured payload and mutations of each.
    static func report(_ device: DiscoveredDevice) -> AdvertisementReport {
        let advertising = AdvertisingDataView(device.advertisingData)
        let fields = advertising.fields()
        let response = device.scanResponseData.map(AdvertisingDataView.init)
        let answer = response?.fields()
        let localName: String?
        if let response, let answer, let name = answer.localName, answer.isLocalNameComplete || !fields.isLocalNameComplete {
            localName = response.string(name)
        } else {
            localName = fields.localName.map(advertising.string)
        }
        // The first Manufacturer Specific Data's AD Data, Company Identifier first, as iOS gives it: one copy.
        var manufacturer: Data?
        if let range = fields.manufacturerData {
            manufacturer = Self.data(advertising.bytes, range)
        } else if let response, let range = answer?.manufacturerData {
            manufacturer = Self.data(response.bytes, range)
        }
        var serviceUUIDs: [BluetoothUUID] = [], solicited: [BluetoothUUID] = [], serviceData: [BluetoothUUID: [UInt8]] = [:]
        if fields.serviceUUIDCount > 0 || answer?.serviceUUIDCount ?? 0 > 0 {
            serviceUUIDs = Self.united(advertising.serviceUUIDs, response?.serviceUUIDs)
        }
        if fields.solicitedServiceUUIDCount > 0 || answer?.solicitedServiceUUIDCount ?? 0 > 0 {
            solicited = Self.united(advertising.solicitedServiceUUIDs, response?.solicitedServiceUUIDs)
        }
        if fields.serviceDataCount > 0 || answer?.serviceDataCount ?? 0 > 0 {
            serviceData = advertising.serviceData
            if let response { serviceData.merge(response.serviceData) { first, _ in first } }
        }
        return AdvertisementReport(peer: device.peer, rssi: device.rssi.map(Int.init), localName: localName,
                                   manufacturerDataBytes: manufacturer, serviceData: serviceData, serviceUUIDs: serviceUUIDs,
                                   txPowerLevel: (fields.txPowerLevel ?? answer?.txPowerLevel).map(Int.init),
                                   isConnectable: device.isConnectable, solicitedServiceUUIDs: solicited,
                                   hasScanResponse: response != nil, isTruncated: device.isTruncated)
    }

    /// The bytes of `range` (within `bytes`) copied into a `Data` at once (the generic copy from a slice goes element
    /// by element).
    private static func data(_ bytes: [UInt8], _ range: Range<Int>) -> Data {
        bytes.withUnsafeBytes { Data(UnsafeRawBufferPointer(rebasing: $0[range.clamped(to: 0..<$0.count)])) }
    }

    /// `first`, then those of `second` it does not hold, in order.
    private static func united(_ first: [BluetoothUUID], _ second: [BluetoothUUID]?) -> [BluetoothUUID] {
        guard let second, !second.isEmpty else { return first }
        var result = first
        for uuid in second where !result.contains(uuid) { result.append(uuid) }
        return result
    }
}
