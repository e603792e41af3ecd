// The Linux HCI monitor channel as a read-only socket: every controller's packets as the kernel sees them, like btmon.

@_implementationOnly import COCBBlueZ
import Dispatch
import Foundation
import Glibc
import OCBHCI

/// A read-only socket on the Linux HCI monitor channel: socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI) bound to
/// HCI_DEV_NONE on HCI_CHANNEL_MONITOR (2), the channel btmon reads (kernel `net/bluetooth/hci_sock.c`).
///
/// The kernel copies into it every command, event and ACL/SCO/ISO packet of every controller, whoever sent it (the
/// kernel's own host, bluetoothd, raw sockets), each as one ``HCIMonitorFrame`` stamped with the kernel's receive
/// time (SO_TIMESTAMP). Right after open it first replays index records (new index, index info, open index) for the
/// controllers that exist. Nothing can be sent on it. Opening needs CAP_NET_RAW.
///
/// Frames are handed to `onFrame` on the socket's own serial queue, in the kernel's order.
public final class HCIMonitorSocket: @unchecked Sendable {
    /// The largest datagram read whole: the 6-byte header and an HCI packet of up to 65 539 bytes (ACL header and
    /// a 16-bit length); longer datagrams arrive cut and give ``HCIMonitorFrameError/lengthMismatch(declared:actual:)``.
    static let readCapacity = 6 + 4 + 65_535
    private let queue = DispatchQueue(label: "OpenCoreBluetooth.HCIMonitorSocket")
    private var source: DispatchSourceRead?
    private var descriptor: Int32 = -1
    private var onFrame: (@Sendable (Result<HCIMonitorFrame, HCIMonitorFrameError>) -> Void)?
    private var onClose: (@Sendable (HCITransportError?) -> Void)?
    private var buffer: [UInt8] = []

    /// Makes a closed socket.
    public init() {}

    // A socket dropped while open stops reading and closes its descriptor (the read handler holds it weakly).
    deinit { source?.cancel() }

    /// Opens the monitor channel and starts reading. `onFrame` gets each datagram parsed (or why it could not be);
    /// `onClose` runs once if the channel ends by itself (a read error), never after ``close()``. Throws
    /// ``HCITransportError/noBluetoothSupport`` (EAFNOSUPPORT), ``HCITransportError/permissionDenied(operation:)``
    /// (EPERM without CAP_NET_RAW) or ``HCITransportError/alreadyOpen``.
    public func open(onFrame: @escaping @Sendable (Result<HCIMonitorFrame, HCIMonitorFrameError>) -> Void,
                     onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        let failure: HCITransportError? = queue.sync {
            guard source == nil else { return .alreadyOpen }
            let opened = cbluez_hci_monitor_open()
            guard opened >= 0 else { return HCITransportError(errno: errno, operation: "open the HCI monitor channel") }
            descriptor = opened
            buffer = [UInt8](repeating: 0, count: Self.readCapacity)
            self.onFrame = onFrame
            self.onClose = onClose
            let source = DispatchSource.makeReadSource(fileDescriptor: opened, queue: queue)
            source.setEventHandler { [weak self] in self?.readAvailable(limit: 64) }
            source.setCancelHandler { Glibc.close(opened) }
            self.source = source
            source.resume()
            return nil
        }
        if let failure { throw failure }
    }

    /// Hands every datagram already queued in the socket to `onFrame`, then closes it; returns when the last one was
    /// handed over. `onClose` is not called. No effect when not open. Must not be called from `onFrame`.
    public func close() {
        queue.sync {
            guard source != nil else { return }
            readAvailable(limit: Int.max)
            end(nil, report: false)
        }
    }

    /// Reads datagrams until the socket is empty or `limit` were read (on `queue`).
    private func readAvailable(limit: Int) {
        var count = 0
        while count < limit, source != nil {
            var timestamp: Int64 = 0
            let length = buffer.withUnsafeMutableBytes { raw in
                cbluez_recv_timestamped(descriptor, raw.baseAddress, raw.count, &timestamp)
            }
            if length < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { return }
                return end(HCITransportError(errno: code, operation: "read the HCI monitor channel"), report: true)
            }
            count += 1
            if timestamp == 0 { timestamp = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded()) }
            // MSG_TRUNC: `length` is the whole datagram's; a cut one fails to parse with its header's length.
            let bytes = Array(buffer[0..<min(length, buffer.count)])
            onFrame?(Result { () throws(HCIMonitorFrameError) in try HCIMonitorFrame(bytes: bytes, timestamp: timestamp) })
        }
    }

    /// Cancels the read source (which closes the descriptor) and forgets the handlers (on `queue`).
    private func end(_ error: HCITransportError?, report: Bool) {
        let closing = onClose
        source?.cancel()
        source = nil
        descriptor = -1
        onFrame = nil
        onClose = nil
        buffer = []
        if report { closing?(error) }
    }
}
