// The full host: one controller driven over an HCITransport on one serial queue, with bring-up, scanning and connections.

import OCBCore
import Dispatch
import OCBHCI
import OCBL2CAP
import OCBSMP

/// A full Bluetooth LE central host for one controller reached over an ``HCITransport`` (H4 over TCP or serial,
/// or the Linux HCI user channel).
///
/// Everything runs on one private serial queue: packets from the transport, timers (a `DispatchSourceTimer`
/// that drives the sans-I/O state machines' deadlines) and public calls hopping onto it. Events and completions
/// go to the handler's queue. See ``CentralHost`` for the interface; this class adds nothing public beyond
/// ``init(configuration:)`` and ``controllerInfo``. Each connection has one ATT bearer and one GATT client,
/// driven on that queue (see ``CentralHost/withGATT(_:_:)``).
public final class HostController: CentralHost, ATTLinkHost, @unchecked Sendable {
    let configuration: HostConfiguration
    /// The records of discoveries the layers above hand back, for the scan's next records (``DiscoveryRecordRecycling``).
    package let discoveryRecordSpares = DiscoveredDevice.Payload.Spares()
    /// The host's serial queue (``CentralHost/queue``).
    public let queue = DispatchQueue(label: "OpenCoreBluetooth.HostController")
    var outbox: SerialBatcher<HostDelivery>
    let discoveryGate = DiscoveryGate()

    // All below is touched on `queue` only.
    var currentState: HostState = .unknown
    var transport: (any HCITransport)?
    var capture: BtsnoopFileWriter?
    /// Incremented at each start and stop; callbacks from an older transport are ignored.
    var generation: UInt64 = 0
    var info: ControllerInfo?
    var commands: HCICommandFlow
    var commandHandlers: [HCICommandFlow.Ticket: (CommandAnswer) -> Void] = [:]
    /// ACL credits and queues; nil until bring-up read the buffer sizes.
    var acl: ACLFlow?
    var recombiner = L2CAPRecombiner()
    var links: [ConnectionHandle: LinkState] = [:]
    var attempts = ConnectionAttemptQueue()
    var attemptOptions: [UInt64: ConnectOptions] = [:]
    /// When the connection attempt on air was sent (LE Create Connection), for the shedding of advertising reports in
    /// its first second (``receive(_:)``); nil when none is on air.
    var attemptSentAt: ContinuousClock.Instant?
    #if DEBUG
    /// The scan in progress (``SerialHost/scan``), checked for exclusive access at run time in debug builds (the tests').
    var scan: ScanSession?
    /// When the read being handled was taken, as the scan's stamp (``SerialHost/readStamp``).
    var readStamp: ScanResultMerger.Stamp?
    #else
    /// The scan in progress (``SerialHost/scan``). Touched only on the host's queue and never from inside another access
    /// to it (nothing a scan does calls back into the host), so in release builds the run-time exclusivity check of a
    /// class's stored property, about 90 instructions at each report event's access, is left out (debug builds, the
    /// tests', keep it, so an overlap a change brings is caught there).
    @exclusivity(unchecked) var scan: ScanSession?
    /// When the read being handled was taken, as the scan's stamp (``SerialHost/readStamp``); same confinement.
    @exclusivity(unchecked) var readStamp: ScanResultMerger.Stamp?
    #endif
    /// The scanning command family used since the last Reset; nil before the first scan or connect.
    var commandFamily: CommandFamily?
    var reassembler = ExtendedAdvertisingReassembler()
    let timer = DeadlineTimer()
    /// The bonds of the controller (loaded at power-on) and the key store they came from (nil before power-on).
    var bondBook = BondBook()
    var bondStore: BondStore?
    /// Where the attempt on air was sent (a bonded device's private address may differ from the attempt's peer).
    var attemptTarget: PeerAddress?
    /// Numbers pairing prompts across links (``LinkSecurityState/promptID``).
    var promptCounter: UInt64 = 0
    /// When each bond's last private address was last written (at most once a minute each, ``SerialHost/knownPeer(forPrivate:)``).
    var lastAddressSaved: [String: ContinuousClock.Instant] = [:]
    /// The IO capability of the next pairing (``SecurityConfiguration/ioCapability`` until changed).
    lazy var pairingIOCapability: SMPIOCapability = configuration.security.ioCapability
    /// The clock of the open transport (``HCITransport/clock``), else the system's.
    var clock: any HostClock = SystemHostClock.shared

    /// Makes a host; nothing is opened until ``start(completion:)``.
    public init(configuration: HostConfiguration) {
        self.configuration = configuration
        commands = HCICommandFlow(timeout: configuration.commandTimeout)
        outbox = HostDelivery.outbox(queue: DispatchQueue(label: "OpenCoreBluetooth.HostController.events"), gatheringOn: queue, gate: discoveryGate, handler: nil)
        claimQueue()
    }

    deinit {
        transport?.close()
    }

    /// What bring-up learned; nil until the host is powered on.
    public var controllerInfo: ControllerInfo? { onQueue { info } }

    /// The current state (read synchronously on the host queue, in place when called on it).
    public var state: HostState { readState() }

    /// Sets the queue and handler for events and completions, replacing earlier ones; events emitted before the
    /// first call are dropped.
    public func setEventHandler(queue: DispatchQueue, _ handler: @escaping @Sendable (HostEvent) -> Void) {
        replaceEventHandler(queue: queue, handler)
    }

    /// ``CentralHost/setEventHandler(queue:_:discoveries:)``: the discoveries a turn's worth at a time.
    public func setEventHandler(queue: DispatchQueue, _ handler: @escaping @Sendable (HostEvent) -> Void,
                                discoveries: @escaping @Sendable ([DiscoveredDevice]) -> Void) {
        replaceEventHandler(queue: queue, handler, discoveries: discoveries)
    }

    /// Discoveries dropped because the event handler was slower than the air (``DiscoveryGate/limit`` waiting), since
    /// the host was made; safe from any thread.
    public var droppedDiscoveryCount: Int { discoveryGate.dropped }
}
