// The end of a reader's turn on a host's queue, where the batchers fed during the turn hand over in place.

import Dispatch
import Synchronization

/// Work deferred to the end of the current turn on one serial queue: a reader's turn (``DescriptorChannel`` reading
/// what arrived, on the host's queue) runs as ``turn(_:)``, and a ``SerialBatcher`` posted to during it defers its
/// hand-over to the turn's end with ``atEnd(_:)`` instead of a block of its own on the queue. A value that arrives
/// alone then reaches the app's queue with one thread wake-up (the reader's) and one hand-over (to the app's queue),
/// not a wake-up per queue on the way. Used on its queue only.
package final class TurnFlush: @unchecked Sendable {
    /// The queue-specific key under which a queue holds its flush point (``install(on:)``).
    static let key = DispatchSpecificKey<TurnFlush>()

    private var inTurn = false
    /// A request ran in the middle of the current turn (``runRequests()``): the reader reads no more in this turn.
    private var ranRequestMidTurn = false
    private var pending: [() -> Void] = []
    /// Requests of the app submitted with ``request(on:_:)`` that have not begun (any thread), in order: at most the
    /// app's own, a handful.
    private let requests = Mutex<[@Sendable () -> Void]>([])
    /// Their count, read without the lock by a reader deciding whether to yield.
    private let waitingRequests = Atomic<Int>(0)

    /// Runs `work` on `queue` as an app's request (a connect, a disconnect, a scan's start or stop, an ATT or GATT
    /// operation, Read RSSI, a security raise): while it waits for the queue, the queue's flush point says so
    /// (``hasWaitingRequests``), and a reader's turn yields the queue instead of going on with a flood
    /// (``DescriptorChannel`` reads no more, a ``SerialBatcher`` hands what the turn read over after it). The reader
    /// runs the request between two packets of the read at hand (the host's `receive` looks after each packet, and
    /// posts what the packets so far found first), on the reader's thread, before anything the turn read is handed
    /// over; a turn's end runs it when it came after the read's last packet, and a block queued on `queue` when no turn
    /// comes first. So the request waits for at most the packet at hand (or a few reports of a run the framer passes
    /// over for a shedding host, ``HCI/H4Decoder/passingCheckInterval``), not for the rest of a read of a flood, nor
    /// for a thread of the queue to be woken on a machine whose cores the flood keeps busy. Requests run in the order
    /// submitted. A plain `queue.async` on a queue without a flush point.
    package static func request(on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        guard let flush = queue.getSpecific(key: key) else { return queue.async(execute: work) }
        flush.requests.withLock { $0.append(work) }
        flush.waitingRequests.add(1, ordering: .relaxed)
        queue.async { flush.runRequests() }
    }

    /// True while a request submitted with ``request(on:_:)`` waits for the queue (any thread).
    var hasWaitingRequests: Bool { waitingRequests.load(ordering: .relaxed) > 0 }

    /// The oldest request not begun, taken from the list (on the queue); nil when none waits.
    private func takeRequest() -> (@Sendable () -> Void)? {
        guard hasWaitingRequests else { return nil }
        let work: (@Sendable () -> Void)? = requests.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if work != nil { waitingRequests.subtract(1, ordering: .relaxed) }
        return work
    }

    /// Runs the requests waiting, oldest first (on the queue): each one's block, a reader between two packets of its
    /// read (``SerialHost``'s `receive`), or a turn's end, whichever comes first. Run in the middle of a turn, it ends
    /// the turn's reading after the read at hand (``yieldsAfterRead``).
    func runRequests() {
        while let work = takeRequest() {
            if inTurn { ranRequestMidTurn = true }
            work()
        }
    }

    /// True once a request ran in the middle of the current turn: the reader reads no more in this turn, so what the
    /// controller answers to it is read in a later turn, after the blocks queued on the queue before the request (a
    /// `withGATT` body asked before a disconnect runs before the Disconnection Complete is read), as when requests
    /// ran only at a turn's end.
    var yieldsAfterRead: Bool { ranRequestMidTurn }

    /// Gives `queue` a flush point (once, when the host makes its queue).
    static func install(on queue: DispatchQueue) {
        queue.setSpecific(key: key, value: TurnFlush())
    }

    /// The flush point of the queue the caller runs on while a turn runs there; nil outside a turn.
    static var current: TurnFlush? {
        guard let flush = DispatchQueue.getSpecific(key: key), flush.inTurn else { return nil }
        return flush
    }

    /// True when `queue` is the queue of this flush point.
    func belongs(to queue: DispatchQueue) -> Bool {
        queue.getSpecific(key: Self.key) === self
    }

    /// Runs `body` as a turn (on the queue), then the work deferred to its end in order, including work that work
    /// defers. A turn inside a turn is part of the outer one.
    func turn<T>(_ body: () -> T) -> T {
        guard !inTurn else { return body() }
        inTurn = true
        ranRequestMidTurn = false
        let result = body()
        var index = 0
        while true {
            while index < pending.count {
                let work = pending[index]
                index += 1
                work()
            }
            // The app's requests that came during the turn, here rather than after a wake-up of the queue's thread.
            guard let request = takeRequest() else { break }
            request()
        }
        pending.removeAll(keepingCapacity: pending.count <= 64)
        inTurn = false
        ranRequestMidTurn = false
        return result
    }

    /// Runs `work` at the end of the current turn (call only while ``current`` is this flush point).
    func atEnd(_ work: @escaping () -> Void) {
        pending.append(work)
    }
}
