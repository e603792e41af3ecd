// State restoration across two manager instances sharing a state directory.
import OCBCore
@testable import CoreBluetooth
import Foundation
import Testing

@Test func restorationAcrossTwoManagers() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-restore-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let options: [String: Any] = [CBCentralManagerOptionRestoreIdentifierKey: "com.example/app"]
    var identifier: UUID?
    do {
        let first = Harness(options: options, stateDirectory: directory)
        let peripheral = try #require(first.connected())
        identifier = peripheral.identifier
        first.manager.scanForPeripherals(withServices: [CBUUID(string: "180D")],
                                         options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        first.flush()
    }
    let file = directory.appendingPathComponent("com.example_app.json")
    #expect(FileManager.default.fileExists(atPath: file.path), "identifier sanitised into one file name")

    let second = Harness(options: options, stateDirectory: directory)
    #expect(second.recorder.log.prefix(2) == ["willRestore", "state poweredOn"])
    let dict = try #require(second.recorder.restored)
    let peripherals = try #require(dict[CBCentralManagerRestoredStatePeripheralsKey] as? [CBPeripheral])
    #expect(peripherals.map(\.identifier) == [identifier].compactMap { $0 })
    #expect(peripherals.first?.name == "Sensor")
    #expect(dict[CBCentralManagerRestoredStateScanServicesKey] as? [CBUUID] == [CBUUID(string: "180D")])
    let scanOptions = try #require(dict[CBCentralManagerRestoredStateScanOptionsKey] as? [String: Any])
    #expect(scanOptions[CBCentralManagerScanOptionAllowDuplicatesKey] as? Bool == true)
    // Pending connection and scan resumed once powered on.
    #expect(second.backend.calls.contains("connect C0:11:22:33:44:55"))
    #expect(second.backend.calls.contains("startScan services=[180D] dup=true sol=[]"))
    #expect(second.manager.isScanning)
    let restored = try #require(peripherals.first)
    #expect(restored.state == .connecting)
    restored.delegate = second.recorder
    second.backend.mtu = 23; second.emit(.connected(Harness.peer, mtu: second.backend.linkMTU))
    #expect(restored.state == .connected && second.recorder.log.last == "connect")
    #expect(second.manager.retrievePeripherals(withIdentifiers: [restored.identifier]) == [restored])
    // Cancelling and stopping clears the saved state: a third manager restores nothing.
    second.manager.cancelPeripheralConnection(restored)
    second.manager.stopScan()
    second.flush()
    let third = Harness(options: options, stateDirectory: directory)
    #expect((third.recorder.restored?[CBCentralManagerRestoredStatePeripheralsKey] as? [CBPeripheral])?.isEmpty == true)
    #expect(third.recorder.restored?[CBCentralManagerRestoredStateScanServicesKey] == nil)
}

@Test func corruptStateFileIsIgnored() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-corrupt-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data("{\"peripherals\":[{\"identifier\":1}]".utf8).write(to: directory.appendingPathComponent("x.json"))
    let h = Harness(options: [CBCentralManagerOptionRestoreIdentifierKey: "x"], stateDirectory: directory)
    #expect(h.recorder.log == ["state poweredOn"])
}

@Test func stateDirectoryFromEnvironment() {
    #expect(RestorationStore.defaultDirectory(environment: ["OCB_STATE_DIR": "/tmp/s", "HOME": "/h"]).path == "/tmp/s")
    #expect(RestorationStore.defaultDirectory(environment: ["XDG_STATE_HOME": "/x", "HOME": "/h"]).path == "/x/opencorebluetooth")
    #expect(RestorationStore.defaultDirectory(environment: ["HOME": "/h"]).path == "/h/.local/state/opencorebluetooth")
    #expect(RestorationStore(identifier: "../../etc/passwd", directory: URL(fileURLWithPath: "/d")).url.path == "/d/_.._.._etc_passwd.json")
}
