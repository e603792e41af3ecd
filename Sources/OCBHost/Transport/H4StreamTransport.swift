// HCI over an H4 byte stream: a TCP connection, a serial line, a pty or any stream descriptor.

import Dispatch
import Foundation
import Glibc
import OCBHCI

/// The UART transport (H4, Core v5.4 Vol 4 Part A §2) over a byte stream: each packet is its indicator
/// byte then its bytes, framed by ``H4Decoder`` (packets split over reads or several per read).
///
/// The stream is set up in ``open(queue:onPacket:onClose:)``: a TCP client connection
/// (``Endpoint/tcp(host:port:)``), a serial device configured raw 8N1 with a baud rate and RTS/CTS
/// (``Endpoint/serial(path:baudRate:flowControl:)``, also a pty), or a descriptor given by the caller,
/// which the transport then owns and closes. End of stream ends it with ``HCITransportError/closed``;
/// a bad packet indicator with ``HCITransportError/framing(_:)`` (H4 cannot resynchronise).
public final class H4StreamTransport: HCITransport, @unchecked Sendable {
    /// Where the byte stream comes from.
    public enum Endpoint: Hashable, Sendable, CustomStringConvertible {
        /// An already open stream descriptor (socket, pty, pipe); the transport takes ownership.
        case fileDescriptor(Int32)
        /// A TCP connection to `host` (name or address) and `port`, made on open (5 s connect timeout).
        case tcp(host: String, port: UInt16)
        /// A serial device (or pty) at `path`, `baudRate` bits/s, 8N1, raw, RTS/CTS if `flowControl`.
        case serial(path: String, baudRate: Int, flowControl: Bool)

        public var description: String {
            switch self {
            case let .fileDescriptor(descriptor): "fd \(descriptor)"
            case let .tcp(host, port): "tcp:\(host):\(port)"
            case let .serial(path, rate, _): "serial:\(path)@\(rate)"
            }
        }
    }

    /// Where the stream comes from.
    public let endpoint: Endpoint
    private let lock = NSLock()
    private var channel: DescriptorChannel?
    private var opened = false

    /// True while the last read turn left bytes unread (``HCITransport/hasUnreadInput``); on the transport's queue.
    public var hasUnreadInput: Bool { lock.withLock { channel }?.hasUnreadInput ?? false }

    /// True while the last read turn left bytes unread or bytes came since (``HCITransport/hasInputWaiting``); on the
    /// transport's queue.
    public var hasInputWaiting: Bool { queueChannel?.hasInputWaiting ?? false }

    /// True while the read being handed over is part of a backlog (``HCITransport/isBehind``); on the transport's queue.
    /// Asked for each advertising report of a flood while the host waits for an answer: read without the lock.
    public var isBehind: Bool { queueChannel?.isBehind ?? false }
    /// ``channel``, for reads on the transport's queue only: set in ``open(queue:onPackets:onClose:)`` before the
    /// first read is handed over on that queue, never changed after.
    nonisolated(unsafe) private var queueChannel: DescriptorChannel?

    /// Makes a transport for `endpoint`; nothing is opened until ``open(queue:onPacket:onClose:)``.
    public init(endpoint: Endpoint) { self.endpoint = endpoint }

    /// Opens the stream and starts framing it. Throws ``HCITransportError`` when the connection or device fails
    /// (e.g. ``HCITransportError/system(operation:errno:)`` with ECONNREFUSED), or ``HCITransportError/alreadyOpen``.
    public func open(queue: DispatchQueue, onPacket: @escaping @Sendable (HCIPacket) -> Void,
                     onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        try open(queue: queue, onPackets: { walk in _ = walk { type, bytes in onPacket(HCIPacket(type: type, bytes: Array(bytes))); return .next } },
                 onClose: onClose)
    }

    /// Opens the stream and frames each read in place (``HCI/H4Decoder/frames(in:_:)``): the packets of a read are
    /// one walk, a packet lying wholly in the read handed over as a slice of it. A framing error ends the stream
    /// after the packets before it. Throws as ``open(queue:onPacket:onClose:)``.
    public func open(queue: DispatchQueue, onPackets: @escaping @Sendable (HCIPacketWalk) -> Void,
                     onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        lock.lock()
        defer { lock.unlock() }
        guard !opened else { throw .alreadyOpen }
        let descriptor: Int32
        switch endpoint {
        case let .fileDescriptor(given): descriptor = given
        case let .tcp(host, port): descriptor = try TCPConnector.connect(host: host, port: port)
        case let .serial(path, rate, flow): descriptor = try SerialPort.open(path: path, baudRate: rate, flowControl: flow)
        }
        opened = true
        let channel = DescriptorChannel(descriptor: descriptor, queue: queue, readCapacity: 16_384,
                                        operation: endpoint.description)
        self.channel = channel
        queueChannel = channel
        let framer = H4Framer()
        channel.start(onChunk: { [unowned channel] chunk in
            var failure: H4Error?
            onPackets { body in
                var passedOver = 0
                do throws(H4Error) {
                    // A packet that ends the channel (the host closing it) stops the framing: nothing after it is handed over.
                    try framer.decoder.frames(in: chunk, passingOver: &passedOver, stepping: { type, bytes in
                        let step = body(type, bytes)
                        return channel.isOpen ? step : .stop
                    })
                } catch {
                    failure = error
                }
                return passedOver
            }
            return failure.map { .framing($0) }
        }, onEnd: onClose)
    }

    /// Sends `packet` as H4 bytes. Throws ``HCITransportError/notOpen`` or the mapped write error.
    public func send(_ packet: HCIPacket) throws(HCITransportError) {
        lock.lock()
        let channel = self.channel
        lock.unlock()
        guard let channel else { throw .notOpen }
        try channel.write(packet.h4Bytes)
    }

    /// Closes the stream; `onClose(nil)` follows on the queue.
    public func close() {
        lock.lock()
        let channel = self.channel
        lock.unlock()
        channel?.close()
    }
}

/// The decoder state of one open stream, touched only on the transport's queue.
private final class H4Framer: @unchecked Sendable {
    var decoder = H4Decoder()
}
