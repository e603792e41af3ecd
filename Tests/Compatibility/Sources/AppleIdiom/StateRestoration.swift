// State restoration: the CBCentralManagerRestoredState* keys delivered to centralManager(_:willRestoreState:).
import CoreBluetooth

/// A typed view of the dictionary passed to `centralManager(_:willRestoreState:)`.
struct RestoredCentralState {
    var peripherals: [CBPeripheral]
    var scanServices: [CBUUID]?
    var scanOptions: [String: Any]?

    init(_ dict: [String: Any]) {
        peripherals = dict[CBCentralManagerRestoredStatePeripheralsKey] as? [CBPeripheral] ?? []
        scanServices = dict[CBCentralManagerRestoredStateScanServicesKey] as? [CBUUID]
        scanOptions = dict[CBCentralManagerRestoredStateScanOptionsKey] as? [String: Any]
    }
}

/// Opts in to state restoration with a stable restore identifier.
func makeRestorableCentral(delegate: CentralDelegate, identifier: String) -> CBCentralManager {
    CBCentralManager(delegate: delegate, queue: nil, options: [CBCentralManagerOptionRestoreIdentifierKey: identifier])
}
