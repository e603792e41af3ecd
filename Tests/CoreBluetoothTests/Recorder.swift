// A delegate for both roles that logs every callback as text and checks the queue it runs on.
@testable import CoreBluetooth
import Foundation

/// Logs callbacks; `offQueue` counts callbacks that did not run on the expected queue.
final class Recorder: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    private var wrongQueue = 0
    private let key: DispatchSpecificKey<String>
    private let expected: String
    var discovered: [(CBPeripheral, [String: Any], NSNumber)] = []
    var restored: [String: Any]?
    var errors: [any Error] = []
    /// Called on didConnect (e.g. to set the peripheral delegate as apps do).
    var onConnect: ((CBPeripheral) -> Void)?

    init(queue: DispatchQueue, label: String) {
        key = DispatchSpecificKey<String>()
        expected = label
        queue.setSpecific(key: key, value: label)
    }

    var log: [String] { lock.withLock { entries } }
    var offQueue: Int { lock.withLock { wrongQueue } }

    private func add(_ text: String, error: (any Error)? = nil) {
        let onQueue = DispatchQueue.getSpecific(key: key) == expected
        lock.withLock {
            if !onQueue { wrongQueue += 1 }
            entries.append(error.map { text + " error=\(Recorder.describe($0))" } ?? text)
            if let error { errors.append(error) }
        }
    }

    static func describe(_ error: any Error) -> String {
        let ns = error as NSError
        return "\(ns.domain == CBErrorDomain ? "CB" : ns.domain == CBATTErrorDomain ? "ATT" : ns.domain).\(ns.code)"
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) { add("state \(central.state)") }
    func centralManager(_ central: CBCentralManager, willRestoreState dict: [String: Any]) {
        lock.withLock { restored = dict }
        add("willRestore")
    }
    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
        lock.withLock { discovered.append((peripheral, advertisementData, RSSI)) }
        add("discover \(peripheral.name ?? "nil") \(RSSI)")
    }
    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        onConnect?(peripheral)
        add("connect")
    }
    func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?) {
        add("failToConnect", error: error)
    }
    func centralManager(_ central: CBCentralManager, didFailToScanWithError error: any Error) {
        add("failToScan \((error as? CBError)?.userInfo["OCBBackendReason"] as? String ?? "")", error: error)
    }
    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral,
                        timestamp: CFAbsoluteTime, isReconnecting: Bool, error: (any Error)?) {
        add(isReconnecting ? "disconnect reconnecting" : "disconnect", error: error)
    }
    func centralManager(_ central: CBCentralManager, didRetrievePeripherals peripherals: [CBPeripheral]) {
        add("retrieved \(peripherals.count)")
    }
    func centralManager(_ central: CBCentralManager, didRetrieveConnectedPeripherals peripherals: [CBPeripheral]) {
        add("retrievedConnected \(peripherals.count)")
    }

    func peripheralDidUpdateName(_ peripheral: CBPeripheral) { add("name \(peripheral.name ?? "nil")") }
    func peripheral(_ peripheral: CBPeripheral, didModifyServices invalidatedServices: [CBService]) {
        add("modified \(invalidatedServices.map(\.uuid.uuidString))")
    }
    func peripheral(_ peripheral: CBPeripheral, didReadRSSI RSSI: NSNumber, error: (any Error)?) { add("rssi \(RSSI)", error: error) }
    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {
        add("services \((peripheral.services ?? []).map(\.uuid.uuidString))", error: error)
    }
    func peripheral(_ peripheral: CBPeripheral, didDiscoverIncludedServicesFor service: CBService, error: (any Error)?) {
        add("included \(service.uuid.uuidString) \((service.includedServices ?? []).map(\.uuid.uuidString))", error: error)
    }
    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?) {
        add("characteristics \(service.uuid.uuidString) \((service.characteristics ?? []).map(\.uuid.uuidString))", error: error)
    }
    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        add("value \(characteristic.uuid.uuidString) \(characteristic.value.map { [UInt8]($0) }.map { "\($0)" } ?? "nil")", error: error)
    }
    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        add("wrote \(characteristic.uuid.uuidString)", error: error)
    }
    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: (any Error)?) {
        add("notifying \(characteristic.uuid.uuidString) \(characteristic.isNotifying)", error: error)
    }
    func peripheral(_ peripheral: CBPeripheral, didDiscoverDescriptorsFor characteristic: CBCharacteristic, error: (any Error)?) {
        add("descriptors \(characteristic.uuid.uuidString) \((characteristic.descriptors ?? []).map(\.uuid.uuidString))", error: error)
    }
    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor descriptor: CBDescriptor, error: (any Error)?) {
        add("descriptorValue \(descriptor.uuid.uuidString) \(descriptor.value.map { "\($0)" } ?? "nil")", error: error)
    }
    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor descriptor: CBDescriptor, error: (any Error)?) {
        add("wroteDescriptor \(descriptor.uuid.uuidString)", error: error)
    }
    func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral) { add("ready") }
    func peripheral(_ peripheral: CBPeripheral, didOpen channel: CBL2CAPChannel?, error: (any Error)?) {
        add("l2cap \(channel.map { "psm \($0.psm)" } ?? "nil")", error: error)
    }
    /// Deprecated since iOS 8 and never called here: logged so a test can see it stays silent.
    func peripheralDidUpdateRSSI(_ peripheral: CBPeripheral, error: (any Error)?) { add("didUpdateRSSI", error: error) }
}
