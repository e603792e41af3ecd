// The replay test README.md shows ("Testing against a recording"), kept here so that it builds and passes as printed
// (`swift test` from the package's root, as scripts/test runs it).
import CoreBluetooth
import Foundation
import Testing

/// App code as on iOS: find the band, connect, read its battery level.
final class BatteryReader: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var level: Int?
    private var band: CBPeripheral?

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: nil) }
    }
    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard advertisementData[CBAdvertisementDataLocalNameKey] as? String == "Pokemon GO Plus", band == nil else { return }
        band = peripheral
        central.stopScan()
        central.connect(peripheral)
    }
    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.delegate = self
        peripheral.discoverServices([CBUUID(string: "180F")])
    }
    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        guard let battery = peripheral.services?.first else { done.signal(); return }
        peripheral.discoverCharacteristics([CBUUID(string: "2A19")], for: battery)
    }
    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        guard let level = service.characteristics?.first else { done.signal(); return }
        peripheral.readValue(for: level)
    }
    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        level = characteristic.value?.first.map(Int.init)
        done.signal()
    }
}

@Test func theBandReportsItsBatteryLevel() throws {
    let recording = "Fixtures/captures/wristband-read-blob-acl-fragments-smp.btsnoop"   // a phone's btsnoop
    let app = BatteryReader()
    let central = CBCentralManager(delegate: app, queue: DispatchQueue(label: "app"),
                                   options: [CBCentralManagerOptionTransportKey: "replay-tolerant:" + recording])
    #expect(app.done.wait(timeout: .now() + 5) == .success)
    #expect(app.level == 55)   // percent, as the band answered the phone
    withExtendedLifetime(central) {}
}
