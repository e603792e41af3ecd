// Readiness-driven reads on a thread of the channel's own and blocking-free writes on one non-blocking file descriptor, shared by every transport.

import Dispatch
import Foundation
import Glibc
import Synchronization

/// Owns a non-blocking descriptor: a reader thread of its own waits in poll() and hands each `read()` result to
/// `onChunk` on `queue`, entering it with `queue.sync` (run inline on the reader thread when the queue is free), so
/// bytes that arrive alone cost one thread wake-up, not the two of a dispatch read source (its event thread, then a
/// worker). Writes wait for writability with poll() (bounded by `writeTimeout`), never with a sleep. The descriptor
/// is closed by the reader thread as it ends. `datagrams` marks a packet socket (see ``write(_:)``).
///
/// Each started channel has one thread (kernel mode: one per connection's ATT socket, plus the HCI and management
/// sockets); it ends once the channel ends or is closed.
final class DescriptorChannel: @unchecked Sendable {
    let descriptor: Int32
    private let queue: DispatchQueue
    private let readCapacity: Int
    private let writeTimeoutMilliseconds: Int32
    private let operation: String
    /// A packet socket (one datagram per write), not a byte stream.
    private let datagrams: Bool
    /// The descriptor is a socket: writes go with `send(MSG_NOSIGNAL)`, so a peer that reset the connection gives
    /// EPIPE, not a SIGPIPE that would end the process.
    private let isSocket: Bool
    private let stateLock = NSLock()
    private let writeLock = NSLock()
    /// The write end of the pipe that wakes the reader thread from poll() to end; -1 before
    /// ``start(onChunk:onEnd:)`` and after the thread ended.
    private var wake: Int32 = -1
    private var started = false
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
        var status = stat()
        isSocket = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
    }

    deinit { buffer.deallocate() }

    /// The most reads one turn on the queue makes before it yields it (8 × 16 KiB of H4 is about 3,000 reports):
    /// other work on the host's queue (an app's connect, a timer) waits at most that long behind a flood.
    static let readsPerTurn = 8

    /// True when the last read turn stopped at its limit of ``readsPerTurn`` reads, or yielded to an app's request,
    /// with bytes still waiting: the host is behind what the other side sent (an answer it waits for may be among the
    /// unread bytes). Read on the channel's queue.
    var hasUnreadInput: Bool { stoppedAtLimit }
    /// The last read turn stopped before a read found nothing more (its limit, or a request) with bytes still waiting
    /// (asked of the descriptor when it stopped, ``isReadable()``): never left true by a turn that stopped with nothing unread, which would hold the
    /// host "behind" (its command deadlines postponed, its reports shed) until the other side sent something again.
    private var stoppedAtLimit = false

    /// ``hasUnreadInput``, or input has arrived since the last read (FIONREAD, asked only when the turn did not stop
    /// at its limit): a host handing over what it read while it waits for an answer stops to read first. On the queue.
    var hasInputWaiting: Bool { stoppedAtLimit || queuedBytes() > 0 }

    /// True while the chunk being handed over is part of a backlog (on the queue): on a stream it filled the read
    /// buffer or at least a quarter of a buffer more waits behind it (FIONREAD); on a packet socket it is at least the
    /// ``datagramsBehind``-th datagram of a turn that has not found the socket empty; or the previous turn stopped at
    /// ``readsPerTurn`` with input unread. The FIONREAD is asked only when needed, once per chunk.
    var isBehind: Bool {
        if let known = chunkBehind { return known }
        let known = queuedBytes() >= readCapacity / 4
        chunkBehind = known
        return known
    }
    /// What ``isBehind`` says of the chunk being handed over; nil while a stream's FIONREAD has not been asked for it.
    private var chunkBehind: Bool? = false
    /// Datagrams one turn reads before it counts as behind: a few waiting is ordinary, more is a backlog.
    static let datagramsBehind = 4

    /// True until the channel ended or was closed: an atomic read, asked once per packet a read holds.
    var isOpen: Bool { open.load(ordering: .acquiring) }
    /// False once ``finished`` is set (set under `stateLock`, read without it).
    private let open = Atomic<Bool>(true)

    /// Starts reading. `onChunk` gets each read's bytes on the queue and returns an error to end the channel; `onEnd`
    /// runs once, on the queue.
    func start(onChunk: @escaping @Sendable ([UInt8]) -> HCITransportError?, onEnd: @escaping @Sendable (HCITransportError?) -> Void) {
        stateLock.lock()
        guard !finished else {
            // close() came first, before there was an onEnd to call: it follows now, as close() promises.
            stateLock.unlock()
            closeDescriptor()
            return queue.async { onEnd(nil) }
        }
        var ends: [Int32] = [-1, -1]
        let piped = pipe(&ends) == 0
        let code = errno
        for end in ends where end >= 0 { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (waitEnd, wake) = piped ? (ends[0], ends[1]) : (-1, -1)
        self.onEnd = onEnd
        self.wake = wake
        started = true
        stateLock.unlock()
        guard wake >= 0 else {
            let error = HCITransportError(errno: code, operation: "pipe for \(operation)")
            return queue.async { [self] in finish(error) }
        }
        let thread = Thread { [self] in
            let flush = queue.sync { DispatchQueue.getSpecific(key: TurnFlush.key) }
            readLoop(onChunk, waitEnd: waitEnd, flush: flush)
        }
        thread.name = "OCB reader: \(operation)"
        thread.start()
    }

    /// The reader thread: waits for input (or the wake-up on `waitEnd` that ends it), reads on the queue, closes the
    /// descriptor last.
    /// Each read turn runs as a turn of the queue's `flush` point when it has one (a host's queue, ``TurnFlush``).
    private func readLoop(_ onChunk: @escaping ([UInt8]) -> HCITransportError?, waitEnd: Int32, flush: TurnFlush?) {
        defer {
            closeDescriptor()
            // Under the lock: a close() from another thread writes to `wake` only while it is still open.
            stateLock.lock()
            Glibc.close(wake)
            wake = -1
            stateLock.unlock()
            Glibc.close(waitEnd)
        }
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: waitEnd, events: Int16(POLLIN), revents: 0)]
        while isOpen {
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                let code = errno
                if code == EINTR { continue }
                queue.sync { finish(HCITransportError(errno: code, operation: "poll \(operation)")) }
                return
            }
            if descriptors[1].revents != 0 { return }
            let events = Int32(descriptors[0].revents)
            guard events != 0 else { continue }
            let progressed = queue.sync { flush.map { flush in flush.turn { readAvailable(onChunk, yieldingTo: flush) } } ?? readAvailable(onChunk, yieldingTo: nil) }
            // An error or hang-up that reads do not clear (no bytes, no end) would wake poll() forever: it ends the
            // channel with the socket's pending error instead.
            if !progressed, events & (POLLERR | POLLHUP | POLLNVAL) != 0 {
                let code = pendingError()
                queue.sync { finish(code == 0 ? .closed : HCITransportError(errno: code, operation: "poll \(operation)")) }
            }
        }
    }

    /// The bytes waiting to be read on a stream (FIONREAD); 0 when the descriptor cannot tell.
    private func queuedBytes() -> Int {
        var waiting: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &waiting) == 0 ? Int(waiting) : 0
    }

    /// The socket's pending error (SO_ERROR; 0 for a hang-up with none), EIO when the descriptor is not a socket.
    private func pendingError() -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return EIO }
        return code
    }

    /// Reads up to ``readsPerTurn`` times (on the queue), fewer when an app's request waits for the queue (`flush`,
    /// ``TurnFlush/hasWaitingRequests``): the turn then ends with the bytes left unread, and the request runs before
    /// the next; true when it read bytes or the channel ended.
    private func readAvailable(_ onChunk: ([UInt8]) -> HCITransportError?, yieldingTo flush: TurnFlush?) -> Bool {
        let startedBehind = stoppedAtLimit  // the previous turn stopped at its limit
        stoppedAtLimit = true  // until a read finds nothing more
        var progressed = false
        defer { chunkBehind = false }
        for index in 0..<Self.readsPerTurn {
            guard isOpen else { return true }
            // An app's request waits, or one ran in this turn's read: yield (what answers it comes in a later turn).
            if let flush, flush.hasWaitingRequests || flush.yieldsAfterRead {
                stoppedAtLimit = isReadable()
                return progressed
            }
            let count = Glibc.read(descriptor, buffer.baseAddress, readCapacity)
            if count > 0 {
                progressed = true
                let known = startedBehind || (datagrams ? index + 1 >= Self.datagramsBehind : count == readCapacity)
                chunkBehind = known || datagrams ? known : nil
                if let error = onChunk(Array(buffer[0..<count])) { finish(error); return true }
                continue
            }
            if count == 0 { finish(.closed); return true }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                stoppedAtLimit = false
                return progressed
            }
            finish(HCITransportError(errno: code, operation: "read from \(operation)"))
            return true
        }
        stoppedAtLimit = isReadable()
        return true
    }

    /// True when a read would find bytes now (poll with no wait): unlike FIONREAD, which the kernel's HCI sockets do
    /// not answer, it holds for every descriptor the channel reads (stream, datagram, tty).
    private func isReadable() -> Bool {
        var probe = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&probe, 1, 0) > 0 && Int32(probe.revents) & POLLIN != 0
    }

    /// Ends the channel from inside (on `queue`): wakes the reader thread to end and reports `error`.
    func finish(_ error: HCITransportError?) {
        let (first, onEnd) = markFinished()
        if first { onEnd?(error) }
    }

    /// Closes from outside (any thread): `onEnd(nil)` follows on the queue.
    func close() {
        let (first, onEnd) = markFinished()
        if first, let onEnd { queue.async { onEnd(nil) } }
    }

    /// Marks the channel finished and wakes the reader thread (which then closes the descriptor), or closes the
    /// descriptor at once when no reader thread runs; whether this call finished it, and the `onEnd` to call.
    private func markFinished() -> (first: Bool, onEnd: (@Sendable (HCITransportError?) -> Void)?) {
        stateLock.lock()
        guard !finished else { stateLock.unlock(); return (false, nil) }
        finished = true
        open.store(false, ordering: .releasing)
        let onEnd = self.onEnd
        self.onEnd = nil
        let readerRuns = started && wake >= 0
        if readerRuns {
            var one: UInt8 = 1
            _ = Glibc.write(wake, &one, 1)
        }
        stateLock.unlock()
        if !readerRuns { closeDescriptor() }
        return (true, onEnd)
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
                let start = raw.baseAddress.map { $0 + written }
                return isSocket ? Glibc.send(descriptor, start, bytes.count - written, Int32(MSG_NOSIGNAL))
                    : Glibc.write(descriptor, start, bytes.count - written)
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
