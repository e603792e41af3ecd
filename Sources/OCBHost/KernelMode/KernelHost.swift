// Kernel mode: the Linux kernel owns the controller; we scan on a raw HCI socket and connect with kernel L2CAP ATT sockets.

import OCBCore
import Dispatch
import Foundation
import OCBHCI

/// A ``CentralHost`` for a controller the Linux kernel (BlueZ) manages — the default on a gateway.
///
/// - Scanning: reports come from an HCI_CHANNEL_RAW socket on hciN. The host never sends Reset or masks and never
///   takes the controller over: it reads supported commands and LE features, and scans through the kernel's
///   discovery (management Start Discovery, so the kernel arbitrates between bluetoothd, other processes and us,
///   and a dead process leaves no scan behind) or, for passive scans and without CAP_NET_ADMIN, with its own scan
///   commands (see ``startScan(_:completion:)``).
/// - State: a management socket (BlueZ doc/mgmt-api.txt) follows hciN: powered off (New Settings) or removed (Index
///   Removed, or EPIPE on the raw socket) ends scans and links and makes the state ``HostState/poweredOff``; powered
///   on or added again emits ``HostEvent/controllerAvailable``. Without CAP_NET_RAW, start fails with
///   ``HostError/permissionDenied(_:)`` (state ``HostState/unauthorized``) saying what to grant.
/// - Connections: one kernel L2CAP socket on the ATT fixed channel (CID 0x0004) per peer; the kernel makes the
///   LE connection. ATT and GATT run on the host exactly as in full-host mode (one ATT bearer and GATT client per link).
/// - On a kernel without Bluetooth, ``start(completion:)`` fails with ``HostError/noBluetoothSupport`` and the state
///   becomes ``HostState/unsupported``; missing capabilities give ``HostError/permissionDenied(_:)`` and
///   ``HostState/unauthorized``.
/// - Recording: with a `btsnoopPath`, each start records hciN's packets from the kernel's HCI monitor channel (the
///   channel btmon reads; CAP_NET_RAW) into that btsnoop file until stop: this host's scan commands and their events
///   as well as the kernel's connection commands and the ATT traffic as ACL data, with their directions. When the
///   file or the channel cannot be opened the host works without it and emits one ``HostEvent/recordingProblem(_:)``
///   saying why, as ``HostController`` does.
/// Read RSSI and link parameter events are not available through these sockets: ``readRSSI(_:completion:)`` fails with
/// ``HostError/unsupported(_:)`` and connections report parameters of zero.
public final class KernelHost: CentralHost, ATTLinkHost, @unchecked Sendable {
    /// The controller index (N of hciN).
    public let controllerIndex: UInt16
    /// The records of discoveries the layers above hand back, for the scan's next records (``DiscoveryRecordRecycling``).
    package let discoveryRecordSpares = DiscoveredDevice.Payload.Spares()
    /// The btsnoop file each start records into (created or truncated then); nil records nothing.
    public let btsnoopPath: String?
    /// The host's serial queue (``CentralHost/queue``).
    public let queue = DispatchQueue(label: "OpenCoreBluetooth.KernelHost")
    var outbox: SerialBatcher<HostDelivery>
    let discoveryGate = DiscoveryGate()
    var currentState: HostState = .unknown
    var transport: HCISocketTransport?
    var commands = HCICommandFlow()
    var commandHandlers: [HCICommandFlow.Ticket: (Result<[UInt8], HostError>) -> Void] = [:]
    var info: ControllerInfo?
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
    var family: CommandFamily?
    var reassembler = ExtendedAdvertisingReassembler()
    var links: [ConnectionHandle: KernelLink] = [:]
    var connecting: [PeerAddress: L2CAPSocket] = [:]
    let timer = DeadlineTimer()
    /// The system's clock: the kernel's sockets are live.
    let clock: any HostClock = SystemHostClock.shared
    var recording: KernelRecording?
    /// The management socket (power and presence events, kernel discovery); nil when it could not be opened.
    var management: ManagementSocket?
    /// Our management commands awaiting their Command Complete or Command Status, oldest first.
    var managementPending: [(ManagementOpcode, (Result<(ManagementStatus, [UInt8]), HostError>) -> Void)] = []
    /// Start Discovery answered Permission Denied (no CAP_NET_ADMIN): scans use the raw socket's commands from then on.
    var discoveryDenied = false

    /// Where bonds are kept when no bluetoothd keeps them (``BondStore``; nil: ``StateDirectory``'s).
    public let stateDirectory: URL?
    /// This host's key store for the controller when bluetoothd does not run (set at power-on); nil otherwise.
    var kernelBonds: BondStore?
    /// The bonds of ``kernelBonds`` in memory, for resolving private addresses in reports (``BondBook``).
    var kernelBondBook = BondBook()
    /// This side's CSRKs the kernel reported (New Signature Resolving Key), until the LTK of the pairing makes the bond.
    var pendingSigningKeys: [BluetoothAddress: [UInt8]] = [:]
    /// The private address each identity paired over (from New IRK's Random_Address), until its LTK makes the bond.
    var pairedOver: [BluetoothAddress: BluetoothAddress] = [:]
    /// IRKs the kernel reported, waiting for the LTK of the same pairing (at most ``pendingKeyLimit``).
    var pendingIdentityKeys: [BluetoothAddress: ManagementIdentityResolvingKey] = [:]
    /// Numbers the raises of link security across links (``KernelLinkSecurity/generation``).
    var securityGeneration = 0

    /// A host for controller hci`controllerIndex`, recording each session into the btsnoop file at `btsnoopPath`
    /// (datalink 1002, H4 with directions) when given; without bluetoothd the keys the kernel reports are kept under
    /// `stateDirectory` (the environment's when nil) and loaded into the kernel at each start.
    public init(controllerIndex: UInt16 = 0, btsnoopPath: String? = nil, stateDirectory: URL? = nil) {
        self.controllerIndex = controllerIndex
        self.btsnoopPath = btsnoopPath
        self.stateDirectory = stateDirectory
        outbox = HostDelivery.outbox(queue: DispatchQueue(label: "OpenCoreBluetooth.KernelHost.events"), gatheringOn: queue, gate: discoveryGate, handler: nil)
        claimQueue()
    }

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
