// Option dictionaries for CBCentralManager initialisation, scanning and connecting (every option key constant).
import CoreBluetooth

/// Option dictionaries, built on demand so that no global mutable or non-Sendable state exists.
enum CentralOptions {
    /// Options for `CBCentralManager(delegate:queue:options:)`.
    static func initialization(restoreIdentifier: String) -> [String: Any] {
        [
            CBCentralManagerOptionShowPowerAlertKey: true,
            CBCentralManagerOptionRestoreIdentifierKey: restoreIdentifier,
        ]
    }

    /// Options for a central manager used only for media device access (no generic Bluetooth prompt).
    static func mediaDeviceAccess() -> [String: Any] {
        [CBCentralManagerOptionDeviceAccessForMedia: NSNumber(value: true)]
    }

    /// Options for `scanForPeripherals(withServices:options:)`.
    static func scan(solicitedServices: [CBUUID]) -> [String: Any] {
        [
            CBCentralManagerScanOptionAllowDuplicatesKey: NSNumber(value: false),
            CBCentralManagerScanOptionSolicitedServiceUUIDsKey: solicitedServices,
        ]
    }

    /// Options for `connect(_:options:)`.
    static func connect(startDelay: TimeInterval) -> [String: Any] {
        [
            CBConnectPeripheralOptionNotifyOnConnectionKey: true,
            CBConnectPeripheralOptionNotifyOnDisconnectionKey: true,
            CBConnectPeripheralOptionNotifyOnNotificationKey: true,
            CBConnectPeripheralOptionStartDelayKey: NSNumber(value: startDelay),
            CBConnectPeripheralOptionEnableTransportBridgingKey: false,
            CBConnectPeripheralOptionRequiresANCS: false,
            CBConnectPeripheralOptionEnableAutoReconnect: true,
        ]
    }
}
