// Readiness-driven reads and blocking-free writes on one non-blocking file descriptor, shared by every transport.

import Dispatch
import Foundation
import Glibc

/// Owns a non-blocking descriptor: a dispatch read source hands each `read()` result to `onChunk` on
/// `queue`; writes wait for writability with poll() (bounded by `writeTimeout`), never with a sleep.
/// The descriptor is closed once the source is cancelled. `datagrams` marks a packet socket (see ``write(_:)``).
final class DescriptorChannel: @unchecked Sendable {
    let descriptor: Int32
    private let queue: DispatchQueue
    private let readCapacity: Int
    private let writeTimeoutMilliseconds: Int32
    private let operation: String
    /// A packet socket (one datagram per write), not a byte stream.
    private let datagrams: Bool
    private let stateLock = NSLock()
    private let writeLock = NSLock()
    private var source: DispatchSourceRead?
    private var finished = false
    private var descriptorClosed = false
    private var onEnd: (@Sendable (HCITransportError?) -> Void)?
    private let buffer: UnsafeMutableRawBufferPointer

    /// Takes ownership of `descriptor` (made non-blocking here). `readCapacity` must hold the largest datagram.
    init(descriptor: Int32, queue: DispatchQueue, readCapacity: Int = 65_544, writeTimeoutMilliseconds: Int32 = 5_000,
         operation: String, datagrams: Bool = false) {
        self.datagrams = datagrams
        self.descriptor = descriptor
        self.queue = queue
        self.readCapacity = readCapacity
        self.writeTimeoutMilliseconds = writeTimeoutMilliseconds
        self.operation = operation
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readCapacity, alignment: 8)
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
    }

    deinit { buffer.deallocate() }

    /// The most reads one readiness event makes before it yields the queue (8 × 16 KiB of H4 is about 3,000 reports):
    /// other work on the host's queue (an app's connect, a timer) waits at most that long behind a flood.
    static let readsPerTurn = 8

    /// True when the last read turn stopped at its limit of ``readsPerTurn`` reads with bytes still waiting: the host is behind what
    /// the other side sent (an answer it waits for may be among the unread bytes). Read on the channel's queue.
    private(set) var hasUnreadInput = false

    /// True until the channel ended or was closed.
    var isOpen: Bool {
        stateLock.lock()
        defer { stateLock.unlock() }
        return !finished
    }

    /// Starts reading. `onChunk` gets each read's bytes and returns an error to end the channel; `onEnd` runs once.
    func start(onChunk: @escaping @Sendable ([UInt8]) -> HCITransportError?, onEnd: @escaping @Sendable (HCITransportError?) -> Void) {
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        stateLock.lock()
        self.source = source
        self.onEnd = onEnd
        stateLock.unlock()
        source.setEventHandler { [self] in readAvailable(onChunk) }
        source.setCancelHandler { [self] in closeDescriptor() }
        source.resume()
    }

    private func readAvailable(_ onChunk: ([UInt8]) -> HCITransportError?) {
        hasUnreadInput = true  // until a read finds nothing more
        for _ in 0..<Self.readsPerTurn {
            guard isOpen else { return }
            let count = Glibc.read(descriptor, buffer.baseAddress, readCapacity)
            if count > 0 {
                if let error = onChunk(Array(buffer[0..<count])) { finish(error); return }
                continue
            }
            if count == 0 { finish(.closed); return }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                hasUnreadInput = false
                return
            }
            finish(HCITransportError(errno: code, operation: "read from \(operation)"))
            return
        }
    }

    /// Ends the channel from inside (on `queue`): cancels the source and reports `error`.
    func finish(_ error: HCITransportError?) {
        stateLock.lock()
        guard !finished else { stateLock.unlock(); return }
        finished = true
        let source = self.source
        let onEnd = self.onEnd
        self.onEnd = nil
        stateLock.unlock()
        if let source { source.cancel() } else { closeDescriptor() }
        onEnd?(error)
    }

    /// Closes from outside (any thread): `onEnd(nil)` follows on the queue.
    func close() {
        stateLock.lock()
        guard !finished else { stateLock.unlock(); return }
        finished = true
        let source = self.source
        let onEnd = self.onEnd
        self.onEnd = nil
        stateLock.unlock()
        if let source {
            source.cancel()
            queue.async { onEnd?(nil) }
        } else {
            closeDescriptor()
        }
    }

    private func closeDescriptor() {
        writeLock.lock()
        defer { writeLock.unlock() }
        guard !descriptorClosed else { return }
        descriptorClosed = true
        _ = Glibc.close(descriptor)
    }

    /// Writes all of `bytes` (one datagram on packet sockets), waiting with poll() while the kernel buffer is full. On
    /// a datagram channel a write that returns 0 counts as sent; on a stream it throws (EIO).
    func write(_ bytes: [UInt8]) throws(HCITransportError) {
        writeLock.lock()
        defer { writeLock.unlock() }
        guard !descriptorClosed, isOpen else { throw .notOpen }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress.map { $0 + written }, bytes.count - written)
            }
            if count > 0 { written += count; continue }
            // A packet socket takes a datagram whole or not at all; the kernel's management channel answers a command
            // it refuses (Permission Denied) with a status event and returns 0, and writing again would send it again.
            if count == 0 {
                guard datagrams else { throw HCITransportError(errno: EIO, operation: "write to \(operation) (0 bytes written)") }
                return
            }
            let code = errno
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else {
                throw HCITransportError(errno: code, operation: "write to \(operation)")
            }
            var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&pollDescriptor, 1, writeTimeoutMilliseconds)
            if ready == 0 { throw .timedOut(operation: "write to \(operation)") }
            if ready < 0, errno != EINTR { throw HCITransportError(errno: errno, operation: "poll \(operation)") }
        }
    }
}
