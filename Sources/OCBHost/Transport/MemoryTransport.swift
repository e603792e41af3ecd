// H4 over memory: a transport whose controller is code in the same process, read in turns as a stream socket is.

import Dispatch
import Foundation
import OCBHCI
import Synchronization

/// An H4 byte stream (Core v5.4 Vol 4 Part A §2) held in memory: the controller is a closure in this process, which
/// gets each packet the host sends and answers by handing bytes to ``receive(_:)``. What it hands over is read on the
/// host's queue as ``H4StreamTransport`` reads a socket, without the thread, the system calls and the kernel's copy:
/// in chunks of ``chunkSize`` bytes, at most ``DescriptorChannel/readsPerTurn`` chunks a turn of the queue (each turn a
/// ``TurnFlush`` turn, yielding to an app's waiting request), framed in place by ``HCI/H4Decoder/frames(in:_:)`` and
/// handed over as one ``HCIPacketWalk`` a chunk. A chunk is ``isBehind`` when at least a quarter of a chunk waits after
/// it, or the previous turn stopped at its limit, as a socket's FIONREAD would say.
///
/// For benchmarks and tests of everything above the wire (`Benchmarks --scan-path` measures H4 bytes to `didDiscover`
/// with it). Bound: the bytes waiting are what the controller code handed over and the host has not read; that code
/// is the process's own, and it sets the pace (a benchmark hands a whole stream over at once). A bad packet indicator
/// ends the transport with ``HCITransportError/framing(_:)`` after the packets before it, as on a socket.
public final class MemoryTransport: HCITransport, @unchecked Sendable {
    /// The controller's side: called with each packet the host sends (on the sending thread, in order) and this
    /// transport, to answer with ``receive(_:)``.
    public typealias Controller = @Sendable (_ packet: HCIPacket, _ transport: MemoryTransport) -> Void

    /// The most bytes one read takes, as ``H4StreamTransport``'s read buffer (16 KiB).
    public let chunkSize: Int
    private let controller: Controller
    private let lock = NSLock()
    /// What the controller handed over and the host has not read, oldest first; `offset` into the first.
    private var inbound: [[UInt8]] = []
    private var offset = 0
    private var waitingBytes = 0
    private var queue: DispatchQueue?
    private var onPackets: (@Sendable (HCIPacketWalk) -> Void)?
    private var onClose: (@Sendable (HCITransportError?) -> Void)?
    private var scheduled = false
    private var state = State.unopened
    /// True while ``state`` is open: set under `lock`, read without it once per packet.
    private let isOpen = Atomic<Bool>(false)
    /// The read handed over is part of a backlog; set and read on the queue.
    nonisolated(unsafe) private var chunkBehind = false
    nonisolated(unsafe) private var unread = false
    nonisolated(unsafe) private var decoder = H4Decoder()

    private enum State { case unopened, open, closed }

    /// A transport whose controller is `controller`; `chunkSize` (at least 260, an event's largest H4 packet) is the
    /// most one read hands over.
    public init(chunkSize: Int = 16_384, controller: @escaping Controller) {
        self.chunkSize = max(260, chunkSize)
        self.controller = controller
    }

    /// True while the last turn stopped at its limit with bytes still waiting (``HCITransport/hasUnreadInput``).
    public var hasUnreadInput: Bool { unread }

    /// True while the last turn stopped at its limit or bytes came since (``HCITransport/hasInputWaiting``).
    public var hasInputWaiting: Bool { unread || lock.withLock { waitingBytes > 0 } }

    /// True while the read being handed over is part of a backlog (``HCITransport/isBehind``).
    public var isBehind: Bool { chunkBehind }

    /// Opens: packets go to `onPacket` one by one. Throws ``HCITransportError/alreadyOpen`` when opened before.
    public func open(queue: DispatchQueue, onPacket: @escaping @Sendable (HCIPacket) -> Void,
                     onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        try open(queue: queue, onPackets: { walk in _ = walk { type, bytes in onPacket(HCIPacket(type: type, bytes: Array(bytes))); return .next } },
                 onClose: onClose)
    }

    /// Opens: each read's packets go to `onPackets` as one walk, in place. Throws ``HCITransportError/alreadyOpen``
    /// when opened before (a transport is opened once).
    public func open(queue: DispatchQueue, onPackets: @escaping @Sendable (HCIPacketWalk) -> Void,
                     onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        lock.lock()
        defer { lock.unlock() }
        guard state == .unopened else { throw .alreadyOpen }
        state = .open
        isOpen.store(true, ordering: .releasing)
        self.queue = queue
        self.onPackets = onPackets
        self.onClose = onClose
        // Bytes the controller gave before the open are read in a turn of their own.
        if waitingBytes > 0 {
            scheduled = true
            queue.async { [self] in runTurn() }
        }
    }

    /// Gives `packet` (whole, as the host sends it) to the controller. Throws ``HCITransportError/notOpen`` before
    /// open and after close.
    public func send(_ packet: HCIPacket) throws(HCITransportError) {
        guard lock.withLock({ state == .open }) else { throw .notOpen }
        controller(packet, self)
    }

    /// Bytes from the controller: H4 packets, indicator first, split anywhere. Read on the host's queue in order;
    /// ignored after close.
    public func receive(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let accepted = lock.withLock { () -> Bool in
            guard state != .closed else { return false }
            inbound.append(bytes)
            waitingBytes += bytes.count
            return true
        }
        if accepted { scheduleIfNeeded() }
    }

    /// The controller goes away: the host gets `onClose` with ``HCITransportError/closed`` after the bytes it already
    /// had (as at the end of a stream).
    public func end() {
        finish(.closed, afterPending: true)
    }

    /// Stops the transport: nothing more is read, `onClose(nil)` follows on the queue. Idempotent.
    public func close() {
        finish(nil, afterPending: false)
    }

    private func finish(_ error: HCITransportError?, afterPending: Bool) {
        let (queue, onClose) = lock.withLock { () -> (DispatchQueue?, (@Sendable (HCITransportError?) -> Void)?) in
            guard state != .closed else { return (nil, nil) }
            let wasOpen = state == .open
            state = .closed
            isOpen.store(false, ordering: .releasing)
            if !afterPending {
                inbound = []
                waitingBytes = 0
            }
            let handler = self.onClose
            self.onClose = nil
            return wasOpen ? (self.queue, handler) : (nil, nil)
        }
        guard let queue, let onClose else { return }
        // After any turn already queued, so a controller's last bytes are read before the end.
        queue.async { [self] in
            if afterPending { while readTurn(ignoringState: true) {} }
            onClose(error)
        }
    }

    /// Queues a read turn unless one is queued or the transport is not open.
    private func scheduleIfNeeded() {
        let queue = lock.withLock { () -> DispatchQueue? in
            guard state == .open, !scheduled, waitingBytes > 0, let queue = self.queue else { return nil }
            scheduled = true
            return queue
        }
        queue?.async { [self] in runTurn() }
    }

    /// A queued read turn (on the queue), then the next one queued if bytes remain: looked at once the turn is over,
    /// since what runs at a turn's end (an app's request, ``TurnFlush``) may send a command that the controller
    /// answers at once, while ``scheduled`` still keeps ``receive(_:)`` from queueing a turn of its own.
    private func runTurn() {
        let flush = DispatchQueue.getSpecific(key: TurnFlush.key)
        _ = flush.map { flush in flush.turn { readTurn(yieldingTo: flush) } } ?? readTurn(yieldingTo: nil)
        lock.withLock { scheduled = false }
        scheduleIfNeeded()
    }

    /// One turn: up to ``DescriptorChannel/readsPerTurn`` chunks (fewer when an app's request waits); true when bytes
    /// remain. `ignoringState` reads what is left after ``end()``.
    @discardableResult
    private func readTurn(yieldingTo flush: TurnFlush? = nil, ignoringState: Bool = false) -> Bool {
        let startedBehind = unread
        unread = true
        defer { chunkBehind = false }
        for _ in 0..<DescriptorChannel.readsPerTurn {
            if let flush, flush.hasWaitingRequests || flush.yieldsAfterRead { return true }
            guard let (chunk, behind) = nextChunk(ignoringState: ignoringState) else {
                unread = false
                return false
            }
            chunkBehind = startedBehind || behind
            guard let deliver = lock.withLock({ self.onPackets }) else { return false }
            var failure: H4Error?
            deliver { [self] body in
                var passedOver = 0
                do throws(H4Error) {
                    try decoder.frames(in: chunk, passingOver: &passedOver, stepping: { type, bytes in
                        let step = body(type, bytes)
                        return ignoringState || isOpen.load(ordering: .acquiring) ? step : .stop
                    })
                } catch {
                    failure = error
                }
                return passedOver
            }
            if let failure {
                let handler = lock.withLock { () -> (@Sendable (HCITransportError?) -> Void)? in
                    state = .closed
                    isOpen.store(false, ordering: .releasing)
                    inbound = []
                    waitingBytes = 0
                    self.onPackets = nil
                    defer { onClose = nil }
                    return onClose
                }
                handler?(.framing(failure))
                return false
            }
        }
        return lock.withLock { waitingBytes > 0 }
    }

    /// The next read's bytes (at most ``chunkSize``) and whether a quarter of a chunk or more waits after them.
    private func nextChunk(ignoringState: Bool) -> ([UInt8], Bool)? {
        lock.withLock { () -> ([UInt8], Bool)? in
            guard state == .open || ignoringState, let first = inbound.first else { return nil }
            let end = min(first.count, offset + chunkSize)
            let chunk = Array(first[offset..<end])
            if end == first.count {
                inbound.removeFirst()
                offset = 0
            } else {
                offset = end
            }
            waitingBytes -= chunk.count
            return (chunk, waitingBytes >= chunkSize / 4)
        }
    }
}
