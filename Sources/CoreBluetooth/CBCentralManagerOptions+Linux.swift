// Linux-only keys (OpenCoreBluetooth extensions, not in Apple's SDK): the controller, a btsnoop file, the state directory, passive scanning, truncated advertisements.

// MARK: Initialisation options (init(delegate:queue:options:))

/// Linux only, `String`: the controller to use. Same syntax as the `OCB_TRANSPORT` environment variable (which this
/// key overrides): `hci0` (kernel HCI socket, BlueZ keeps the controller; the default), `user:hci0` (HCI user
/// channel, this process owns the controller), `tcp:HOST:PORT` (H4 over TCP), `serial:/dev/ttyUSB0@1000000` (H4 over
/// a UART at that baud rate). Malformed text logs an API misuse and the manager reports `.unsupported`.
public let CBCentralManagerOptionTransportKey: String = "kOCBInitOptionTransport"

/// Linux only, `String`: record every HCI packet the manager's controller sends and receives in this file, in the
/// btsnoop format (version 1, datalink 1002 HCI UART/H4; what `btmon -w` and Wireshark read). The file is created
/// (or truncated) when the manager starts its controller and written until the manager is released. An empty
/// string records nothing. When this process owns the controller (`user:`, `tcp:` and `serial:` transports of
/// ``CBCentralManagerOptionTransportKey``) every packet it exchanges is written; on the kernel socket (`hciN`) the
/// controller's packets are read from the kernel's HCI monitor channel as btmon does (this process's scans, the
/// kernel's connection commands and the ATT traffic; needs CAP_NET_RAW, without which nothing is recorded and a
/// diagnostic says so).
public let CBCentralManagerOptionBtsnoopPathKey: String = "kOCBInitOptionBtsnoopPath"

/// Linux only, `String` (a directory path) or a file `URL`: where the manager keeps its state across processes: the bonds
/// (`bonds/CONTROLLER/PEER.json`, mode 0600) and the state restoration record. Overrides the `OCB_STATE_DIR`
/// environment variable; without either, `$XDG_STATE_HOME/opencorebluetooth`, else
/// `~/.local/state/opencorebluetooth`. An empty string means the default.
public let CBCentralManagerOptionStateDirectoryKey: String = "kOCBInitOptionStateDirectory"

// MARK: Scan options (scanForPeripherals(withServices:options:))

/// Linux only, `NSNumber` (Bool), default false: scan passively, sending no scan requests (LE_Scan_Type 0x00,
/// Core v5.4 Vol 4 Part E §7.8.10 / §7.8.64), so peripherals are reported from their advertising PDUs alone and no
/// scan response data (e.g. a complete local name sent only there) is merged in. iOS always scans actively.
public let CBCentralManagerScanOptionPassiveKey: String = "kOCBScanOptionPassive"

// MARK: Advertisement data keys (centralManager(_:didDiscover:advertisementData:rssi:))

/// Linux only, `NSNumber` (Bool), present and true only when the controller could not receive a whole extended
/// advertising chain (LE Extended Advertising Report Data_Status "incomplete, data truncated", or the reserved value;
/// Core v5.4 Vol 4 Part E §7.7.65.13): the other values of the dictionary come from the part that arrived and are not
/// a complete advertisement.
public let CBAdvertisementDataIsTruncatedKey: String = "kOCBAdvDataIsTruncated"
