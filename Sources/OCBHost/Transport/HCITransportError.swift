// The typed error of every transport and kernel socket, with the one errno-to-error mapping and its advice.

import Glibc
import OCBHCI

/// Why a transport or kernel socket failed, worded to say what to do.
///
/// ``init(errno:operation:controller:)`` is the single mapping from a system error number to this type,
/// shared by the HCI socket, the H4 stream transports and the L2CAP socket.
public enum HCITransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// EAFNOSUPPORT: socket(AF_BLUETOOTH) is not available in this kernel.
    case noBluetoothSupport
    /// EPERM/EACCES during `operation`.
    case permissionDenied(operation: String)
    /// EBUSY: the controller is up or owned by another program (bluetoothd).
    case busy(controller: String)
    /// ENODEV: there is no such controller (e.g. "hci3").
    case noSuchController(String)
    /// ERFKILL: the controller is blocked by rfkill.
    case blockedByRfkill(controller: String)
    /// ENETDOWN: the controller went down while in use.
    case controllerDown
    /// The other side ended the stream or connection (end of file, connection closed).
    case closed
    /// ``HCITransport/send(_:)`` before open or after close.
    case notOpen
    /// ``HCITransport/open(queue:onPacket:onClose:)`` on a transport already opened.
    case alreadyOpen
    /// `operation` did not finish in time (ETIMEDOUT, or a deadline of ours).
    case timedOut(operation: String)
    /// The operation was cancelled by the caller.
    case cancelled
    /// The H4 byte stream is out of step (see ``H4Error``); the transport was closed.
    case framing(H4Error)
    /// A transport description that cannot be parsed (the message says what is wrong).
    case invalidSpecification(String)
    /// A serial baud rate termios cannot set.
    case unsupportedBaudRate(Int)
    /// A host name that could not be resolved.
    case addressLookup(host: String, message: String)
    /// Any other system error: the failed `operation` and its errno.
    case system(operation: String, errno: Int32)
    /// A recording to replay (``ReplayTransport``) that cannot be read: missing, unreadable, not a capture, empty.
    case replayUnreadable(path: String, reason: String)
    /// A recording already played once by this session (a lost controller is not replayed again from the start).
    case replayFinished(path: String)
    /// A strict replay met a packet the recording does not have (the stack's behaviour changed, or the file did).
    case replayMismatch(ReplayMismatch)

    /// Maps a system error number met during `operation` (e.g. "bind hci0 (user channel)") on `controller`.
    public init(errno code: Int32, operation: String, controller: String? = nil) {
        switch code {
        case EAFNOSUPPORT: self = .noBluetoothSupport
        case EPERM, EACCES: self = .permissionDenied(operation: operation)
        case EBUSY: self = .busy(controller: controller ?? "the controller")
        case ENODEV: self = .noSuchController(controller ?? "?")
        case ERFKILL: self = .blockedByRfkill(controller: controller ?? "the controller")
        case ENETDOWN: self = .controllerDown
        case ETIMEDOUT: self = .timedOut(operation: operation)
        case ECONNRESET, EPIPE, ENOTCONN: self = .closed
        default: self = .system(operation: operation, errno: code)
        }
    }

    public var description: String {
        switch self {
        case .noBluetoothSupport:
            "this kernel has no Bluetooth support (socket(AF_BLUETOOTH) gives EAFNOSUPPORT): load the bluetooth modules or use tcp:HOST:PORT or serial:DEVICE"
        case let .permissionDenied(operation):
            "\(operation): permission denied: needs CAP_NET_RAW (raw) or CAP_NET_ADMIN (user channel)"
        case let .busy(controller):
            "\(controller) is busy: the controller is up or owned by bluetoothd: power it off first (btmgmt power off / hciconfig down)"
        case let .noSuchController(name):
            "no such controller: \(name)"
        case let .blockedByRfkill(controller):
            "\(controller) is blocked by rfkill: unblock it (rfkill unblock bluetooth)"
        case .controllerDown:
            "the controller went down"
        case .closed:
            "transport closed by the other side"
        case .notOpen:
            "the transport is not open"
        case .alreadyOpen:
            "the transport is already open"
        case let .timedOut(operation):
            "\(operation) timed out"
        case .cancelled:
            "cancelled"
        case let .framing(error):
            "\(error)"
        case let .invalidSpecification(message):
            message
        case let .unsupportedBaudRate(rate):
            "baud rate \(rate) is not supported (use one of \(SerialPort.baudRates.keys.sorted().map(String.init).joined(separator: ", ")))"
        case let .addressLookup(host, message):
            "cannot resolve \(host): \(message)"
        case let .system(operation, code):
            "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case let .replayUnreadable(path, reason):
            "cannot replay \(path): \(reason)"
        case let .replayFinished(path):
            "the recording \(path) was played once already: make a new CBCentralManager to play it again"
        case let .replayMismatch(mismatch):
            mismatch.description
        }
    }
}
