// How a central manager saves its peripherals and scan, and restores them in a new process.
internal import OCBCore
import Foundation

extension CBCentralManager {
    /// Rebuilds peripherals and scan from a saved record and queues `willRestoreState` (called from init, before
    /// the backend starts, so it precedes the first state update).
    func restore(_ record: RestorationRecord) {
        let (peripherals, scan): ([CBPeripheral], ScanParameters?) = lock.run {
            let peripherals = record.peripherals.compactMap { saved -> CBPeripheral? in
                let peer = PeerAddress(address: saved.address, type: AddressType(rawValue: saved.addressType))
                let peripheral = CBPeripheral(identifier: saved.identifier, peer: peer, manager: self)
                peripheral.storedName = saved.name
                peripheral.storedState = .connecting
                active[peer] = peripheral
                handedOut[peer] = HandedOutPeripheral(value: peripheral)
                knownPeers.set(saved.identifier, peer)
                return peripheral
            }
            let scan = record.isScanning ? ScanParameters(services: record.scanServices, allowDuplicates: record.allowDuplicates ?? false,
                                                          solicitedServices: record.solicitedServices ?? []) : nil
            restorePending = (peripherals, scan)
            return (peripherals, scan)
        }
        var dict: [String: Any] = [CBCentralManagerRestoredStatePeripheralsKey: peripherals]
        if let scan {
            if let services = scan.services { dict[CBCentralManagerRestoredStateScanServicesKey] = services.map(CBUUID.init(bluetoothUUID:)) }
            var options: [String: Any] = [CBCentralManagerScanOptionAllowDuplicatesKey: NSNumber(value: scan.allowDuplicates)]
            if !scan.solicitedServices.isEmpty {
                options[CBCentralManagerScanOptionSolicitedServiceUUIDsKey] = scan.solicitedServices.map(CBUUID.init(bluetoothUUID:))
            }
            dict[CBCentralManagerRestoredStateScanOptionsKey] = options
        }
        let box = UncheckedBox(dict)
        queue.async { self.delegate?.centralManager(self, willRestoreState: box.value) }
    }

    /// At the first `.poweredOn` after a restore: connects to the restored peripherals and resumes the scan.
    func resumeRestored() {
        let pending: (peripherals: [CBPeripheral], scan: ScanParameters?)? = lock.run {
            let pending = restorePending
            restorePending = nil
            if let scan = pending?.scan {
                storedIsScanning = true
                scanParameters = scan
            }
            return pending
        }
        guard let pending else { return }
        for peripheral in pending.peripherals where peripheral.state == .connecting { backend.connect(peripheral.peer) }
        if let scan = pending.scan { backend.startScan(scan) }
    }

    /// Writes the restoration file, if the app opted in.
    func saveRestoration() {
        guard let restoration else { return }
        let record: RestorationRecord = lock.run {
            var record = RestorationRecord()
            record.peripherals = active.values
                .filter { ($0.storedState == .connecting || $0.storedState == .connected) && !$0.cancelRequested }
                .sorted { $0.identifier.uuidString < $1.identifier.uuidString }
                .map { .init(identifier: $0.identifier, address: $0.peer.address, addressType: $0.peer.type.rawValue, name: $0.storedName) }
            let scan = scanParameters ?? restorePending?.scan
            record.isScanning = (storedIsScanning || restorePending?.scan != nil) && scan != nil
            record.scanServices = scan?.services
            record.allowDuplicates = scan?.allowDuplicates
            record.solicitedServices = scan?.solicitedServices
            return record
        }
        restoration.save(record)
    }
}

/// Carries a non-Sendable value (a `[String: Any]` of immutable Foundation objects) to the delegate queue.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
