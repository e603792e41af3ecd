// CBManager and CBCentralManager: initialisers, state and authorization, scanning, connecting, retrieving, features.
import CoreBluetooth

/// Creates central managers with each of Apple's initialisers.
func makeCentralManagers(delegate: CentralDelegate) -> [CBCentralManager] {
    let plain = CBCentralManager()
    plain.delegate = delegate
    let onMainQueue = CBCentralManager(delegate: delegate, queue: nil)
    let onOwnQueue = CBCentralManager(
        delegate: delegate,
        queue: DispatchQueue(label: "com.example.central"),
        options: CentralOptions.initialization(restoreIdentifier: "com.example.central")
    )
    let mediaOnly = CBCentralManager(delegate: delegate, queue: .main, options: CentralOptions.mediaDeviceAccess())
    let withoutOptions = CBCentralManager(delegate: nil, queue: nil, options: nil)
    return [plain, onMainQueue, onOwnQueue, mediaOnly, withoutOptions]
}

func describeManagerState(_ state: CBManagerState) -> String {
    switch state {
    case .unknown: return "unknown"
    case .resetting: return "resetting"
    case .unsupported: return "unsupported"
    case .unauthorized: return "unauthorized"
    case .poweredOff: return "poweredOff"
    case .poweredOn: return "poweredOn"
    @unknown default: return "state \(state.rawValue)"
    }
}

func describeAuthorization(_ authorization: CBManagerAuthorization) -> String {
    switch authorization {
    case .notDetermined: return "notDetermined"
    case .restricted: return "restricted"
    case .denied: return "denied"
    case .allowedAlways: return "allowedAlways"
    @unknown default: return "authorization \(authorization.rawValue)"
    }
}

/// Reads CBManager's state and both authorization properties.
func exerciseManager(_ manager: CBManager) -> [String] {
    let state: CBManagerState = manager.state
    let appAuthorization: CBManagerAuthorization = CBManager.authorization
    let viaSubclass: CBManagerAuthorization = CBCentralManager.authorization
    // The instance property is deprecated on iOS 13.1+ (still current on macOS); kept because it is public API.
    let managerAuthorization: CBManagerAuthorization = manager.authorization
    let rebuilt = CBManagerState(rawValue: state.rawValue) ?? .unknown
    return [
        describeManagerState(rebuilt),
        describeAuthorization(appAuthorization),
        describeAuthorization(viaSubclass),
        describeAuthorization(managerAuthorization),
    ]
}

/// Scans, connects, cancels and retrieves with a central manager.
func exerciseCentral(_ central: CBCentralManager, _ peripheral: CBPeripheral) {
    let currentDelegate: (any CBCentralManagerDelegate)? = central.delegate
    _ = currentDelegate
    guard central.state == .poweredOn else { return }

    if central.isScanning {
        central.stopScan()
    }
    central.scanForPeripherals(withServices: nil)
    central.scanForPeripherals(
        withServices: [KnownUUIDs.heartRateService],
        options: CentralOptions.scan(solicitedServices: [KnownUUIDs.batteryService])
    )
    central.stopScan()

    central.connect(peripheral)
    central.connect(peripheral, options: CentralOptions.connect(startDelay: 1.5))
    central.cancelPeripheralConnection(peripheral)

    let known: [CBPeripheral] = central.retrievePeripherals(withIdentifiers: [peripheral.identifier])
    let connected: [CBPeripheral] = central.retrieveConnectedPeripherals(withServices: [KnownUUIDs.heartRateService])
    for candidate in known + connected where candidate.state == .disconnected {
        central.connect(candidate, options: nil)
    }
}

/// Queries hardware features with CBCentralManager.supports(_:).
func exerciseFeatures() -> Bool {
    let wanted: CBCentralManager.Feature = [.extendedScanAndConnect]
    let rebuilt = CBCentralManager.Feature(rawValue: wanted.rawValue)
    return CBCentralManager.supports(.extendedScanAndConnect) && CBCentralManager.supports(rebuilt)
}
