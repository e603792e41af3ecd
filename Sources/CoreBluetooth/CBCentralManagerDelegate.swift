// CBCentralManagerDelegate: the central manager's callbacks, optional ones with empty default implementations.
import Foundation

/// The delegate of a `CBCentralManager` (Apple's `CBCentralManagerDelegate`). Every method is called on the
/// manager's queue. Only `centralManagerDidUpdateState(_:)` is required; the others default to doing nothing.
public protocol CBCentralManagerDelegate: NSObjectProtocol {
    /// The manager's state changed. Comes first (after `willRestoreState` when restoring); below `.poweredOn`
    /// scanning has stopped, connections have ended and every peripheral from this manager is invalid.
    func centralManagerDidUpdateState(_ central: CBCentralManager)
    /// The manager is being restored (restore identifier option): `dict` holds
    /// `CBCentralManagerRestoredStatePeripheralsKey` (`[CBPeripheral]`), `...ScanServicesKey` (`[CBUUID]`) and
    /// `...ScanOptionsKey` (`[String: Any]`). Called before `centralManagerDidUpdateState(_:)`.
    func centralManager(_ central: CBCentralManager, willRestoreState dict: [String: Any])
    /// A peripheral was discovered while scanning; `advertisementData` uses the `CBAdvertisementData...` keys,
    /// `RSSI` is dBm, 127 when the controller gave none (not available, as iOS reports it).
    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber)
    /// `connect(_:options:)` succeeded.
    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral)
    /// `connect(_:options:)` failed; `error` is a `CBError`.
    func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?)
    /// A connection ended: `error` is nil after `cancelPeripheralConnection(_:)`, otherwise a `CBError`.
    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: (any Error)?)
    /// A connection ended (iOS 17): `timestamp` is `CFAbsoluteTime`, `isReconnecting` true when the auto-reconnect
    /// option reconnects. The manager calls only this one; its default implementation calls
    /// `centralManager(_:didDisconnectPeripheral:error:)`, so implementing either works as on iOS.
    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral,
                        timestamp: CFAbsoluteTime, isReconnecting: Bool, error: (any Error)?)
    /// A connection event matched `registerForConnectionEvents(options:)` (never on Linux).
    func centralManager(_ central: CBCentralManager, connectionEventDidOccur event: CBConnectionEvent, for peripheral: CBPeripheral)
    /// The ANCS authorization changed (never on Linux).
    func centralManager(_ central: CBCentralManager, didUpdateANCSAuthorizationFor peripheral: CBPeripheral)
    /// The answer to the deprecated `retrievePeripherals(_:)` (iOS 5-6 API).
    @available(*, deprecated, message: "Use retrievePeripherals(withIdentifiers:) instead")
    func centralManager(_ central: CBCentralManager, didRetrievePeripherals peripherals: [CBPeripheral])
    /// The answer to the deprecated `retrieveConnectedPeripherals()` (iOS 5-6 API).
    @available(*, deprecated, message: "Use retrieveConnectedPeripherals(withServices:) instead")
    func centralManager(_ central: CBCentralManager, didRetrieveConnectedPeripherals peripherals: [CBPeripheral])
    /// Linux addition (iOS has no such callback): the scan `scanForPeripherals(withServices:options:)` asked for did
    /// not start, or ended while the state stayed `.poweredOn`, e.g. because the controller answered LE Set Scan
    /// Enable (Core v5.4 Vol 4 Part E §7.8.11) with 0x0C Command Disallowed while another process scans, or did not
    /// answer. `central.isScanning` is already false; `error` is a `CBError` `.unknown` whose
    /// `userInfo["OCBBackendReason"]` says what happened and what to do. Call `scanForPeripherals` again to retry.
    func centralManager(_ central: CBCentralManager, didFailToScanWithError error: any Error)
}

extension CBCentralManagerDelegate {
    /// Default: ignores the restored state.
    public func centralManager(_ central: CBCentralManager, willRestoreState dict: [String: Any]) {}
    /// Default: ignores the discovery.
    public func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                               advertisementData: [String: Any], rssi RSSI: NSNumber) {}
    /// Default: does nothing (`peripheral.state` is already `.connected`).
    public func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {}
    /// Default: does nothing (`peripheral.state` is back to `.disconnected`).
    public func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?) {}
    /// Default: does nothing (also called by the default of the `timestamp:isReconnecting:` form).
    public func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: (any Error)?) {}
    /// Default: forwards to `centralManager(_:didDisconnectPeripheral:error:)`, dropping `timestamp` and
    /// `isReconnecting`.
    public func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral,
                               timestamp: CFAbsoluteTime, isReconnecting: Bool, error: (any Error)?) {
        centralManager(central, didDisconnectPeripheral: peripheral, error: error)
    }
    /// Default: does nothing (never called on Linux).
    public func centralManager(_ central: CBCentralManager, connectionEventDidOccur event: CBConnectionEvent, for peripheral: CBPeripheral) {}
    /// Default: does nothing (never called on Linux).
    public func centralManager(_ central: CBCentralManager, didUpdateANCSAuthorizationFor peripheral: CBPeripheral) {}
    /// Default: drops the answer to `retrievePeripherals(_:)`.
    public func centralManager(_ central: CBCentralManager, didRetrievePeripherals peripherals: [CBPeripheral]) {}
    /// Default: drops the answer to `retrieveConnectedPeripherals()`.
    public func centralManager(_ central: CBCentralManager, didRetrieveConnectedPeripherals peripherals: [CBPeripheral]) {}
    /// Default: does nothing (the manager has logged the reason as a `[CoreBluetooth] WARNING:` line, unless
    /// `CBCentralManagerOptionShowPowerAlertKey` was false).
    public func centralManager(_ central: CBCentralManager, didFailToScanWithError error: any Error) {}
}
