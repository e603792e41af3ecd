// Finding a device by address, connecting, disconnecting and the single-value requests of a CentralSession.

import OCBCore
import OCBToolKit
import CoreBluetooth
import Foundation

/// A device found by its address: the peripheral and what its last advertisement said.
struct FoundDevice {
    /// The peripheral object to connect.
    var peripheral: CBPeripheral
    /// The advertisement's RSSI, dBm.
    var rssi: Int
    /// The advertisement dictionary (Apple's keys).
    var advertisement: [String: Any]

    /// False when the advertisement said it is not connectable (`CBAdvertisementDataIsConnectable` false: ADV_NONCONN_IND,
    /// ADV_SCAN_IND or non-connectable extended advertising, Core v5.4 Vol 6 Part B §2.3.1, §2.3.4.9); true when it
    /// said connectable or did not say.
    var isConnectable: Bool {
        (advertisement[CBAdvertisementDataIsConnectable] as? NSNumber)?.boolValue ?? true
    }
}

extension CentralSession {
    /// How long ``find(_:)`` keeps listening after a non-connectable advertisement for a connectable one from the same
    /// address (a device may advertise a beacon set beside a connectable one; the scan allows duplicates, since
    /// CoreBluetooth coalesces a peripheral's discoveries otherwise).
    static let connectableGrace: Duration = .seconds(1)

    /// Scans (active, every device) until `address` advertises; "device not found" after `--timeout` (default 10 s).
    /// When its first advertisement is not connectable, listens up to ``connectableGrace`` more for a connectable
    /// one and returns that, else the non-connectable one.
    func find(_ address: BluetoothAddress) throws(ToolError) -> FoundDevice {
        Self.progress("scanning for \(address)…")
        manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        defer { if manager.isScanning { manager.stopScan() } }
        let timeout = stepTimeout
        let found = { (event: SessionEvent) -> FoundDevice? in
            guard case .discovered(let peripheral, let advertisement, let rssi) = event,
                  peripheral.bluetoothAddress == address || peripheral.identityAddress == address.description else { return nil }
            return FoundDevice(peripheral: peripheral, rssi: rssi, advertisement: advertisement)
        }
        let first = try wait(timeout: timeout, onTimeout: {
            .failure("device not found: \(address) did not advertise within \(Self.seconds(timeout)) "
                     + "(is it on, in range and advertising? `cbtool scan` lists what is)")
        }, found)
        if first.isConnectable { return first }
        let graceEnded = "no connectable advertisement"
        do {
            return try wait(timeout: Self.connectableGrace, onTimeout: { .failure(graceEnded) }) { event in
                found(event).flatMap { $0.isConnectable ? $0 : nil }
            }
        } catch {
            if case .failure(graceEnded) = error { return first }
            throw error
        }
    }

    /// Connects (LE Create Connection through the facade); cancels and fails after `--timeout` (default 10 s).
    func connect(_ peripheral: CBPeripheral) throws(ToolError) {
        let name = Self.name(peripheral)
        Self.progress("connecting to \(name)…")
        peripheral.delegate = delegate
        track(peripheral)
        manager.connect(peripheral, options: nil)
        let timeout = stepTimeout
        _ = try wait(timeout: timeout, onTimeout: {
            manager.cancelPeripheralConnection(peripheral)
            return .failure("timeout: connecting to \(name) took longer than \(Self.seconds(timeout))")
        }) { event throws(ToolError) -> Bool? in
            switch event {
            case .connected(let connected) where connected === peripheral:
                return true
            case .connectFailed(let failed, let error) where failed === peripheral:
                throw .failure("cannot connect to \(name): " + (error.map(ErrorText.describe) ?? "the connection failed"))
            default:
                return nil
            }
        }
    }

    /// Disconnects and waits (up to 3 s) for the link to be down; returns false when it did not go down in time.
    @discardableResult
    func disconnect(_ peripheral: CBPeripheral) -> Bool {
        guard peripheral.state == .connected || peripheral.state == .connecting else { return true }
        manager.cancelPeripheralConnection(peripheral)
        let done = try? wait(timeout: .seconds(3), onTimeout: { .failure("") }) { event -> Bool? in
            if case .disconnected(let gone, _) = event, gone === peripheral { return true }
            return nil
        }
        return done ?? false
    }

    /// Reads the connection's RSSI (HCI Read RSSI), dBm.
    func readRSSI(_ peripheral: CBPeripheral) throws(ToolError) -> Int {
        try request("reading the RSSI of \(Self.name(peripheral))", on: peripheral, start: { peripheral.readRSSI() }) { event in
            guard case .rssi(let value, let error) = event else { return nil }
            return error.map { .failure($0) } ?? .success(value)
        }
    }

    /// Pairs (or encrypts with the bond's key): `CBPeripheral.pair()`.
    func pair(_ peripheral: CBPeripheral) throws(ToolError) {
        try request("pairing with \(Self.name(peripheral))", on: peripheral, start: { peripheral.pair() }) { event -> Result<Void, any Error>? in
            guard case .paired(let answered, let error) = event, answered === peripheral else { return nil }
            return error.map { .failure($0) } ?? .success(())
        }
    }

    /// Reads a characteristic value.
    func read(_ characteristic: CBCharacteristic, on peripheral: CBPeripheral) throws(ToolError) -> [UInt8] {
        try request("reading \(AttributeText.name(characteristic))", on: peripheral,
                    start: { peripheral.readValue(for: characteristic) }) { event in
            guard case .characteristicValue(let answered, let value, let error) = event, answered === characteristic else { return nil }
            return error.map { .failure($0) } ?? .success([UInt8](value ?? Data()))
        }
    }

    /// Reads a descriptor value, as the bytes on air (see ``AttributeText/descriptorBytes(_:uuid:)``).
    func read(_ descriptor: CBDescriptor, on peripheral: CBPeripheral) throws(ToolError) -> [UInt8] {
        try request("reading \(AttributeText.name(descriptor))", on: peripheral,
                    start: { peripheral.readValue(for: descriptor) }) { event in
            guard case .descriptorValue(let answered, let value, let error) = event, answered === descriptor else { return nil }
            return error.map { .failure($0) } ?? .success(AttributeText.descriptorBytes(value, uuid: descriptor.uuid.bluetoothUUID) ?? [])
        }
    }

    /// Writes a characteristic with response (Write Request, or prepared writes when long).
    func write(_ bytes: [UInt8], to characteristic: CBCharacteristic, on peripheral: CBPeripheral) throws(ToolError) {
        try request("writing \(AttributeText.name(characteristic))", on: peripheral,
                    start: { peripheral.writeValue(Data(bytes), for: characteristic, type: .withResponse) }) { event -> Result<Void, any Error>? in
            guard case .characteristicWritten(let answered, let error) = event, answered === characteristic else { return nil }
            return error.map { .failure($0) } ?? .success(())
        }
    }

    /// Writes a descriptor.
    func write(_ bytes: [UInt8], to descriptor: CBDescriptor, on peripheral: CBPeripheral) throws(ToolError) {
        try request("writing \(AttributeText.name(descriptor))", on: peripheral,
                    start: { peripheral.writeValue(Data(bytes), for: descriptor) }) { event -> Result<Void, any Error>? in
            guard case .descriptorWritten(let answered, let error) = event, answered === descriptor else { return nil }
            return error.map { .failure($0) } ?? .success(())
        }
    }

    /// Turns notifications (or indications) on or off and waits for the CCCD write's answer.
    func setNotify(_ enabled: Bool, for characteristic: CBCharacteristic, on peripheral: CBPeripheral) throws(ToolError) {
        let what = (enabled ? "subscribing to " : "unsubscribing from ") + AttributeText.name(characteristic)
        try request(what, on: peripheral, start: { peripheral.setNotifyValue(enabled, for: characteristic) }) { event -> Result<Void, any Error>? in
            guard case .notificationState(let answered, _, let error) = event, answered === characteristic else { return nil }
            return error.map { .failure($0) } ?? .success(())
        }
    }
}
