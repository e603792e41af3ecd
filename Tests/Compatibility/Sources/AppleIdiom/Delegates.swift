// CentralDelegate: one NSObject implementing every CBCentralManagerDelegate and CBPeripheralDelegate method.
import CoreBluetooth

final class CentralDelegate: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate {
    private(set) var log: [String] = []
    private(set) var peripherals: [UUID: CBPeripheral] = [:]
    private(set) var lastError: (any Error)?

    func record(_ line: String) {
        log.append(line)
    }

    func note(_ error: (any Error)?, _ context: String) {
        guard let error else { return }
        lastError = error
        if let cbError = error as? CBError {
            record("\(context): \(describeCBErrorCode(cbError.code))")
        } else if let attError = error as? CBATTError {
            record("\(context): ATT \(describeATTErrorCode(attError.code))")
        } else {
            record("\(context): \(error.localizedDescription)")
        }
    }

    // MARK: - CBCentralManagerDelegate

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        record("state \(describeManagerState(central.state)), \(describeAuthorization(CBManager.authorization))")
        guard central.state == .poweredOn else { return }
        central.scanForPeripherals(
            withServices: [KnownUUIDs.heartRateService],
            options: CentralOptions.scan(solicitedServices: [])
        )
    }

    func centralManager(_ central: CBCentralManager, willRestoreState dict: [String: Any]) {
        let restored = RestoredCentralState(dict)
        for peripheral in restored.peripherals {
            peripherals[peripheral.identifier] = peripheral
            peripheral.delegate = self
        }
        if let services = restored.scanServices {
            central.scanForPeripherals(withServices: services, options: restored.scanOptions)
        }
    }

    func centralManager(
        _ central: CBCentralManager,
        didDiscover peripheral: CBPeripheral,
        advertisementData: [String: Any],
        rssi RSSI: NSNumber
    ) {
        let advertisement = Advertisement(advertisementData)
        record("discovered \(advertisement.localName ?? peripheral.name ?? "?") at \(RSSI.intValue) dBm")
        peripherals[peripheral.identifier] = peripheral
        if advertisement.isConnectable {
            central.stopScan()
            central.connect(peripheral, options: CentralOptions.connect(startDelay: 0))
        }
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.delegate = self
        peripheral.discoverServices([KnownUUIDs.heartRateService, KnownUUIDs.batteryService])
    }

    func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?) {
        note(error, "connect \(peripheral.identifier)")
    }

    func centralManager(
        _ central: CBCentralManager,
        didDisconnectPeripheral peripheral: CBPeripheral,
        error: (any Error)?
    ) {
        note(error, "disconnect")
        peripherals[peripheral.identifier] = nil
    }

    func centralManager(
        _ central: CBCentralManager,
        didDisconnectPeripheral peripheral: CBPeripheral,
        timestamp: CFAbsoluteTime,
        isReconnecting: Bool,
        error: (any Error)?
    ) {
        let age: CFAbsoluteTime = CFAbsoluteTimeGetCurrent() - timestamp
        let when = Date(timeIntervalSinceReferenceDate: timestamp)
        record("disconnected at \(when), \(age) s ago, reconnecting=\(isReconnecting)")
        note(error, "disconnect")
        if !isReconnecting {
            peripherals[peripheral.identifier] = nil
        }
    }

    func centralManager(
        _ central: CBCentralManager,
        connectionEventDidOccur event: CBConnectionEvent,
        for peripheral: CBPeripheral
    ) {
        record("\(describeConnectionEvent(event)) \(peripheral.identifier)")
        if event == .peerConnected {
            central.connect(peripheral)
        }
    }

    func centralManager(_ central: CBCentralManager, didUpdateANCSAuthorizationFor peripheral: CBPeripheral) {
        record("ANCS authorized=\(peripheral.ancsAuthorized)")
    }

    // MARK: - CBPeripheralDelegate

    func peripheralDidUpdateName(_ peripheral: CBPeripheral) {
        record("name \(peripheral.name ?? "")")
    }

    func peripheral(_ peripheral: CBPeripheral, didModifyServices invalidatedServices: [CBService]) {
        peripheral.discoverServices(invalidatedServices.map { $0.uuid })
    }

    func peripheral(_ peripheral: CBPeripheral, didReadRSSI RSSI: NSNumber, error: (any Error)?) {
        note(error, "RSSI")
        record("RSSI \(RSSI.intValue)")
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {
        note(error, "services")
        for service in peripheral.services ?? [] {
            peripheral.discoverIncludedServices(nil, for: service)
            peripheral.discoverCharacteristics(nil, for: service)
        }
    }

    func peripheral(
        _ peripheral: CBPeripheral,
        didDiscoverIncludedServicesFor service: CBService,
        error: (any Error)?
    ) {
        note(error, "included services")
        for included in service.includedServices ?? [] {
            peripheral.discoverCharacteristics(nil, for: included)
        }
    }

    func peripheral(
        _ peripheral: CBPeripheral,
        didDiscoverCharacteristicsFor service: CBService,
        error: (any Error)?
    ) {
        note(error, "characteristics")
        for characteristic in service.characteristics ?? [] {
            exerciseCharacteristicIO(peripheral, characteristic)
        }
    }

    func peripheral(
        _ peripheral: CBPeripheral,
        didUpdateValueFor characteristic: CBCharacteristic,
        error: (any Error)?
    ) {
        note(error, "value")
        if publishedPSM(in: characteristic) != nil {
            openChannel(on: peripheral, characteristic: characteristic)
        } else {
            inspectCharacteristic(characteristic).forEach(record)
        }
    }

    func peripheral(
        _ peripheral: CBPeripheral,
        didWriteValueFor characteristic: CBCharacteristic,
        error: (any Error)?
    ) {
        note(error, "write \(characteristic.uuid.uuidString)")
    }

    func peripheral(
        _ peripheral: CBPeripheral,
        didUpdateNotificationStateFor characteristic: CBCharacteristic,
        error: (any Error)?
    ) {
        note(error, "notification state")
        record("notifying=\(characteristic.isNotifying)")
    }

    func peripheral(
        _ peripheral: CBPeripheral,
        didDiscoverDescriptorsFor characteristic: CBCharacteristic,
        error: (any Error)?
    ) {
        note(error, "descriptors")
        for descriptor in characteristic.descriptors ?? [] {
            peripheral.readValue(for: descriptor)
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor descriptor: CBDescriptor, error: (any Error)?) {
        note(error, "descriptor value")
        record(inspectDescriptor(descriptor))
    }

    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor descriptor: CBDescriptor, error: (any Error)?) {
        note(error, "descriptor write")
    }

    func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral) {
        record("ready to write without response: \(peripheral.canSendWriteWithoutResponse)")
    }

    func peripheral(_ peripheral: CBPeripheral, didOpen channel: CBL2CAPChannel?, error: (any Error)?) {
        note(error, "L2CAP")
        if let channel {
            record(inspectChannel(channel))
        }
    }
}
