// A central written as Apple's guide "Performing Common Central Role Tasks" writes one: scan, connect, explore, read, subscribe, write.
//
// Run: OCB_TRANSPORT=tcp:127.0.0.1:PORT swift run CentralExample (the virtual peer of Tests/Peer prints the port).
// It looks for the peripheral named "OCB Alpha", prints what it finds and exits 0 after three notifications
// (exit status 1 if that has not happened within 20 seconds).
import CoreBluetooth
import Foundation

final class Central: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate {
    var myCentralManager: CBCentralManager!
    var discoveredPeripheral: CBPeripheral?
    var notifications = 0
    var wrote = false

    override init() {
        super.init()
        // Starting Up a Central Manager: self is the delegate; a nil queue dispatches on the main queue.
        myCentralManager = CBCentralManager(delegate: self, queue: nil, options: nil)
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        print("Central manager state \(central.state)")
        guard central.state == .poweredOn else { return }
        // Discovering Peripheral Devices That Are Advertising.
        myCentralManager.scanForPeripherals(withServices: nil, options: nil)
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        print("Discovered \(peripheral.name ?? "(no name)") RSSI \(RSSI)")
        guard peripheral.name == "OCB Alpha", discoveredPeripheral == nil else { return }
        // Keep a strong reference to the peripheral, stop scanning, connect.
        discoveredPeripheral = peripheral
        myCentralManager.stopScan()
        myCentralManager.connect(peripheral, options: nil)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        print("Peripheral connected")
        peripheral.delegate = self
        // Discovering the Services of a Peripheral That You're Connected To.
        peripheral.discoverServices(nil)
    }

    func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: Error?) {
        print("Failed to connect: \(error?.localizedDescription ?? "no error")")
        exit(1)
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        for service in peripheral.services ?? [] {
            print("Discovered service \(service.uuid)")
            // Discovering the Characteristics of a Service.
            print("Discovering characteristics for service \(service.uuid)")
            peripheral.discoverCharacteristics(nil, for: service)
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        for characteristic in service.characteristics ?? [] {
            print("Discovered characteristic \(characteristic.uuid)")
            if characteristic.uuid == CBUUID(string: "2A00") || characteristic.uuid == CBUUID(string: "2A29") {
                // Reading the Value of a Characteristic.
                print("Reading value for characteristic \(characteristic.uuid)")
                peripheral.readValue(for: characteristic)
            }
            if characteristic.uuid == CBUUID(string: "2A37") {
                // Subscribing to a Characteristic's Value.
                peripheral.setNotifyValue(true, for: characteristic)
            }
            if characteristic.uuid == CBUUID(string: "0CB10004-7E57-4C0D-A9E5-0123456789AB") {
                // Writing the Value of a Characteristic.
                print("Writing value for characteristic \(characteristic.uuid)")
                peripheral.writeValue(Data([0x01, 0x02, 0x03]), for: characteristic, type: .withResponse)
            }
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        if let error {
            print("Error reading \(characteristic.uuid): \(error.localizedDescription)")
            return
        }
        let data = characteristic.value ?? Data()
        if characteristic.uuid == CBUUID(string: "2A37") {
            notifications += 1
            print("Notification \(characteristic.uuid): \(data.map { String(format: "%02X", $0) }.joined(separator: " "))")
        } else {
            print("Value of \(characteristic.uuid): \(String(decoding: data, as: UTF8.self))")
        }
        finishIfDone()
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: Error?) {
        if let error {
            print("Error changing notification state: \(error.localizedDescription)")
            return
        }
        print("Notifying \(characteristic.uuid): \(characteristic.isNotifying)")
    }

    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: Error?) {
        if let error {
            print("Error writing characteristic value: \(error.localizedDescription)")
            return
        }
        print("Wrote value for characteristic \(characteristic.uuid)")
        wrote = true
        finishIfDone()
    }

    func finishIfDone() {
        guard notifications >= 3, wrote else { return }
        print("Done")
        exit(0)
    }
}

let central = Central()
DispatchQueue.main.asyncAfter(deadline: .now() + 20) {
    print("Timed out")
    exit(1)
}
dispatchMain()
