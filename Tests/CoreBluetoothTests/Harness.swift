// Builds a manager over a FakeBackend with its own queue, recorder and temporary state directory.
import OCBCore
import OCBGATT
@testable import CoreBluetooth
import Foundation

/// One manager under test.
final class Harness: @unchecked Sendable {
    let queue: DispatchQueue
    let recorder: Recorder
    let backend: FakeBackend
    let manager: CBCentralManager
    let stateDirectory: URL
    static let peer = PeerAddress(address: BluetoothAddress("C0:11:22:33:44:55")!, type: .random)

    init(initialState: CBManagerState = .poweredOn, options: [String: Any]? = nil, stateDirectory: URL? = nil) {
        let label = "test.\(UUID().uuidString)"
        queue = DispatchQueue(label: label)
        recorder = Recorder(queue: queue, label: label)
        backend = FakeBackend(initialState: initialState)
        self.stateDirectory = stateDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("ocb-\(UUID().uuidString)")
        manager = CBCentralManager(delegate: recorder, queue: queue, options: options, backend: backend, stateDirectory: self.stateDirectory)
        flush()
    }

    /// Waits until the delegate queue has run everything queued so far (and what that queued).
    /// Waits until every event handed to the manager reached the delegate (turns of 256 reschedule themselves).
    func flush() {
        for _ in 0..<4 { queue.sync {} }
        var turns = 0
        while manager.lock.run({ manager.delivery?.isIdle == false }), turns < 10_000 {
            queue.sync {}
            turns += 1
        }
    }

    func emit(_ event: BackendEvent) {
        backend.emit(event)
        flush()
    }

    /// Answers the most recent request.
    /// Answers the request whose recorded call starts with `call`.
    func respond(to call: String, _ response: BackendResponse) {
        emit(.response(Self.peer, backend.request(call), response))
    }

    func respond(_ response: BackendResponse) {
        emit(.response(Self.peer, backend.lastRequest, response))
    }

    /// Scans, discovers the test peer and returns its peripheral.
    func discover(name: String? = "Sensor") -> CBPeripheral? {
        manager.scanForPeripherals(withServices: nil, options: nil)
        flush()
        emit(.advertisement(AdvertisementReport(peer: Self.peer, rssi: -60, localName: name, isConnectable: true)))
        return recorder.discovered.last?.0
    }

    /// Discovers and connects the test peer, setting the recorder as its delegate on didConnect.
    func connected(options: [String: Any]? = nil) -> CBPeripheral? {
        guard let peripheral = discover() else { return nil }
        peripheral.delegate = recorder
        manager.connect(peripheral, options: options)
        flush()
        backend.mtu = 185; emit(.connected(Self.peer, mtu: backend.linkMTU))
        return peripheral
    }

    /// The test database: 0x180D (1...8) with 0x2A37 notify (2/3, CCCD 4), 0x2A38 read (5/6), 0x2A39 write+wwr (7/8);
    /// 0x180F (9...11) with 0x2A19 read+indicate (10/11).
    static let heartRate = GATTService(uuid: BluetoothUUID(0x180D), isPrimary: true, startHandle: 1, endHandle: 8)
    static let battery = GATTService(uuid: BluetoothUUID(0x180F), isPrimary: true, startHandle: 9, endHandle: 11)
    static let heartRateCharacteristics = [
        GATTCharacteristic(declarationHandle: 2, valueHandle: 3, endHandle: 4, properties: GATTCharacteristicProperties(rawValue: 0x10), uuid: BluetoothUUID(0x2A37)),
        GATTCharacteristic(declarationHandle: 5, valueHandle: 6, endHandle: 6, properties: GATTCharacteristicProperties(rawValue: 0x02), uuid: BluetoothUUID(0x2A38)),
        GATTCharacteristic(declarationHandle: 7, valueHandle: 8, endHandle: 8, properties: GATTCharacteristicProperties(rawValue: 0x0C), uuid: BluetoothUUID(0x2A39)),
    ]
    static let batteryCharacteristics = [
        GATTCharacteristic(declarationHandle: 10, valueHandle: 11, endHandle: 11, properties: GATTCharacteristicProperties(rawValue: 0x22), uuid: BluetoothUUID(0x2A19)),
    ]

    /// Connects and discovers both services and their characteristics; returns the peripheral and the characteristics by UUID.
    func explored() -> (CBPeripheral, [String: CBCharacteristic])? {
        guard let peripheral = connected() else { return nil }
        peripheral.discoverServices(nil)
        flush()
        respond(.services([Self.heartRate, Self.battery]))
        guard let services = peripheral.services, services.count == 2 else { return nil }
        peripheral.discoverCharacteristics(nil, for: services[0])
        flush()
        respond(.characteristics(Self.heartRateCharacteristics))
        peripheral.discoverCharacteristics(nil, for: services[1])
        flush()
        respond(.characteristics(Self.batteryCharacteristics))
        var byUUID: [String: CBCharacteristic] = [:]
        for service in services { for c in service.characteristics ?? [] { byUUID[c.uuid.uuidString] = c } }
        return (peripheral, byUUID)
    }
}
