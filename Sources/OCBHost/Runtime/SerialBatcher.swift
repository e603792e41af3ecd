// Hands items to a handler on a serial queue in order, with one dispatch per batch instead of one per item.

import Dispatch
import Foundation

/// Delivers items posted from any thread to `handler` on `queue`, in the order posted within each of two lanes.
///
/// A dispatch per item costs a queue operation and often a thread wake-up, more than the work of an advertising
/// report itself; here a post only appends under a lock, and one block on `queue` hands over what has gathered.
/// Each block hands over at most ``turnLimit`` items of each lane, so other work on `queue` (an app's connect, a
/// stop) runs between turns of a flood, and what the handler passes on to a next batcher goes on in pieces of that
/// size (one read of notifications at line rate is thousands of values). Items `isBulk` calls bulk (discoveries) wait
/// behind the others (a connection, a state change, a completion, a value), which overtake them, so a link's events
/// never queue behind thousands of advertisements. Within a lane the order is the posting order. Nothing is
/// dropped; how many items may wait is the business of the poster (the host and the facade bound what they post from
/// the air, see ``CentralHost``'s discovery bound).
package final class SerialBatcher<Item>: @unchecked Sendable {
    /// The most items one block on the queue hands over before yielding the queue.
    package static var turnLimit: Int { 256 }

    private let queue: DispatchQueue
    private let producer: DispatchQueue?
    private let handler: (Item) -> Void
    private let bulkHandler: ((ArraySlice<Item>) -> Void)?
    private let isBulk: (Item) -> Bool
    private let weight: (Item) -> Int
    private let holdsBulk: (() -> Bool)?
    /// Written over each bulk item once handed over (``init(queue:gatheringOn:isBulk:weight:holdsBulk:releasingAs:bulkHandler:handler:)``).
    private let handedOver: Item?
    private let lock = NSLock()
    /// Posted, not yet taken by a turn (lock held): the other items, and the bulk ones.
    private var waiting: [Item] = []
    private var waitingBulk: [Item] = []
    /// The sum of ``weight`` over ``waitingBulk`` (lock held).
    private var waitingBulkWeight = 0
    /// A turn is scheduled or running (lock held).
    private var scheduled = false
    /// A flush is scheduled on the producer's queue (lock held).
    private var gathering = false
    /// Bulk items taken by the turns and not all handed over yet (on `queue` only), and the next one's index.
    private var current: [Item] = []
    private var next = 0
    /// The other items taken by the turns and not all handed over yet (on `queue` only), and the next one's index.
    private var urgent: [Item] = []
    private var urgentNext = 0

    /// Makes a batcher that runs `handler` on `queue` (serial) for each posted item. With `producer`, the serial
    /// queue the items are posted on, the first post of a block on it schedules the hand-over only once that block
    /// ends, so everything one block produces (the reports of one read) goes over in one turn; in a reader's turn
    /// (``TurnFlush``) at the end of that turn, and when `queue` is `producer` every turn then runs there in place, so
    /// the reader reads again only once what it read was handed over.
    /// A block that posts ``turnLimit`` bulk items or more hands each ``turnLimit`` over at once (to a `queue` other
    /// than `producer`), so a read of a flood is handled while it is read, not after it.
    /// `isBulk` picks the items handed over ``turnLimit`` at a time behind the others (none by default).
    /// `holdsBulk`, asked on `queue` at each turn, holds the bulk items back while it is true: a turn then hands over
    /// only the others and yields the queue (a block of its own follows, so the reader's turns come first). The host
    /// holds its discoveries while it reads a backlog toward an answer it waits for (a connect's), so the reports it
    /// already took do not delay the answer; it must turn false by itself (the backlog read), never wait for the turns.
    /// `bulkHandler`, when given, takes each turn's bulk items at once (at most ``turnLimit``, in order) instead of
    /// `handler` one by one: a consumer that takes a lock per item takes it once a turn.
    /// `weight` says how many a bulk item counts for against ``turnLimit`` (1 by default): an item that is itself a
    /// batch (a read's discoveries) counts for its size, so a turn hands over at most ``turnLimit`` discoveries
    /// whether they come one to an item or many, except an item heavier than that, which goes alone.
    /// `handedOver`, when given, is written over each bulk item once the turn handed it over, so what the item holds is
    /// let go then, not when every bulk item taken with it is (a consumer behind the producer takes many turns' worth
    /// at once, and works through them a turn at a time).
    package init(queue: DispatchQueue, gatheringOn producer: DispatchQueue? = nil, isBulk: @escaping (Item) -> Bool = { _ in false },
                 weight: @escaping (Item) -> Int = { _ in 1 },
                 holdsBulk: (() -> Bool)? = nil, releasingAs handedOver: Item? = nil,
                 bulkHandler: ((ArraySlice<Item>) -> Void)? = nil, handler: @escaping (Item) -> Void) {
        self.queue = queue
        self.producer = producer
        self.isBulk = isBulk
        self.weight = weight
        self.holdsBulk = holdsBulk
        self.handedOver = handedOver
        self.handler = handler
        self.bulkHandler = bulkHandler
    }

    /// True when every item posted was handed over and no turn is due (a test's way to wait for the hand-over).
    package var isIdle: Bool { lock.withLock { !scheduled && !gathering && waiting.isEmpty && waitingBulk.isEmpty } }

    /// Queues `item`; `handler` gets it on `queue` after every item posted before it.
    package func post(_ item: Item) {
        let bulk = isBulk(item)
        let next: PostFollowUp = lock.withLock {
            if bulk {
                waitingBulk.append(item)
                waitingBulkWeight &+= max(1, weight(item))
            } else {
                waiting.append(item)
            }
            return followUp(postedBulk: bulk)
        }
        schedule(next)
    }

    /// What a post must schedule (lock held), having appended its items (bulk ones when `postedBulk`).
    private func followUp(postedBulk: Bool) -> PostFollowUp {
        if scheduled { return .none }
        if gathering {
            // A long block of the producer (a read turn of a flood: thousands of reports) hands over every
            // ``turnLimit`` bulk items, not only at its end, so the consumer works beside the producer and the
            // items waiting stay near that many, not a whole read's worth (the bound behind them is not hit by
            // one read). Not to the producer's own queue: there the hand-over runs in place at the block's end.
            guard postedBulk, waitingBulkWeight >= Self.turnLimit, queue !== producer else { return .none }
            scheduled = true
            return .turn
        }
        if let producer {
            gathering = true
            return .gather(producer)
        }
        scheduled = true
        return .turn
    }

    /// Schedules what a post's ``followUp(postedBulk:)`` said, once the lock is released.
    private func schedule(_ next: PostFollowUp) {
        switch next {
        case .none: break
        case .turn: queue.async { self.turn() }
        case .gather(let producer):
            // In a reader's turn on the producer's queue: at its end, in place (``TurnFlush``); else a block of its own.
            if let flush = TurnFlush.current, flush.belongs(to: producer) {
                flush.atEnd { self.endGathering(in: flush) }
            } else {
                producer.async { self.endGathering(in: nil) }
            }
        }
    }

    /// The producer's block (or turn, `flush`) that posted ended: hands what it gathered over, unless a turn is
    /// already due. At the end of a reader's turn on the consumer's own queue, the turns run in place until none is left.
    private func endGathering(in flush: TurnFlush?) {
        let schedule: Bool = lock.withLock {
            gathering = false
            guard !scheduled, !waiting.isEmpty || !waitingBulk.isEmpty else { return false }
            scheduled = true
            return true
        }
        guard schedule else { return }
        // The reader's turn on our own queue hands over all it read before it reads again: a flood is then read no
        // faster than it is handled, and what cannot wait is dropped and counted at the gate, not left behind.
        if let flush, flush.belongs(to: queue) {
            // An app's request that came during the read goes first: what the read found is handed over after it.
            if flush.hasWaitingRequests { return queue.async { self.turn() } }
            while turn(rescheduling: false) {
                // An app's request waits for the queue (``TurnFlush/request(on:_:)``), or the bulk is held: the rest
                // is handed over after it, in blocks of its own.
                if flush.hasWaitingRequests || holdsBulk?() == true { return queue.async { self.turn() } }
            }
            return
        }
        queue.async { self.turn() }
    }

    /// Hands over now, in order, the other items waiting (on `queue`, from a handler during a turn: a consumer's
    /// `bulkHandler` between pieces of a long batch of discoveries), so a link's event posted meanwhile waits for
    /// the piece at hand, not for the rest of the batch. The other items overtake the bulk ones anyway; this lets
    /// them do so within a turn.
    package func handOverOthersNow() {
        lock.withLock {
            guard !waiting.isEmpty else { return }
            urgent.append(contentsOf: waiting)
            waiting.removeAll(keepingCapacity: true)
        }
        while urgentNext < urgent.count {
            let item = urgent[urgentNext]
            urgentNext += 1
            handler(item)
        }
    }

    /// Empties the lists of items taken when every item in them was handed over (their storage kept up to 4,096; a
    /// larger one is let go also when empty, as ``handOverOthersNow()`` leaves one).
    private func letHandedOverGo() {
        if urgentNext == urgent.count, !urgent.isEmpty || urgent.capacity > 4_096 {
            urgent.removeAll(keepingCapacity: urgent.capacity <= 4_096)
            urgentNext = 0
        }
        if next == current.count, !current.isEmpty || current.capacity > 4_096 {
            current.removeAll(keepingCapacity: current.capacity <= 4_096)
            next = 0
        }
    }

    /// Hands over up to ``turnLimit`` of the other items waiting, then bulk ones up to a weight of ``turnLimit`` (one
    /// heavier item alone), then schedules
    /// the next turn if more wait (unless `rescheduling` is false: the caller runs it); true when more wait.
    @discardableResult
    private func turn(rescheduling: Bool = true) -> Bool {
        letHandedOverGo()
        lock.withLock {
            if urgent.isEmpty { swap(&urgent, &waiting) }
            if current.isEmpty {
                swap(&current, &waitingBulk)
                waitingBulkWeight = 0
            }
        }
        let urgentEnd = min(urgent.count, urgentNext + Self.turnLimit)
        while urgentNext < urgentEnd {
            let item = urgent[urgentNext]
            urgentNext += 1
            handler(item)
        }
        var end = next
        if holdsBulk?() != true {
            var taken = 0
            while end < current.count {
                let itemWeight = max(1, weight(current[end]))
                if taken > 0, taken &+ itemWeight > Self.turnLimit { break }
                taken &+= itemWeight
                end += 1
            }
        }
        let start = next
        if let bulkHandler, next < end {
            next = end
            bulkHandler(current[start..<end])
        }
        while next < end {
            let item = current[next]
            next += 1
            handler(item)
        }
        if let handedOver, next < current.count {
            for index in start..<next { current[index] = handedOver }
        }
        // What was handed over is let go now, not at the next turn: a consumer's last batch (its discoveries, the
        // host's records they carry) is not held while the queue is idle, and is freed by whoever else holds it last.
        letHandedOverGo()
        let more: Bool = lock.withLock {
            scheduled = urgentNext < urgent.count || next < current.count || !waiting.isEmpty || !waitingBulk.isEmpty
            return scheduled
        }
        if more, rescheduling { queue.async { self.turn() } }
        return more
    }
}

/// What a post must schedule once the lock is released.
private enum PostFollowUp {
    /// Nothing: a turn or a flush is already due.
    case none
    /// A turn on the consumer's queue.
    case turn
    /// A flush at the end of the producer's current block.
    case gather(DispatchQueue)
}
