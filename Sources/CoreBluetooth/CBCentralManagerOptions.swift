// The option keys of CBCentralManager's initialiser, scan, connect and state restoration, with Apple's raw values.

// MARK: Initialisation options (init(delegate:queue:options:))

/// `NSNumber` (Bool), default true (as on iOS): warn when Bluetooth is not available. Linux has no alert to show: the
/// warning is one `[CoreBluetooth] WARNING: ...` line on standard error per change to `.unsupported`, `.unauthorized`
/// or `.poweredOff` with the reason (no kernel support, permission, connection refused...); false silences it.
public let CBCentralManagerOptionShowPowerAlertKey: String = "kCBInitOptionShowPowerAlert"
/// `String`: opts in to state preservation and restoration under this identifier (a state file, see `CBCentralManager`).
public let CBCentralManagerOptionRestoreIdentifierKey: String = "kCBInitOptionRestoreIdentifier"
/// `NSNumber` (Bool), iOS 16: the manager is for media device access only, so iOS asks for no general Bluetooth
/// permission. Accepted and without effect on Linux, where a manager asks for no permission at all (access follows the
/// process's capabilities, reported as `.unauthorized`); the manager keeps its full function.
public let CBCentralManagerOptionDeviceAccessForMedia: String = "kCBInitOptionDeviceAccessForMedia"

// MARK: Scan options (scanForPeripherals(withServices:options:))

/// `NSNumber` (Bool), default false: report every advertisement instead of one discovery per peripheral per scan.
public let CBCentralManagerScanOptionAllowDuplicatesKey: String = "kCBScanOptionAllowDuplicates"
/// `[CBUUID]`: also discover peripherals that solicit any of these services.
public let CBCentralManagerScanOptionSolicitedServiceUUIDsKey: String = "kCBScanOptionSolicitedServiceUUIDs"

// MARK: Connect options (connect(_:options:))

/// `NSNumber` (Bool): alert on connection while suspended. Accepted and ignored on Linux.
public let CBConnectPeripheralOptionNotifyOnConnectionKey: String = "kCBConnectOptionNotifyOnConnection"
/// `NSNumber` (Bool): alert on disconnection while suspended. Accepted and ignored on Linux.
public let CBConnectPeripheralOptionNotifyOnDisconnectionKey: String = "kCBConnectOptionNotifyOnDisconnection"
/// `NSNumber` (Bool): alert on notifications while suspended. Accepted and ignored on Linux.
public let CBConnectPeripheralOptionNotifyOnNotificationKey: String = "kCBConnectOptionNotifyOnNotification"
/// `NSNumber`, seconds: delay before the connection attempt starts.
public let CBConnectPeripheralOptionStartDelayKey: String = "kCBConnectOptionStartDelay"
/// `NSNumber` (Bool): bridge classic and LE transports. Accepted and ignored on Linux (LE only).
public let CBConnectPeripheralOptionEnableTransportBridgingKey: String = "kCBConnectOptionEnableTransportBridging"
/// `NSNumber` (Bool): require ANCS. Accepted and ignored on Linux (`ancsAuthorized` stays false).
public let CBConnectPeripheralOptionRequiresANCS: String = "kCBConnectOptionRequiresANCS"
/// `NSNumber` (Bool): after a disconnection not asked for, connect again by itself; the disconnect callback
/// then says `isReconnecting: true` (iOS 17).
public let CBConnectPeripheralOptionEnableAutoReconnect: String = "kCBConnectOptionEnableAutoReconnect"

// MARK: Restoration keys (centralManager(_:willRestoreState:))

/// `[CBPeripheral]`: the peripherals that were connected or pending when the previous process ended.
public let CBCentralManagerRestoredStatePeripheralsKey: String = "kCBRestoredPeripherals"
/// `[CBUUID]`: the services the previous process was scanning for.
public let CBCentralManagerRestoredStateScanServicesKey: String = "kCBRestoredScanServices"
/// `[String: Any]`: the scan options the previous process was scanning with.
public let CBCentralManagerRestoredStateScanOptionsKey: String = "kCBRestoredScanOptions"
