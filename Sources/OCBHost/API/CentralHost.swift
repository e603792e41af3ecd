// The interface the CoreBluetooth facade drives: one per controller, in full-host or kernel mode.

import Dispatch
import OCBGATT
import OCBHCI
import OCBSMP

/// A Bluetooth LE central host for one controller.
///
/// Implemented by ``HostController`` (full host: we own the controller over H4 or the user channel) and
/// ``KernelHost`` (the Linux kernel owns the controller; we scan on a raw HCI socket and connect with
/// kernel L2CAP ATT sockets). Every method may be called from any thread; completions and events arrive
/// on the queue given to ``setEventHandler(queue:_:)`` (a private serial queue until then), in order.
///
/// Typical use: `setEventHandler`, `start`, wait for ``HostEvent/stateChanged(_:)`` to ``HostState/poweredOn``,
/// `startScan`, `connect(to:options:)` → ``HostEvent/connected(_:)`` → GATT procedures with `withGATT` (or raw ATT requests with `sendATTRequest`).
///
/// Each connection has one ATT bearer (``ATT/ATTBearer``) shared by its ``GATT/GATTClient`` and the raw ATT
/// calls: one request outstanding at a time in FIFO order, a 30 s transaction timeout (Core v5.4 Vol 3 Part F §3.3.3).
/// When a connection ends, its client is closed with ``GATT/GATTError/disconnected``: every pending procedure completes.
public protocol CentralHost: AnyObject, Sendable {
    /// The host's own serial queue, where its state lives. An event handler set on it (``setEventHandler(queue:_:)``)
    /// shares it: events and completions still come after the work that made them (never inside a call), but with no
    /// hand-over to another thread: what a read brought is handed over at the end of the read's turn, in place. The
    /// synchronous calls (``state``, ``linkMTU(on:)``, ``canSendWriteWithoutResponse(_:)``) run in place there.
    /// The CoreBluetooth backend runs on it.
    var queue: DispatchQueue { get }
    /// Sets where and to whom events and completions are delivered (replaces any earlier handler).
    func setEventHandler(queue: DispatchQueue, _ handler: @escaping @Sendable (HostEvent) -> Void)
    /// ``setEventHandler(queue:_:)`` with the discoveries (``HostEvent/discovered(_:)``) handed to `discoveries`
    /// instead, a turn of the event queue's worth at a time, in the order found (about 256: the reports of one event
    /// that take a read's batch past 256 stay in it; an LE Advertising Report event carries at most 25, Core v5.4
    /// Vol 4 Part E §7.7.65.2): a consumer that takes a lock or builds a value per discovery takes it once per batch.
    /// The other events go to `handler` as before, and overtake the discoveries as they do there.
    func setEventHandler(queue: DispatchQueue, _ handler: @escaping @Sendable (HostEvent) -> Void,
                         discoveries: @escaping @Sendable ([DiscoveredDevice]) -> Void)
    /// Discoveries (``HostEvent/discovered(_:)``) dropped because the handler was slower than the air: at most 16,384
    /// wait for it; safe from any thread. Counts since the host was made.
    var droppedDiscoveryCount: Int { get }
    /// Opens the controller and brings it up; the completion gets what was learned or why it failed
    /// (``HostError/noBluetoothSupport``, ``HostError/commandTimeout(_:)``, ...). Starting a started host restarts it.
    func start(completion: @escaping @Sendable (Result<ControllerInfo, HostError>) -> Void)
    /// Ends every connection and attempt (with ``HostError/stopped``), stops scanning and closes the transport.
    func stop()
    /// ``stop()``, then `completion` on the host's own queue once the scan is ended on the controller (or the wait
    /// for that gave up) and the transport is closed: a process about to exit waits on it so it leaves no scan behind.
    func stop(completion: @escaping @Sendable () -> Void)
    /// Starts (or restarts with new options) scanning; discoveries arrive as ``HostEvent/discovered(_:)``.
    func startScan(_ options: ScanOptions, completion: @escaping @Sendable (HostError?) -> Void)
    /// Stops scanning; held advertisements are released first.
    func stopScan(completion: @escaping @Sendable (HostError?) -> Void)
    /// Queues a connection attempt; it ends in ``HostEvent/connected(_:)`` or ``HostEvent/connectionFailed(_:_:)``.
    func connect(to peer: PeerAddress, options: ConnectOptions)
    /// Cancels the attempts for `peer` (a pending one ends with ``HostError/connectCancelled(_:)``).
    func cancelConnect(to peer: PeerAddress)
    /// Disconnects (Core v5.4 Vol 4 Part E §7.1.6; reason default 0x13 Remote User Terminated Connection);
    /// ends in ``HostEvent/disconnected(_:reason:error:)`` with a nil error.
    func disconnect(_ handle: ConnectionHandle, reason: HCIErrorCode)
    /// Reads the RSSI of a connection in dBm (Read RSSI, Vol 4 Part E §7.5.4).
    func readRSSI(_ handle: ConnectionHandle, completion: @escaping @Sendable (Result<Int8, HostError>) -> Void)
    /// Sends an ATT request PDU (one outstanding per connection, queued otherwise) and delivers its response PDU —
    /// an Error Response (0x01) is a response too; fails on timeout (30 s) or disconnection.
    func sendATTRequest(_ pdu: [UInt8], on handle: ConnectionHandle, completion: @escaping @Sendable (Result<[UInt8], HostError>) -> Void)
    /// Sends an ATT PDU that expects no response (Write Command, Signed Write Command, or any raw PDU for tests).
    func sendATT(_ pdu: [UInt8], on handle: ConnectionHandle, completion: @escaping @Sendable (HostError?) -> Void)
    /// Exchanges the ATT MTU (Vol 3 Part F §3.4.2.1) offering `mtu`; delivers the resulting ATT_MTU.
    func exchangeMTU(_ mtu: UInt16, on handle: ConnectionHandle, completion: @escaping @Sendable (Result<UInt16, HostError>) -> Void)
    /// ATT_MTU of connection `handle` (23 until an MTU exchange, Core v5.4 Vol 3 Part F §3.2.8, §3.4.2) as its bearer,
    /// which owns it, publishes it: read ``LinkMTU/value`` from any thread, for as long as the connection lasts. Nil
    /// when there is no such connection. Finding it is a hop onto the host's queue (none inside a `withGATT` body).
    func linkMTU(on handle: ConnectionHandle) -> LinkMTU?
    /// Runs `body` on the host's queue with the GATT client of connection `handle` (nil when there is no such
    /// connection). Procedures started in `body` go out when it returns; their completions, value handlers and the
    /// client's serviceChangeHandler run on the host's queue (hop to your own queue there).
    func withGATT(_ handle: ConnectionHandle, _ body: @escaping @Sendable (GATTClient?) -> Void)
    /// Runs `work` on the event queue (``setEventHandler(queue:_:)``) after every event and completion handed over
    /// before it. Called on the host's queue (a `withGATT` body, a value handler), it joins what the same block hands
    /// over: one hand-over for all of them, no dispatch of its own, so a subscriber's values at line rate cost no
    /// thread wake-up each. Safe from any thread.
    func deliverOnEventQueue(_ work: @escaping @Sendable () -> Void)
    /// Encrypts connection `handle` (Core v5.4 Vol 3 Part H): with a bond's key when the peer is bonded, else by
    /// pairing (and bonding); delivers the link's security once encrypted, or the error (``HostError/pairingFailed(_:_:byPeer:)``,
    /// ``HostError/encryptionFailed(_:_:)``, ``HostError/notConnected(_:)``, ``HostError/disconnected(_:_:)``).
    func secure(_ handle: ConnectionHandle, completion: @escaping @Sendable (Result<LinkSecurity, HostError>) -> Void)
    /// The current security of connection `handle`; nil when there is no such connection.
    func security(of handle: ConnectionHandle) -> LinkSecurity?
    /// The IO capability of later pairings (Core v5.4 Vol 3 Part H §2.3.2): KeyboardDisplay when a user can answer
    /// ``HostEvent/pairingPrompt(handle:prompt:)``, NoInputNoOutput (Just Works only) otherwise. Kernel mode: ignored
    /// (the kernel's IO capability is bluetoothd's agent's, or NoInputNoOutput).
    func setPairingIOCapability(_ capability: SMPIOCapability)
    /// The user's answer to the pairing prompt `id` of connection `handle`; nothing when that prompt no longer waits
    /// (its pairing ended, or a newer prompt replaced it).
    func answerPairing(_ handle: ConnectionHandle, _ answer: PairingAnswer, prompt id: UInt64)
    /// True when a Write Without Response on `handle` would go out now (ACL buffers and queue not full).
    func canSendWriteWithoutResponse(_ handle: ConnectionHandle) -> Bool
    /// The host's current state.
    var state: HostState { get }
}

extension CentralHost {
    /// ``setEventHandler(queue:_:discoveries:)`` for a host that hands discoveries over one at a time: each
    /// ``HostEvent/discovered(_:)`` goes to `discoveries` as a batch of one, everything else to `handler`.
    public func setEventHandler(queue: DispatchQueue, _ handler: @escaping @Sendable (HostEvent) -> Void,
                                discoveries: @escaping @Sendable ([DiscoveredDevice]) -> Void) {
        setEventHandler(queue: queue) { event in
            if case .discovered(let device) = event { discoveries([device]) } else { handler(event) }
        }
    }
}
