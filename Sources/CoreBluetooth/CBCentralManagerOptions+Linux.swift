// Linux-only option keys (OpenCoreBluetooth extensions, not in Apple's SDK): passive scanning and a btsnoop recording.

// MARK: Initialisation options (init(delegate:queue:options:))

/// Linux only, `String`: record every HCI packet the manager's controller sends and receives in this file, in the
/// btsnoop format (version 1, datalink 1002 HCI UART/H4; what `btmon -w` and Wireshark read). The file is created
/// (or truncated) when the manager starts its controller and written until the manager is released. An empty
/// string records nothing. Passed to the Host as `HostConfiguration.btsnoopPath` through
/// `CentralBackendConfiguration.btsnoopPath`.
public let CBCentralManagerOptionBtsnoopPathKey: String = "kOCBInitOptionBtsnoopPath"

// MARK: Scan options (scanForPeripherals(withServices:options:))

/// Linux only, `NSNumber` (Bool), default false: scan passively, sending no scan requests (LE_Scan_Type 0x00,
/// Core v5.4 Vol 4 Part E §7.8.10 / §7.8.64), so peripherals are reported from their advertising PDUs alone and no
/// scan response data (e.g. a complete local name sent only there) is merged in. iOS always scans actively.
/// Reaches the backend as `ScanParameters.passive`.
public let CBCentralManagerScanOptionPassiveKey: String = "kOCBScanOptionPassive"
