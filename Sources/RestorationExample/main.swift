// A central that opts in to state restoration: the first run connects while scanning and exits; a second run with the
// same restore identifier gets willRestoreState, then the state, and is reconnected to the peripheral.
//
// Run twice: OCB_TRANSPORT=tcp:127.0.0.1:PORT OCB_STATE_DIR=/tmp/state RestorationExample first|second
// `first`: scans for Heart Rate (180D) peripherals, connects to "OCB Alpha" while still scanning, prints
// "connected <identifier>" and exits 0 without disconnecting (as an app the system terminates).
// `second`: prints "willRestoreState ..." with the three restore keys, then "state ...", and once the restored
// peripheral is connected again "reconnected <identifier> <device name>" and exits 0. Exit 1 after 20 s.
import CoreBluetooth
import Foundation

final class RestoringCentral: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate {
    let phase: String
    var manager: CBCentralManager!
    var peripherals: [CBPeripheral] = []

    init(phase: String) {
        self.phase = phase
        super.init()
        manager = CBCentralManager(delegate: self, queue: nil,
                                   options: [CBCentralManagerOptionRestoreIdentifierKey: "OCBRestorationExample"])
    }

    func centralManager(_ central: CBCentralManager, willRestoreState dict: [String: Any]) {
        let restored = dict[CBCentralManagerRestoredStatePeripheralsKey] as? [CBPeripheral] ?? []
        let services = dict[CBCentralManagerRestoredStateScanServicesKey] as? [CBUUID] ?? []
        let options = dict[CBCentralManagerRestoredStateScanOptionsKey] as? [String: Any] ?? [:]
        let allowDuplicates = (options[CBCentralManagerScanOptionAllowDuplicatesKey] as? NSNumber)?.boolValue
        print("willRestoreState keys=\(dict.keys.sorted()) peripherals=\(restored.map { "\($0.identifier.uuidString)/\($0.name ?? "-")/\($0.state)" }) "
              + "scanServices=\(services.map(\.uuidString)) allowDuplicates=\(allowDuplicates.map { "\($0)" } ?? "nil")")
        for peripheral in restored {
            peripheral.delegate = self
            peripherals.append(peripheral)
        }
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        print("state \(central.state) isScanning=\(central.isScanning)")
        guard central.state == .poweredOn, phase == "first" else { return }
        central.scanForPeripherals(withServices: [CBUUID(string: "180D")], options: nil)
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard phase == "first", peripheral.name == "OCB Alpha", peripherals.isEmpty else { return }
        peripherals.append(peripheral)
        central.connect(peripheral, options: nil)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        if phase == "first" {
            print("connected \(peripheral.identifier.uuidString)")
            exit(0)
        }
        peripheral.delegate = self
        peripheral.discoverServices([CBUUID(string: "1800")])
    }

    func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: Error?) {
        print("failed to connect: \(error.map { "\($0)" } ?? "nil")")
        exit(1)
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        guard let gap = peripheral.services?.first(where: { $0.uuid == CBUUID(string: "1800") }) else { exit(1) }
        peripheral.discoverCharacteristics([CBUUID(string: "2A00")], for: gap)
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        guard let name = service.characteristics?.first else { exit(1) }
        peripheral.readValue(for: name)
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        let name = String(decoding: characteristic.value ?? Data(), as: UTF8.self)
        print("reconnected \(peripheral.identifier.uuidString) \(name) isScanning=\(manager.isScanning)")
        exit(0)
    }
}

let phase = CommandLine.arguments.dropFirst().first ?? "first"
let central = RestoringCentral(phase: phase)
DispatchQueue.main.asyncAfter(deadline: .now() + 20) {
    print("timed out")
    exit(1)
}
dispatchMain()
