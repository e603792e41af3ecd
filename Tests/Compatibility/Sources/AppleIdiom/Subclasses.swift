// Test-double subclasses of CBCentralManager, CBPeripheral, CBService, CBCharacteristic, CBDescriptor and CBUUID.
import CoreBluetooth

/// A central manager double that records requests instead of using the radio.
final class MockCentralManager: CBCentralManager {
    private(set) var scannedServices: [[CBUUID]?] = []
    private(set) var connectRequests: [UUID] = []
    private var scanning = false

    // The designated initialiser; overriding it keeps `init()` and `init(delegate:queue:)` inherited.
    override init(delegate: (any CBCentralManagerDelegate)?, queue: DispatchQueue?, options: [String: Any]? = nil) {
        super.init(delegate: delegate, queue: queue, options: options)
    }

    override var state: CBManagerState { .poweredOn }

    override var isScanning: Bool { scanning }

    override func scanForPeripherals(withServices serviceUUIDs: [CBUUID]?, options: [String: Any]? = nil) {
        scannedServices.append(serviceUUIDs)
        scanning = true
    }

    override func stopScan() {
        scanning = false
    }

    override func connect(_ peripheral: CBPeripheral, options: [String: Any]? = nil) {
        connectRequests.append(peripheral.identifier)
    }

    override func cancelPeripheralConnection(_ peripheral: CBPeripheral) {
        connectRequests.removeAll { $0 == peripheral.identifier }
    }

    override func retrievePeripherals(withIdentifiers identifiers: [UUID]) -> [CBPeripheral] {
        []
    }

    override func retrieveConnectedPeripherals(withServices serviceUUIDs: [CBUUID]) -> [CBPeripheral] {
        []
    }
}

// Apple's CBPeripheral, CBService, CBCharacteristic and CBDescriptor have no public initialiser (the system
// creates them), so these doubles declare none and override computed members only.

final class MockPeripheral: CBPeripheral {
    override var name: String? { "Mock Heart Rate Monitor" }
    override var identifier: UUID { UUID(uuidString: "8E2D7E0A-4C4F-4B55-9D0B-6A3C7F1E2B10")! }
    override var state: CBPeripheralState { .connected }
    override var services: [CBService]? { nil }
    override var canSendWriteWithoutResponse: Bool { true }
    override var ancsAuthorized: Bool { false }

    override func discoverServices(_ serviceUUIDs: [CBUUID]?) {}

    override func readRSSI() {}

    override func maximumWriteValueLength(for type: CBCharacteristicWriteType) -> Int {
        type == .withResponse ? 512 : 182
    }
}

final class MockService: CBService {
    override var uuid: CBUUID { KnownUUIDs.heartRateService }
    override var isPrimary: Bool { true }
    override var includedServices: [CBService]? { [] }
    override var characteristics: [CBCharacteristic]? { [] }
}

final class MockCharacteristic: CBCharacteristic {
    override var uuid: CBUUID { KnownUUIDs.heartRateMeasurement }
    override var properties: CBCharacteristicProperties { [.read, .notify] }
    override var value: Data? { Data([0x00, 0x48]) }
    override var descriptors: [CBDescriptor]? { [] }
    override var isNotifying: Bool { true }
}

final class MockDescriptor: CBDescriptor {
    override var uuid: CBUUID { CBUUID(string: CBUUIDCharacteristicUserDescriptionString) }
    override var value: Any? { "Heart Rate Measurement" }
}

final class MockUUID: CBUUID {
    override var uuidString: String { "FFF0" }
    override var data: Data { Data([0xFF, 0xF0]) }
}

/// Creates the central-manager and UUID doubles with inherited initialisers and uses them through base types.
func exerciseSubclasses(delegate: CentralDelegate) -> [String] {
    let plain = MockCentralManager()
    let delegated = MockCentralManager(delegate: delegate, queue: nil)
    let full = MockCentralManager(
        delegate: delegate,
        queue: DispatchQueue(label: "com.example.mock"),
        options: [CBCentralManagerOptionShowPowerAlertKey: false]
    )
    let managers: [CBCentralManager] = [plain, delegated, full]
    for manager in managers {
        manager.scanForPeripherals(withServices: [KnownUUIDs.heartRateService], options: nil)
        manager.stopScan()
    }
    let uuid: CBUUID = MockUUID()
    return [
        describeManagerState(full.state),
        "scanning=\(full.isScanning)",
        "scans=\(full.scannedServices.count)",
        "connects=\(full.connectRequests.count)",
        uuid.uuidString,
        "\(uuid.data.count)",
    ]
}

/// Uses the system-created doubles through their base classes, as code under test would.
func exerciseAttributeDoubles(
    _ peripheral: MockPeripheral,
    _ service: MockService,
    _ characteristic: MockCharacteristic,
    _ descriptor: MockDescriptor
) -> [String] {
    let base: CBPeripheral = peripheral
    base.discoverServices(nil)
    base.readRSSI()
    let limit = base.maximumWriteValueLength(for: .withoutResponse)
    return inspectService(service) + inspectCharacteristic(characteristic) + [
        inspectDescriptor(descriptor),
        base.name ?? "",
        describePeripheralState(base.state),
        "\(limit)",
    ]
}
