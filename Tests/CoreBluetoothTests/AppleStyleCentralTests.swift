// A central written as the guide "Performing Common Central Role Tasks" writes one, with only `import CoreBluetooth`.
import OCBATT
import OCBHCI
import CoreBluetooth
import Foundation
import Testing

/// The guide's central (seed 003), in Swift as an iOS app would write it: it must compile unchanged.
final class GuideCentral: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate {
    var myCentralManager: CBCentralManager!
    var discoveredPeripheral: CBPeripheral?
    var lines: [String] = []
    let interestingService = CBUUID(string: "180D")
    let dataToWrite = Data([0x01])

    func start(queue: DispatchQueue, backend: any CentralBackend, directory: URL) {
        // iOS: CBCentralManager(delegate: self, queue: nil, options: nil) on the main queue, which is also the delegate
        // queue, so no callback can run before the property is set; here made on `queue` for the same reason.
        // The backend init is the test seam.
        queue.sync {
            myCentralManager = CBCentralManager(delegate: self, queue: queue, options: nil, backend: backend, stateDirectory: directory)
        }
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        switch central.state {
        case .poweredOn:
            lines.append("powered on")
            myCentralManager.scanForPeripherals(withServices: nil, options: nil)
        case .poweredOff, .resetting, .unauthorized, .unknown, .unsupported:
            lines.append("not ready")
        @unknown default:
            break
        }
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        let name = advertisementData[CBAdvertisementDataLocalNameKey] as? String
        let connectable = (advertisementData[CBAdvertisementDataIsConnectable] as? NSNumber)?.boolValue ?? false
        lines.append("Discovered \(peripheral.name ?? "?") \(name ?? "?") \(RSSI.intValue) \(connectable)")
        discoveredPeripheral = peripheral
        myCentralManager.stopScan()
        myCentralManager.connect(peripheral, options: nil)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        lines.append("Peripheral connected")
        peripheral.delegate = self
        peripheral.discoverServices(nil)
    }

    func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: Error?) {
        lines.append("fail \(error?.localizedDescription ?? "")")
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        for service in peripheral.services ?? [] where service.uuid == interestingService {
            lines.append("Discovered service \(service.uuid.uuidString)")
            peripheral.discoverCharacteristics(nil, for: service)
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        for characteristic in service.characteristics ?? [] {
            lines.append("Discovered characteristic \(characteristic.uuid.uuidString)")
            if characteristic.properties.contains(.read) { peripheral.readValue(for: characteristic) }
            if characteristic.properties.contains(.notify) || characteristic.properties.contains(.indicate) {
                peripheral.setNotifyValue(true, for: characteristic)
            }
            if characteristic.properties.contains(.write) {
                peripheral.writeValue(dataToWrite, for: characteristic, type: .withResponse)
            }
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        let data = characteristic.value ?? Data()
        lines.append("Value \(characteristic.uuid.uuidString) \(data.map { String($0) }.joined(separator: ","))")
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: Error?) {
        if let error {
            lines.append("Error changing notification state: \(error.localizedDescription)")
        } else {
            lines.append("Notifying \(characteristic.isNotifying)")
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: Error?) {
        if let error {
            lines.append("Error writing characteristic value: \(error.localizedDescription)")
        } else {
            lines.append("Wrote \(characteristic.uuid.uuidString)")
        }
    }
}

@Test func guideCentralRunsAgainstTheFakeBackend() {
    let queue = DispatchQueue(label: "guide")
    let backend = FakeBackend()
    let central = GuideCentral()
    central.start(queue: queue, backend: backend, directory: FileManager.default.temporaryDirectory)
    func step(_ event: BackendEvent) {
        backend.emit(event)
        for _ in 0..<4 { queue.sync {} }
    }
    for _ in 0..<4 { queue.sync {} }
    step(.advertisement(AdvertisementReport(peer: Harness.peer, rssi: -58, localName: "HRM", isConnectable: true)))
    step(.connected(Harness.peer, mtu: backend.linkMTU))
    step(.response(Harness.peer, backend.lastRequest, .services([Harness.heartRate, Harness.battery])))
    step(.response(Harness.peer, backend.lastRequest, .characteristics(Harness.heartRateCharacteristics)))
    // The guide asks setNotify(2A37), read(2A38), write(2A39) at once; the link answers them in that order.
    step(.response(Harness.peer, backend.request("cccd"), .failure(.att(ATTError(rawValue: 0x03)))))
    step(.response(Harness.peer, backend.request("read 6"), .value([0x02])))
    step(.response(Harness.peer, backend.request("write 8"), .written))
    step(.valueNotified(Harness.peer, handle: 3, value: [0x00, 0x48], isIndication: false))
    #expect(central.lines == [
        "powered on", "Discovered HRM HRM -58 true", "Peripheral connected", "Discovered service 180D",
        "Discovered characteristic 2A37", "Discovered characteristic 2A38", "Discovered characteristic 2A39",
        "Error changing notification state: Writing is not permitted.", "Value 2A38 2", "Wrote 2A39", "Value 2A37 0,72",
    ])
    #expect(backend.calls.contains("stopScan") && backend.calls.contains("write 8 01 req"))
}

@Test func descriptionNamesSIGUUIDsThroughTheLookupHook() {
    // By default the SIG assigned-numbers table names 16-bit UUIDs (Assigned Numbers §3.4 services, §3.8 characteristics).
    #expect(CBUUID(string: "180D").description == "Heart Rate")
    #expect(CBUUID(string: "0000180D-0000-1000-8000-00805F9B34FB").description == "Heart Rate")
    #expect(CBUUID(string: "2A37").description == "Heart Rate Measurement")
    #expect(CBUUID(string: CBUUIDClientCharacteristicConfigurationString).description == "Client Characteristic Configuration")
    #expect(CBUUID(string: "0CB10001-7E57-4C0D-A9E5-0123456789AB").description == "0CB10001-7E57-4C0D-A9E5-0123456789AB")
    let previous = CBUUID.nameLookup
    defer { CBUUID.nameLookup = previous }
    CBUUID.nameLookup = { $0 == CBUUID(string: "180D").bluetoothUUID ? "Pulse" : nil }
    #expect(CBUUID(string: "180D").description == "Pulse")
    #expect(CBUUID(string: "2A37").description == "2A37")
}
