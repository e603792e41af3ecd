// The one interface every HCI transport offers: open with callbacks, send a packet, close.

import Dispatch
import OCBHCI

/// A way to exchange HCI packets with a controller (Core v5.4 Vol 4 Part A: UART/H4 over a serial line
/// or TCP; or the Linux kernel's HCI socket).
///
/// Life cycle: make the transport (cheap, never fails), ``open(queue:onPacket:onClose:)`` it (the
/// connection, socket or device is set up here and failures are thrown), ``send(_:)`` packets from any
/// thread, ``close()`` it. Both callbacks run on `queue`. `onClose` runs exactly once after a successful
/// open: with nil after ``close()``, with the error when the transport ended by itself (end of stream is
/// ``HCITransportError/closed``). No `onPacket` follows `onClose`.
public protocol HCITransport: AnyObject, Sendable {
    /// Sets the transport up and starts delivering received packets on `queue`.
    /// Throws ``HCITransportError`` (e.g. ``HCITransportError/noBluetoothSupport``, ``HCITransportError/alreadyOpen``).
    func open(queue: DispatchQueue, onPacket: @escaping @Sendable (HCIPacket) -> Void,
              onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError)

    /// Opens as ``open(queue:onPacket:onClose:)`` does, handing the packets of each read over together and in place:
    /// `onPackets` gets an ``HCIPacketWalk`` that calls its body with each packet's type and bytes (header and
    /// payload, without the H4 indicator), a transport that reads many packets at once (an H4 stream) giving slices of
    /// the read. A packet the host only looks at (an advertising report, one skipped unread during a flood) costs no
    /// copy, and the host pays its own per-callback costs (its weak reference, its checks) once a read, not once a
    /// packet. A slice kept beyond the call keeps its whole read alive. The default wraps ``open(queue:onPacket:onClose:)``
    /// (a walk of one packet).
    func open(queue: DispatchQueue, onPackets: @escaping @Sendable (HCIPacketWalk) -> Void,
              onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError)

    /// Sends one packet (its whole H4 form, indicator first), waiting for writability if the kernel buffer is full.
    /// Throws ``HCITransportError/notOpen`` before open or after close, or the mapped system error.
    func send(_ packet: HCIPacket) throws(HCITransportError)

    /// Stops the transport and releases its descriptor; `onClose(nil)` follows on the queue. Idempotent.
    func close()

    /// True while the transport has read less than the controller sent (its last read turn stopped with bytes still
    /// waiting), read on the transport's queue: a command's answer may be among them, so the host does not count that
    /// time against the command's timeout.
    var hasUnreadInput: Bool { get }

    /// ``hasUnreadInput``, or bytes have come since the last read (a socket's FIONREAD), read on the transport's
    /// queue: while the host waits for an answer it reads them before it hands over the discoveries it already read,
    /// so a connect's LE Connection Complete during a flood is not left waiting behind a turn of discoveries.
    var hasInputWaiting: Bool { get }

    /// True while the read being handed over is part of a backlog, asked on the transport's queue while it hands it
    /// over: the read filled the read buffer (a stream), or the turn has read several datagrams without finding the
    /// socket empty, or the previous turn stopped at its limit with input unread. One waiting byte or datagram is not
    /// a backlog (a UART or a busy channel always has one). The host is then behind what the controller sent
    /// (``SerialHost``'s shedding of advertising reports while a command's answer may be among them).
    var isBehind: Bool { get }

    /// The clock the host must read and wait on while this transport is open, or nil for the system's
    /// (``SystemHostClock``). A transport playing a recording gives its ``ReplayClock``.
    var clock: (any HostClock)? { get }

    /// Lines worth telling the app's developer that arose since the last call (a tolerant replay's answers by default:
    /// "replay (tolerant): command 0x2041 …: answered as a plain controller would"); the host logs each once, after a
    /// send. Empty for a transport with nothing to say.
    func takeNotices() -> [String]
}

extension HCITransport {
    /// Each packet as ``open(queue:onPacket:onClose:)`` gives it, as a walk of one packet, its bytes a slice of its own array.
    public func open(queue: DispatchQueue, onPackets: @escaping @Sendable (HCIPacketWalk) -> Void,
                     onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        try open(queue: queue, onPacket: { packet in onPackets { body in _ = body(packet.type, packet.bytes[...]); return 0 } }, onClose: onClose)
    }
    /// False for a transport that cannot tell (it delivers what it has at once).
    public var hasUnreadInput: Bool { false }
    /// ``HCITransport/hasUnreadInput``, for a transport that cannot tell more.
    public var hasInputWaiting: Bool { hasUnreadInput }
    /// False for a transport that cannot tell (it delivers what it has at once).
    public var isBehind: Bool { false }
    /// Nil: the system's clock.
    public var clock: (any HostClock)? { nil }
    /// Nothing to say.
    public func takeNotices() -> [String] { [] }
}

/// The packets of one read, as ``HCITransport/open(queue:onPackets:onClose:)`` hands them over: called with a body,
/// it calls the body with each packet's type and bytes (header and payload, without the H4 indicator; for an H4
/// stream a slice of the read, for a packet split over reads one of the framer's buffer), in order, then returns.
/// Valid only during the `onPackets` call it was given to.
///
/// The body answers each packet with an ``HCI/H4FrameStep``. ``HCI/H4FrameStep/skipLegacyAdvertisingReports`` lets
/// a transport that frames many packets per read (an H4 stream) pass over the legacy advertising report events that
/// follow, up to the next other packet or the read's end, without a call per report (the host shedding reports while
/// an answer waits behind them). The walk returns how many it passed over, for the host to count. A transport
/// that reads one packet at a time (an HCI socket) has nothing to pass over and returns 0: the body then sees each
/// report and sheds it itself, the same outcome. ``HCI/H4FrameStep/stop`` ends the walk (a transport stops at
/// its own close anyway).
public typealias HCIPacketWalk = (_ body: (HCIPacketType, ArraySlice<UInt8>) -> H4FrameStep) -> Int
