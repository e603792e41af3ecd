// Kernel mode: the Linux kernel owns the controller; we scan on a raw HCI socket and connect with kernel L2CAP ATT sockets.

import OCBCore
import Dispatch
import OCBHCI

/// A ``CentralHost`` for a controller the Linux kernel (BlueZ) manages — the default on a gateway.
///
/// - Scanning: an HCI_CHANNEL_RAW socket on hciN. The host never sends Reset or masks and never takes the controller
///   over: it only reads version, supported commands and LE features and sends the scan commands, choosing the
///   legacy or extended family like ``HostController`` and switching once when the controller answers Command
///   Disallowed (the kernel may already have used the other family, Core v5.4 Vol 4 Part E §3.1.1).
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
    /// The btsnoop file each start records into (created or truncated then); nil records nothing.
    public let btsnoopPath: String?
    let queue = DispatchQueue(label: "OpenCoreBluetooth.KernelHost")
    var eventQueue = DispatchQueue(label: "OpenCoreBluetooth.KernelHost.events")
    var eventHandler: (@Sendable (HostEvent) -> Void)?
    var currentState: HostState = .unknown
    var transport: HCISocketTransport?
    var commands = HCICommandFlow()
    var commandHandlers: [HCICommandFlow.Ticket: (Result<[UInt8], HostError>) -> Void] = [:]
    var info: ControllerInfo?
    var scan: ScanSession?
    var family: CommandFamily?
    var reassembler = ExtendedAdvertisingReassembler()
    var links: [ConnectionHandle: KernelLink] = [:]
    var connecting: [PeerAddress: L2CAPSocket] = [:]
    let timer = DeadlineTimer()
    var recording: KernelRecording?

    /// A host for controller hci`controllerIndex`, recording each session into the btsnoop file at `btsnoopPath`
    /// (datalink 1002, H4 with directions) when given.
    public init(controllerIndex: UInt16 = 0, btsnoopPath: String? = nil) {
        self.controllerIndex = controllerIndex
        self.btsnoopPath = btsnoopPath
        claimQueue()
    }

    /// The current state (read synchronously on the host queue; do not call from a `withGATT` body).
    public var state: HostState { readState() }

    /// Sets the queue and handler for events and completions, replacing earlier ones; events emitted before the
    /// first call are dropped.
    public func setEventHandler(queue: DispatchQueue, _ handler: @escaping @Sendable (HostEvent) -> Void) {
        replaceEventHandler(queue: queue, handler)
    }
}
