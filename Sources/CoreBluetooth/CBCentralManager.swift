// CBCentralManager: the app's central role (scan, connect, retrieve) over a CentralBackend.
internal import OCBCore
internal import OCBHost
import Foundation
import Synchronization

/// The central role (Apple's `CBCentralManager`).
///
/// Delegate methods run on the queue given at init (the main queue when nil: a daemon must run `dispatchMain()` or
/// the main RunLoop). Commands are refused with `[CoreBluetooth] API MISUSE: ...` on standard error unless the state
/// is `.poweredOn`. The controller is chosen by `CBCentralManagerOptionTransportKey`, else the environment variable
/// `OCB_TRANSPORT`, else the kernel socket on hci0.
///
/// State restoration: with `CBCentralManagerOptionRestoreIdentifierKey` the manager keeps its connected and pending
/// peripherals and its scan in `<identifier>.json` (see `RestorationStore`: `$OCB_STATE_DIR`, else
/// `$XDG_STATE_HOME/opencorebluetooth`, else `~/.local/state/opencorebluetooth`). A manager made later with the same
/// identifier calls `centralManager(_:willRestoreState:)` before the first state update, then, once powered on,
/// connects to the restored peripherals again and resumes the scan.
open class CBCentralManager: CBManager, @unchecked Sendable {
    /// Optional features of the controller (Apple's `CBCentralManager.Feature`).
    public struct Feature: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// LE extended advertising scan and connect (Core v5.4 Vol 6 Part B §4.4.2.1).
        public static let extendedScanAndConnect = Feature(rawValue: 1 << 0)
    }

    let queue: DispatchQueue
    let backend: any CentralBackend
    let restoration: RestorationStore?
    weak var storedDelegate: (any CBCentralManagerDelegate)? { didSet { deliveryEpoch.add(1, ordering: .releasing) } }
    weak var storedPairingDelegate: (any CBPairingDelegate)?

    // All of the following are guarded by `lock`.
    var controllerAddress: BluetoothAddress?
    var hasReportedState = false
    var storedIsScanning = false { didSet { deliveryEpoch.add(1, ordering: .releasing) } }
    var scanParameters: ScanParameters?
    /// The peripherals reported in this scan, for Apple's coalescing without AllowDuplicates (bounded).
    var reported = DiscoveryCoalescing()
    /// What hands backend events and discoveries to the delegate queue (set once at start).
    var delivery: SerialBatcher<FacadeDelivery>?
    /// Counts the scans asked for and stopped: a discovery prepared for an earlier one is not delivered.
    var scanGeneration: UInt64 = 0 { didSet { deliveryEpoch.add(1, ordering: .releasing) } }
    /// Changes (any thread, the lock held) whenever what a discovery's delivery depends on does: the scan running, its
    /// generation, the delegate. A batch of discoveries looks under the lock once (``deliver(_:)``) and, before each
    /// delegate call, only compares this (a delegate that stops the scan or replaces itself mid-batch is obeyed at once).
    let deliveryEpoch = Atomic<UInt64>(0)
    /// Peripherals connecting, connected or disconnecting.
    var active: [PeerAddress: CBPeripheral] = [:]
    /// Every peripheral handed out, until nothing but this table holds it (``pruneHandedOut()``): the app gets the same
    /// object for a device as long as it keeps one. Held strongly and pruned by uniqueness rather than held weakly: an
    /// object something holds weakly gets a side table, and every retain and release of it then takes the runtime's
    /// slow path (about 550 instructions a discovery with AllowDuplicates). Bound: pruned whenever it doubles, so it
    /// holds at most about twice what the app, the connections and ``recentlyDiscovered`` hold, plus 64.
    var handedOut: [PeerAddress: HandedOutPeripheral] = [:]
    /// The size of ``handedOut`` at which it is pruned next.
    var handedOutPruneAt = 64
    /// The last 1,024 peripherals discovered, kept alive (strong) so that an app that does not keep its discoveries
    /// gets the same object, without a new identifier derivation and object per advertisement (first in, first out);
    /// emptied by `stopScan`.
    var recentlyDiscovered = RecentlySeen<PeerAddress, CBPeripheral>(capacity: 1_024)
    /// The advertisementData dictionaries the delegate queue's last batch let go, for the next batch to write into
    /// (``AdvertisementDataRecycler``, its own bound); taken by ``deliver(_:)`` for a batch and put back after it,
    /// emptied by `stopScan` (lock held).
    var advertisementDataSpares = AdvertisementDataRecycler()
    /// The host's records of the discoveries with new content the delegate queue's last batch delivered in a scan with
    /// AllowDuplicates and no service filter (the host's scan makes its next records with their arrays), and the scan
    /// (``scanGeneration``) they belong to: handed back to the backend (``CentralBackend/discoveryRecordSpares``)
    /// when the next batch of that scan starts (by then the batch that held them is let go, so the array of one nothing
    /// else holds can take the scan's next new content), let go when another scan's does. At most one batch's (about
    /// 256); taken and put back as ``advertisementDataSpares`` is, emptied by `stopScan` (lock held).
    var recordsToHandBack: (scan: UInt64, records: [DiscoveredDevice.Payload]) = (0, [])
    /// The peer behind each identifier handed out, for `retrievePeripherals(withIdentifiers:)`: the last 16,384 (a
    /// flood of advertisers cannot grow it without end; an identifier forgotten is retrieved again once seen again).
    var knownPeers = RecentlySeen<UUID, PeerAddress>(capacity: 16_384)
    /// The controller's bonded devices (``BackendEvent/bonded(_:)``), each by the address it is known by: found by
    /// ``retrievePeripherals(withIdentifiers:)`` in a new process before any scan (lock held). Bound: one per bond.
    var bondedPeers: [BondedPeer] = []
    /// Restored peripherals and scan waiting for the first `.poweredOn`.
    var restorePending: (peripherals: [CBPeripheral], scan: ScanParameters?)?
    var requestCounter: UInt64 = 0
    /// Notification and indication values waiting for the delegate (see NotificationBound.swift), under its own
    /// `notificationBoundLock`, for the same reason as the discoveries' below.
    var notificationBound = DeliveryBound(limit: CBCentralManager.notificationQueueBound)
    let notificationBoundLock = NSLock()
    /// Discoveries waiting for the delegate (see DiscoveryBound.swift), under its own `discoveryBoundLock`: taken by
    /// the reader for each advertisement and by the delegate queue once a batch, it must not contend with the manager's lock.
    var discoveryBound = DeliveryBound(limit: CBCentralManager.discoveryQueueBound, byteLimit: CBCentralManager.discoveryQueueByteBound)
    let discoveryBoundLock = NSLock()

    /// Makes a manager with no delegate on the main queue.
    public convenience init() {
        self.init(delegate: nil, queue: nil, options: nil)
    }

    /// Makes a manager whose delegate is called on `queue` (the main queue when nil).
    public convenience init(delegate: (any CBCentralManagerDelegate)?, queue: DispatchQueue?) {
        self.init(delegate: delegate, queue: queue, options: nil)
    }

    /// Makes a manager with options (`CBCentralManagerOption...Key`): the designated initialiser, as in Apple's SDK, so
    /// a subclass can override it and call `super.init(delegate:queue:options:)`.
    public init(delegate: (any CBCentralManagerDelegate)?, queue: DispatchQueue?, options: [String: Any]? = nil) {
        let (backend, directory) = (options?[Self.backendSeamKey] as? BackendSeam).map { ($0.backend, $0.stateDirectory) }
            ?? Self.defaultBackend(options: options)
        self.queue = queue ?? DispatchQueue.main
        self.backend = backend
        self.storedDelegate = delegate
        restoration = Self.restorationStore(options: options, directory: directory)
        super.init(subclass: ())
        // Each new peripheral's identifier is a SHA-1 (``PeripheralIdentifier``): libcrypto starts here, not at the first discovery.
        SHA1.prepare()
        start()
    }

    /// `CBCentralManagerOptionStateDirectoryKey`'s directory: a path `String` or a file `URL`; empty or absent: nil.
    /// Any other value is an API misuse (logged), and the default directory is used.
    static func stateDirectory(_ value: Any?) -> URL? {
        switch value {
        case nil: return nil
        case let path as String: return path.isEmpty ? nil : URL(fileURLWithPath: path, isDirectory: true)
        case let url as URL: return url.isFileURL ? url : nil
        case let url as NSURL: return (url as URL).isFileURL ? url as URL : nil
        default:
            Diagnostics.misuse("CBCentralManagerOptionStateDirectoryKey takes a path String or a file URL, not \(String(describing: type(of: value as Any))): the default state directory is used")
            return nil
        }
    }

    /// The backend from `CentralBackendFactory` for the transport in the options or `OCB_TRANSPORT`, and the state directory.
    private static func defaultBackend(options: [String: Any]?) -> (any CentralBackend, URL) {
        let environment = ProcessInfo.processInfo.environment
        let directory = Self.stateDirectory(options?[CBCentralManagerOptionStateDirectoryKey])
            ?? RestorationStore.defaultDirectory(environment: environment)
        let restoreIdentifier = options?[CBCentralManagerOptionRestoreIdentifierKey] as? String
        var transport = CentralTransport.default
        if let text = options?[CBCentralManagerOptionTransportKey] as? String ?? environment["OCB_TRANSPORT"] {
            guard let parsed = CentralTransport(parsing: text) else {
                Diagnostics.misuse("invalid transport \"\(text.prefix(100))\" (expected hci0, user:hci0, tcp:HOST:PORT or serial:PATH@BAUD)")
                return (UnavailableBackend(), directory)
            }
            transport = parsed
        }
        let btsnoopPath = (options?[CBCentralManagerOptionBtsnoopPathKey] as? String).flatMap { $0.isEmpty ? nil : $0 }
        let showsPowerAlert = (options?[CBCentralManagerOptionShowPowerAlertKey] as? NSNumber)?.boolValue
            ?? (options?[CBCentralManagerOptionShowPowerAlertKey] as? Bool) ?? true
        return (CentralBackendFactory.make(CentralBackendConfiguration(transport: transport, restoreIdentifier: restoreIdentifier,
                                                                       btsnoopPath: btsnoopPath, showsPowerAlert: showsPowerAlert,
                                                                       stateDirectory: directory)), directory)
    }

    /// Makes a manager over a given backend, keeping restoration state under `stateDirectory` (the test seam of this
    /// package's tests, tools and examples; not part of the public API). A convenience initialiser over the designated
    /// one, so that subclasses overriding ``init(delegate:queue:options:)`` inherit ``init()`` and
    /// ``init(delegate:queue:)`` as in Apple's SDK.
    package convenience init(delegate: (any CBCentralManagerDelegate)?, queue: DispatchQueue?, options: [String: Any]?,
                             backend: any CentralBackend, stateDirectory: URL) {
        var seamed = options ?? [:]
        seamed[Self.backendSeamKey] = BackendSeam(backend: backend, stateDirectory: stateDirectory)
        self.init(delegate: delegate, queue: queue, options: seamed)
    }

    /// The option key under which the package initialiser hands its backend to the designated one.
    private static let backendSeamKey = "OCBPackageBackendSeam"

    /// A backend and state directory given by this package's code instead of the transport options.
    private struct BackendSeam {
        let backend: any CentralBackend
        let stateDirectory: URL
    }

    /// The restoration store for `CBCentralManagerOptionRestoreIdentifierKey`, nil without one.
    private static func restorationStore(options: [String: Any]?, directory: URL) -> RestorationStore? {
        (options?[CBCentralManagerOptionRestoreIdentifierKey] as? String).map { RestorationStore(identifier: $0, directory: directory) }
    }

    /// Restores a saved record and starts the backend, whose events run on the delegate queue (handed over in
    /// batches, ``SerialBatcher``: a dispatch per discovery would cost more than the discovery).
    private func start() {
        if let record = restoration?.load() { restore(record) }
        let delivery = SerialBatcher<FacadeDelivery>(queue: queue, gatheringOn: backend.eventQueue,
                                                     isBulk: { if case .event = $0 { false } else { true } },
                                                     weight: { if case .discoveries(let batch) = $0 { batch.count } else { 1 } },
                                                     releasingAs: .discoveries([]),
                                                     bulkHandler: { [weak self] items in self?.deliverBulk(items) }) { [weak self] item in
            // The other lane: events, one at a time (the bulk items all go through `bulkHandler`).
            guard let self else { return }
            if case .event(let event) = item { self.handleDelivered(event) } else { self.deliverBulk([item]) }
        }
        lock.run { self.delivery = delivery }
        backend.start { [weak self] event in
            guard let self else { return }
            switch event {
            case .valueNotified(let peer, _, _, _):
                guard self.admitNotification(from: peer) else { return }
            case .advertisement(let report):
                // Decided here, on the backend's queue: a report coalesced away or past the bound never waits in the queue.
                guard let discovery = self.prepareDiscovery(report) else { return }
                return delivery.post(.discoveries([discovery]))
            case .discovered(let devices):
                let prepared = self.prepareDiscoveries(devices)
                if !prepared.isEmpty { delivery.post(.discoveries(prepared)) }
                return
            case .scanStopped:
                // Behind the scan's discoveries (their lane), not ahead of them as an event would be.
                return delivery.post(.scanReleased)
            default: break
            }
            delivery.post(.event(event))
        }
    }

    /// What goes to the delegate queue: a backend event, or a discovery already prepared.
    enum FacadeDelivery {
        /// Handled by ``handle(_:)``.
        case event(BackendEvent)
        /// Delivered by ``deliver(_:)``, in order: what one backend event brought (a turn of the host's discoveries).
        case discoveries([PreparedDiscovery])
        /// A stopped scan's discoveries are all delivered or dropped: ``releaseStoppedScan()``.
        case scanReleased
    }

    /// A turn's bulk items (on the delegate queue), in order: each run of discoveries as one batch, then a scan's
    /// release after its discoveries.
    private func deliverBulk(_ items: ArraySlice<FacadeDelivery>) {
        // One event's discoveries alone (the scan path) go as they are.
        if items.count == 1, case .discoveries(let discoveries)? = items.first { return deliver(discoveries) }
        var batch: [PreparedDiscovery] = []
        for item in items {
            switch item {
            case .discoveries(let discoveries): batch += discoveries
            case .scanReleased:
                deliver(batch)
                batch.removeAll(keepingCapacity: true)
                releaseStoppedScan()
            case .event(let event): handleDelivered(event)
            }
        }
        deliver(batch)
    }

    /// An event handed over to the delegate queue: counted off its bound when it is a value, then handled.
    private func handleDelivered(_ event: BackendEvent) {
        if case .valueNotified = event { notificationDelivered() }
        handle(event)
    }

    deinit {
        backend.stop()
    }

    /// Linux only (``CBPairingDelegate``): answers Passkey Entry and Numeric Comparison; weak, like `delegate`. While
    /// set, pairings ask for MITM protection (IO capability KeyboardDisplay); nil: Just Works only.
    public var pairingDelegate: (any CBPairingDelegate)? {
        get { lock.run { storedPairingDelegate } }
        set {
            lock.run { storedPairingDelegate = newValue }
            backend.setPairingPrompts(newValue != nil)
        }
    }

    /// The delegate (weak).
    open var delegate: (any CBCentralManagerDelegate)? {
        get { lock.run { storedDelegate } }
        set { lock.run { storedDelegate = newValue } }
    }

    /// True between `scanForPeripherals(withServices:options:)` and `stopScan()` (or a state below `.poweredOn`).
    open var isScanning: Bool { lock.run { storedIsScanning } }

    /// Whether the controller supports `features`: what the last controller any manager of this process brought up
    /// offers (``Feature/extendedScanAndConnect``: its Supported Commands list LE Set Extended Scan Parameters,
    /// LE Set Extended Scan Enable and LE Extended Create Connection, Core v5.4 Vol 4 Part E §6.27 octet 37 bits 5-7).
    /// False for every feature before a controller came up. iOS answers for the device's own controller; here each
    /// manager may have its own, so this is a process-wide best answer (`CentralBackendFactory.supportedFeatures`).
    open class func supports(_ features: Feature) -> Bool {
        CentralBackendFactory.supportedFeatures.contains(features)
    }

    /// Scans for advertising peripherals, every one when `serviceUUIDs` is nil, else those advertising one of them
    /// (or soliciting one of `CBCentralManagerScanOptionSolicitedServiceUUIDsKey`). Without
    /// `CBCentralManagerScanOptionAllowDuplicatesKey` a peripheral's discoveries are coalesced, as Apple's: one per
    /// scan, and one more when a scan response completes what the first carried; data that merely changes gives none
    /// (``DiscoveryCoalescing``, bounded to 8,192 peripherals per scan). With it, every advertisement is reported. A
    /// new call replaces the running scan.
    open func scanForPeripherals(withServices serviceUUIDs: [CBUUID]?, options: [String: Any]? = nil) {
        let parameters = ScanParameters(
            services: serviceUUIDs?.map(\.bluetoothUUID),
            allowDuplicates: Self.bool(options?[CBCentralManagerScanOptionAllowDuplicatesKey]),
            solicitedServices: (options?[CBCentralManagerScanOptionSolicitedServiceUUIDsKey] as? [CBUUID])?.map(\.bluetoothUUID) ?? [],
            passive: Self.bool(options?[CBCentralManagerScanOptionPassiveKey]))
        let accepted: Bool = lock.run {
            guard storedState == .poweredOn else { return false }
            storedIsScanning = true
            scanParameters = parameters
            scanGeneration &+= 1
            reported.reset()
            return true
        }
        guard accepted else {
            return Diagnostics.misuse("<CBCentralManager: \(Unmanaged.passUnretained(self).toOpaque())> can only accept this command while in the powered on state")
        }
        saveRestoration()
        // Sent now, from the caller's thread, not behind the delegate queue's discoveries (as iOS sends to bluetoothd).
        backend.startScan(parameters)
    }

    /// Stops scanning.
    open func stopScan() {
        let wasScanning: Bool = lock.run {
            guard storedState == .poweredOn else { return false }
            let was = storedIsScanning
            storedIsScanning = false
            scanParameters = nil
            scanGeneration &+= 1
            reported.reset()
            // The scan's peripherals go with it unless the app keeps them (``handedOut`` still finds those): iOS too
            // releases the peripherals an app did not retain.
            recentlyDiscovered.removeAll()
            advertisementDataSpares = AdvertisementDataRecycler()
            recordsToHandBack = (0, [])
            return was
        }
        guard wasScanning else {
            if state != .poweredOn { misuseNotPoweredOn() }
            return
        }
        saveRestoration()
        backend.stopScan()
    }

    /// Connects; answers `didConnect` or `didFailToConnect`. Never times out by itself: cancel it with
    /// `cancelPeripheralConnection(_:)`. Options: `CBConnectPeripheralOptionStartDelayKey` (seconds) and
    /// `CBConnectPeripheralOptionEnableAutoReconnect` are honoured; the alert and bridging options are ignored.
    open func connect(_ peripheral: CBPeripheral, options: [String: Any]? = nil) {
        enum Outcome { case start, alreadyConnected, ignore, notPoweredOn, foreign, anonymous }
        let outcome: Outcome = lock.run {
            guard storedState == .poweredOn else { return .notPoweredOn }
            guard peripheral.manager === self else { return .foreign }
            guard !peripheral.peer.isAnonymous else { return .anonymous }
            switch peripheral.storedState {
            case .connected: return .alreadyConnected
            case .connecting, .disconnecting: return .ignore
            case .disconnected:
                peripheral.storedState = .connecting
                peripheral.cancelRequested = false
                peripheral.autoReconnect = Self.bool(options?[CBConnectPeripheralOptionEnableAutoReconnect])
                active[peripheral.peer] = peripheral
                return .start
            }
        }
        switch outcome {
        case .notPoweredOn: misuseNotPoweredOn()
        case .foreign: Diagnostics.misuse("\(peripheral) does not belong to this central manager")
        case .anonymous:
            // An anonymous advertisement gives no address to connect to (and it is never connectable).
            queue.async { self.delegate?.centralManager(self, didFailToConnect: peripheral, error: CBError(.invalidParameters)) }
        case .ignore: break
        case .alreadyConnected:
            queue.async { self.delegate?.centralManager(self, didConnect: peripheral) }
        case .start:
            saveRestoration()
            let delay = (options?[CBConnectPeripheralOptionStartDelayKey] as? NSNumber)?.doubleValue ?? 0
            let send: @Sendable () -> Void = { [self] in
                guard peripheral.state == .connecting else { return }
                backend.connect(peripheral.peer)
            }
            // Sent now, from the caller's thread: a delegate queue busy with a flood's discoveries does not hold it.
            if delay > 0, delay.isFinite {
                DispatchQueue.global().asyncAfter(deadline: .now() + min(delay, 86_400), execute: send)
            } else {
                send()
            }
        }
    }

    /// Cancels a pending connection or disconnects; answers `didDisconnectPeripheral` with a nil error.
    open func cancelPeripheralConnection(_ peripheral: CBPeripheral) {
        enum Outcome { case cancel, ignore, notPoweredOn }
        let outcome: Outcome = lock.run {
            guard storedState == .poweredOn else { return .notPoweredOn }
            guard peripheral.manager === self, peripheral.storedState == .connecting || peripheral.storedState == .connected
            else { return .ignore }
            peripheral.storedState = .disconnecting
            peripheral.cancelRequested = true
            return .cancel
        }
        switch outcome {
        case .notPoweredOn: misuseNotPoweredOn()
        case .ignore: break
        case .cancel:
            saveRestoration()
            backend.cancelConnection(peripheral.peer)
        }
    }

    /// The peripherals with these identifiers that this manager has seen, restored or bonded with (bonds are known from power-on,
    /// in a new process too); unknown ones are left out.
    open func retrievePeripherals(withIdentifiers identifiers: [UUID]) -> [CBPeripheral] {
        lock.run {
            identifiers.compactMap { identifier in
                let peer = knownPeers[identifier] ?? bondedPeers.first {
                    PeripheralIdentifier.make(controller: controllerAddress ?? .zero, peer: $0.known) == identifier
                }?.known
                return peer.map { peripheral(for: $0, identifier: identifier) }
            }
        }
    }

    /// The connected peripherals of this manager having a discovered service among `serviceUUIDs` (every connected
    /// one when the array is empty).
    open func retrieveConnectedPeripherals(withServices serviceUUIDs: [CBUUID]) -> [CBPeripheral] {
        let wanted = Set(serviceUUIDs.map(\.bluetoothUUID))
        return lock.run {
            active.values.filter { peripheral in
                peripheral.storedState == .connected
                    && (wanted.isEmpty || (peripheral.storedServices ?? []).contains { wanted.contains($0.uuid.bluetoothUUID) })
            }.sorted { $0.identifier.uuidString < $1.identifier.uuidString }
        }
    }

    /// iOS 5-6: retrieves known peripherals by UUID (`UUID`, `NSUUID` or UUID strings; CFUUID does not exist here);
    /// answers `centralManager(_:didRetrievePeripherals:)`.
    @available(*, deprecated, message: "Use retrievePeripherals(withIdentifiers:) instead")
    open func retrievePeripherals(_ peripheralUUIDs: [Any]) {
        let identifiers = peripheralUUIDs.compactMap { item -> UUID? in
            if let uuid = item as? UUID { return uuid }
            if let text = item as? String { return UUID(uuidString: text) }
            return nil
        }
        let found = retrievePeripherals(withIdentifiers: identifiers)
        queue.async { self.delegate?.centralManager(self, didRetrievePeripherals: found) }
    }

    /// iOS 5-6: retrieves the connected peripherals; answers `centralManager(_:didRetrieveConnectedPeripherals:)`.
    @available(*, deprecated, message: "Use retrieveConnectedPeripherals(withServices:) instead")
    open func retrieveConnectedPeripherals() {
        let found = retrieveConnectedPeripherals(withServices: [])
        queue.async { self.delegate?.centralManager(self, didRetrieveConnectedPeripherals: found) }
    }

    /// Registers for connection events matching `options` (iOS 13; keys ``CBConnectionEventMatchingOption/serviceUUIDs``
    /// and ``CBConnectionEventMatchingOption/peripheralUUIDs``; nil clears the registration). Not supported on Linux:
    /// a registration (non-nil options) logs `[CoreBluetooth] WARNING: ...` and
    /// `centralManager(_:connectionEventDidOccur:for:)` is never called; a nil clear is silent.
    open func registerForConnectionEvents(options: [CBConnectionEventMatchingOption: Any]? = nil) {
        guard options != nil else { return }
        Diagnostics.warning("registerForConnectionEvents(options:) is not supported on Linux; connectionEventDidOccur will never be called")
    }

    // MARK: Internals

    func nextRequestNumber() -> UInt64 {
        lock.run {
            requestCounter &+= 1
            return requestCounter
        }
    }

    /// The peripheral object that stands for `peer` now, if any (lock held): a connection's, a recent discovery's, or
    /// one handed out the app may still hold, in that order.
    func existingPeripheral(for peer: PeerAddress) -> CBPeripheral? {
        active[peer] ?? recentlyDiscovered[peer] ?? handedOut[peer]?.value
    }

    /// The peripheral object for `peer`, the same one while the app holds it (lock held).
    func peripheral(for peer: PeerAddress, identifier: UUID? = nil) -> CBPeripheral {
        if let existing = existingPeripheral(for: peer) { return existing }
        let id = identifier ?? PeripheralIdentifier.make(controller: controllerAddress ?? .zero, peer: peer)
        let created = CBPeripheral(identifier: id, peer: peer, manager: self)
        // Peripherals the app let go stay in the table until it is pruned, when they could be half of it (amortised O(1)).
        if handedOut.count >= handedOutPruneAt { pruneHandedOut() }
        handedOut[peer] = HandedOutPeripheral(value: created)
        knownPeers.set(id, peer)
        return created
    }

    func misuseNotPoweredOn() {
        Diagnostics.misuse("<CBCentralManager: \(Unmanaged.passUnretained(self).toOpaque())> can only accept this command while in the powered on state")
    }

    static func bool(_ value: Any?) -> Bool {
        if let flag = value as? Bool { return flag }
        return (value as? NSNumber)?.boolValue ?? false
    }
}

/// A peripheral handed out to the app (``CBCentralManager/handedOut``).
struct HandedOutPeripheral {
    var value: CBPeripheral
}

extension CBCentralManager {
    /// Forgets the handed-out peripherals that nothing but ``handedOut`` holds (lock held): the app let them go, no
    /// connection or recent discovery keeps them. Each is taken out of the table before it is looked at, so the table's
    /// reference is the one counted; nothing else can reach a peripheral held by nothing else but through the tables,
    /// under the lock, so none comes back between the look and its release.
    func pruneHandedOut() {
        var kept: [PeerAddress: HandedOutPeripheral] = [:]
        for peer in Array(handedOut.keys) {
            guard var entry = handedOut.removeValue(forKey: peer) else { continue }
            if !isKnownUniquelyReferenced(&entry.value) { kept[peer] = entry }
        }
        handedOut = kept
        handedOutPruneAt = max(64, 2 * handedOut.count)
    }
}

extension CentralBackendFactory {
    private static let featureLock = StateLock()
    nonisolated(unsafe) private static var featureStorage: CBCentralManager.Feature = []

    /// What `CBCentralManager.supports(_:)` answers: empty until a ``HostCentralBackend`` brings a controller up, then
    /// the features of the last one brought up (`CBCentralManager.Feature(controller:)`).
    package static var supportedFeatures: CBCentralManager.Feature {
        get { featureLock.run { featureStorage } }
        set { featureLock.run { featureStorage = newValue } }
    }
}
