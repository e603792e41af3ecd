// The interface between the CoreBluetooth facade and the host runtime: commands down, BackendEvent up.
package import OCBCore
package import OCBATT
package import OCBHost
package import OCBGATT

/// A remote LE device as the controller addresses it: its address and HCI address type
/// (Core v5.4 Vol 4 Part E §7.7.65.2). The key of every peripheral in the backend interface; the same type as the
/// host runtime's `OCBHost.PeerAddress` (one type across the layers).
package typealias PeerAddress = OCBHost.PeerAddress

extension OCBHost.PeerAddress {
    /// Makes a peer address (the facade's spelling of `init(_:type:)`).
    package init(address: BluetoothAddress, type: AddressType) {
        self.init(address, type: type)
    }
}

/// A token the facade gives each request; the backend echoes it in the matching ``BackendEvent/response(_:_:_:)``.
package struct RequestID: Hashable, Sendable, CustomStringConvertible {
    /// The number, unique per manager.
    package let rawValue: UInt64
    /// Makes a token.
    package init(rawValue: UInt64) { self.rawValue = rawValue }
    package var description: String { "#\(rawValue)" }
}

/// What to scan for. The facade filters and de-duplicates itself; the backend may use these to filter early.
package struct ScanParameters: Hashable, Sendable {
    /// Services to look for in advertised service UUIDs; nil means every peripheral.
    package var services: [BluetoothUUID]?
    /// Whether the app asked for every advertisement. The backend must deliver changed advertisements in any case
    /// (so controller-side duplicate filtering, Vol 4 Part E §7.8.11, is to be left off or reset often).
    package var allowDuplicates: Bool
    /// Services to look for in Service Solicitation AD structures.
    package var solicitedServices: [BluetoothUUID]
    /// Linux only (`CBCentralManagerScanOptionPassiveKey`): scan passively, without scan requests
    /// (LE_Scan_Type 0x00, Vol 4 Part E §7.8.10), so no scan responses are merged. False: active, as on iOS.
    package var passive: Bool

    /// Makes scan parameters.
    package init(services: [BluetoothUUID]?, allowDuplicates: Bool, solicitedServices: [BluetoothUUID], passive: Bool = false) {
        self.services = services
        self.allowDuplicates = allowDuplicates
        self.solicitedServices = solicitedServices
        self.passive = passive
    }
}

/// The controller to use, parsed from `CBCentralManagerOptionTransportKey` or `OCB_TRANSPORT`.
package struct CentralBackendConfiguration: Sendable, Hashable {
    /// The transport.
    package var transport: CentralTransport
    /// The restore identifier, if the app opted in to state restoration.
    package var restoreIdentifier: String?
    /// Linux only (`CBCentralManagerOptionBtsnoopPathKey`): a btsnoop file (datalink 1002, H4) recording every HCI
    /// packet of the session (the Host's `HostConfiguration.btsnoopPath` or `KernelHost.btsnoopPath`); nil records nothing.
    package var btsnoopPath: String?
    /// `CBCentralManagerOptionShowPowerAlertKey` (default true): log a warning with the reason when the state falls
    /// to `.unsupported`, `.unauthorized` or `.poweredOff`.
    package var showsPowerAlert: Bool
    /// Linux only (`CBCentralManagerOptionStateDirectoryKey`): the state directory (bonds, restoration); nil: the
    /// environment's (`StateDirectory`).
    package var stateDirectory: URL?

    /// Makes a configuration.
    package init(transport: CentralTransport, restoreIdentifier: String?, btsnoopPath: String? = nil, showsPowerAlert: Bool = true,
                 stateDirectory: URL? = nil) {
        self.stateDirectory = stateDirectory
        self.transport = transport
        self.restoreIdentifier = restoreIdentifier
        self.btsnoopPath = btsnoopPath
        self.showsPowerAlert = showsPowerAlert
    }
}

/// The host runtime as the CoreBluetooth facade drives it.
///
/// Contract:
/// - Every method returns at once (it must not block on the radio); results come back as ``BackendEvent``s through
///   the handler given to ``start(eventHandler:)``, from any thread, in the order they happened.
/// - The facade calls the methods from the thread the app asked on, as it asks (not behind the delegate queue's
///   callbacks: a flood of discoveries there does not hold a connect), so they are safe from any thread; one
///   thread's calls keep their order.
/// - The facade sends each request (one with a ``RequestID``) as the app makes it, without waiting for earlier ones:
///   the link's ATT bearer orders the GATT requests (one transaction, one procedure at a time, FIFO), Read RSSI does
///   not wait behind them. Writes without response have no response.
/// - Every request gets exactly one response, or the peer's ``BackendEvent/disconnected(_:reason:)`` (which fails
///   it). `connect` ends in exactly one `connected`, `connectionFailed` or (after `cancelConnection`) `disconnected`.
/// - Handles are ATT handles (Core v5.4 Vol 3 Part F §3.2.2); values are the bytes on air.
package protocol CentralBackend: AnyObject, Sendable {
    /// Opens the transport and brings the controller up. Reports ``BackendEvent/stateChanged(_:controller:)`` first
    /// (at least once, even if the state is `.unsupported`), then every other event.
    func start(eventHandler: @escaping @Sendable (BackendEvent) -> Void)
    /// Closes the transport; no event follows.
    func stop()
    /// Discoveries the backend's side dropped (its host's bound, ``Host/CentralHost/droppedDiscoveryCount``) before
    /// they reached the manager; safe from any thread.
    var droppedDiscoveryCount: Int { get }
    /// The serial queue the event handler is called on, when there is one: the manager then hands what one block of
    /// it produced to the delegate queue at once (``Host/SerialBatcher``), not with a wake-up per event.
    var eventQueue: DispatchQueue? { get }
    /// Where the manager hands back the host's records of discoveries the delegate has had, for the host's scan to make
    /// its next records with (``Host/DiscoveredDevice/Payload/Spares``); nil when the backend's host takes none.
    var discoveryRecordSpares: DiscoveredDevice.Payload.Spares? { get }

    /// Starts (or restarts with new parameters) LE scanning, active (scan requests on), so scan responses merge
    /// into advertisements (Vol 4 Part E §7.8.10/§7.8.64).
    func startScan(_ parameters: ScanParameters)
    /// Stops scanning.
    func stopScan()

    /// Starts a connection to `peer` with no timeout (LE Create Connection, Vol 4 Part E §7.8.12) and, once
    /// connected, exchanges the MTU (Vol 3 Part F §3.4.2.1) before reporting `connected`.
    func connect(_ peer: PeerAddress)
    /// Cancels a pending connection (LE Create Connection Cancel) or disconnects (Disconnect, reason 0x13).
    func cancelConnection(_ peer: PeerAddress)

    /// Primary service discovery (Vol 3 Part G §4.4.1 all, §4.4.2 by UUID when `uuids` has one element).
    /// Responds with ``BackendResponse/services(_:)``.
    func discoverServices(_ peer: PeerAddress, request: RequestID, uuids: [BluetoothUUID]?)
    /// Find Included Services within the service range (Vol 3 Part G §4.5.1). Responds with `.includedServices`.
    func discoverIncludedServices(_ peer: PeerAddress, request: RequestID, in service: ClosedRange<AttributeHandle>)
    /// Characteristic discovery within the service range (Vol 3 Part G §4.6.1/§4.6.2). Responds with `.characteristics`.
    func discoverCharacteristics(_ peer: PeerAddress, request: RequestID, in service: ClosedRange<AttributeHandle>, uuids: [BluetoothUUID]?)
    /// Discover All Characteristic Descriptors in the range after the value handle (Vol 3 Part G §4.7.1).
    /// An empty range needs no request: the facade does not send one. Responds with `.descriptors`.
    func discoverDescriptors(_ peer: PeerAddress, request: RequestID, in range: ClosedRange<AttributeHandle>)
    /// Reads a value in full: Read Request, then Read Blob Requests while the value fills the PDU
    /// (Vol 3 Part G §4.8.1/§4.8.3, §4.12.1). Responds with `.value`.
    func read(_ peer: PeerAddress, request: RequestID, handle: AttributeHandle)
    /// Writes a value. `withResponse`: Write Request, or Prepare/Execute Write when longer than ATT_MTU-3
    /// (Vol 3 Part G §4.9.3/§4.9.4), responding with `.written`. Without response: Write Command (§4.9.1), no
    /// response, `request` is nil; if the controller's buffers are full the backend may drop it and reports
    /// ``BackendEvent/writeWithoutResponseAvailability(_:canSend:)``.
    func write(_ peer: PeerAddress, request: RequestID?, handle: AttributeHandle, value: [UInt8], withResponse: Bool)
    /// Writes the Client Characteristic Configuration of the characteristic whose value handle is `valueHandle`
    /// (Vol 3 Part G §3.3.3.3): `configuration` is `[]` off, `.notification` or `.indication`.
    /// `cccdHandle` is given when the app discovered descriptors; otherwise the backend finds the 0x2902 descriptor
    /// in `valueHandle+1 ... endHandle` itself. Responds with `.written`; a characteristic without a CCCD
    /// responds with `.failure(.att(.attributeNotFound))` (Attribute Not Found).
    func setNotification(_ peer: PeerAddress, request: RequestID, valueHandle: AttributeHandle, endHandle: AttributeHandle,
                         cccdHandle: AttributeHandle?, configuration: GATTClientCharacteristicConfiguration)
    /// Reads the RSSI of the connection (HCI Read RSSI, Vol 4 Part E §7.5.4), dBm. Responds with `.rssi`.
    func readRSSI(_ peer: PeerAddress, request: RequestID)
    /// A Signed Write Without Response (Vol 3 Part G §4.9.2) of `value` to `handle`; a Write Without Response on an
    /// encrypted link. No response; then ``BackendEvent/writeWithoutResponseSent(_:canSend:)`` as for other commands.
    func writeSigned(_ peer: PeerAddress, handle: AttributeHandle, value: [UInt8])
    /// Encrypts the link: with the bond's key when there is one, else by pairing and bonding (Core v5.4 Vol 3 Part H).
    /// Responds with `.security`, or `.failure` (`.peerRemovedPairingInformation`, `.encryptionTimedOut`, `.other`).
    func pair(_ peer: PeerAddress, request: RequestID)
    /// Whether a user answers pairing prompts (``BackendEvent/pairingPrompt(_:_:)``): pairings then ask for MITM
    /// protection (IO capability KeyboardDisplay); otherwise they are Just Works (NoInputNoOutput).
    func setPairingPrompts(_ enabled: Bool)
    /// The user's answer to the pairing prompt of `peer`'s link.
    func answerPairing(_ peer: PeerAddress, _ answer: PairingAnswer, prompt id: UInt64)
}

extension CentralBackend {
    /// None by default (a backend without a bound of its own).
    package var droppedDiscoveryCount: Int { 0 }
    /// None by default (events may come from any thread).
    package var eventQueue: DispatchQueue? { nil }
    /// None by default (a backend whose discoveries are not a host's records).
    package var discoveryRecordSpares: DiscoveredDevice.Payload.Spares? { nil }
}
