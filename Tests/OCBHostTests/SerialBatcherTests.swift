// SerialBatcher: items reach the handler in order, in turns that leave the queue to other work, gathered per block.
import Dispatch
import Foundation
import Synchronization
@testable import OCBHost
import Testing

@Suite struct SerialBatcherTests {
    /// Collects what the handler and the queue's other blocks did, in the order they ran (on the consumer queue).
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func add(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
    }

    @Test func everyItemArrivesOnceInTheOrderPostedFromManyThreadsInTurn() {
        let consumer = DispatchQueue(label: "test.consumer")
        let log = Log()
        let batcher = SerialBatcher<Int>(queue: consumer) { log.add("\($0)") }
        let producer = DispatchQueue(label: "test.producer")
        producer.sync { for value in 0..<10_000 { batcher.post(value) } }
        consumer.sync {}
        // Turns reschedule themselves: wait until the last one ran.
        var spins = 0
        while log.all.count < 10_000, spins < 5_000 { usleep(1_000); spins += 1 }
        #expect(log.all == (0..<10_000).map { "\($0)" })
    }

    /// Each lane, the bulk one (discoveries) and the other (a notification flood's values), goes 256 a turn.
    @Test(arguments: [true, false]) func aFloodLeavesTheQueueToOtherWorkBetweenTurnsOf256(bulk: Bool) {
        let consumer = DispatchQueue(label: "test.consumer")
        let log = Log()
        let batcher = SerialBatcher<Int>(queue: consumer, isBulk: { _ in bulk }) { log.add("\($0)") }
        consumer.sync {
            // Posted while the queue is busy: all 1,000 wait, then a block from elsewhere (an app's connect).
            for value in 0..<1_000 { batcher.post(value) }
            consumer.async { log.add("connect") }
        }
        var spins = 0
        while log.all.count < 1_001, spins < 5_000 { usleep(1_000); spins += 1 }
        #expect(log.all.firstIndex(of: "connect") == SerialBatcher<Int>.turnLimit, "the connect ran after the first turn")
        #expect(log.all.filter { $0 != "connect" } == (0..<1_000).map { "\($0)" })
    }

    /// An object handed over (the bulk lane, and the other lane through `handOverOthersNow` from a bulk handler, as
    /// the facade's delivery does between pieces) is let go by the batcher when the turn that handed it over ends, not
    /// kept until a next turn (none may come for a while).
    @Test func itemsAreLetGoWhenTheirTurnEnds() {
        final class Item: Sendable {}
        final class Slots: @unchecked Sendable {
            weak var bulk: Item?
            weak var other: Item?
            var pending: Item?
            var batcher: SerialBatcher<(Item, Bool)>?
        }
        let consumer = DispatchQueue(label: "test.consumer")
        let slots = Slots()
        slots.batcher = SerialBatcher<(Item, Bool)>(queue: consumer, isBulk: { $0.1 }, bulkHandler: { _ in
            // On the consumer queue, mid-turn: an item of the other lane comes and is handed over at once.
            if let item = slots.pending {
                slots.pending = nil
                slots.batcher?.post((item, false))
                slots.batcher?.handOverOthersNow()
            }
        }) { _ in }
        consumer.sync {
            let bulk = Item(), other = Item()
            slots.bulk = bulk
            slots.other = other
            slots.pending = other
            slots.batcher?.post((bulk, true))
        }
        var spins = 0
        while slots.bulk != nil || slots.other != nil, spins < 2_000 { usleep(1_000); spins += 1 }
        #expect(slots.pending == nil, "the other item was posted during the turn")
        #expect(slots.bulk == nil && slots.other == nil, "both handed over and let go with no further turn")
    }

    /// With `releasingAs`, a bulk item is let go once its turn handed it over, while items taken with it wait for later
    /// turns (the facade, behind the host, takes many turns' worth at once): 600 items of weight 1 go 256 a turn, and
    /// when the second turn runs, the first turn's 256 are gone and the last 88 are still held. Without it, all are
    /// held until the last is handed over.
    @Test(arguments: [true, false]) func aHandedOverBulkItemIsLetGoBeforeTheRestWhenAskedTo(releasing: Bool) {
        /// An item the batcher holds.
        final class Item: Sendable {}
        /// What the bulk handler saw (on the consumer queue, read there too).
        final class Seen: @unchecked Sendable {
            var items: [Weak] = []
            var aliveAtSecondTurn: [Bool] = []
            var turns = 0
        }
        /// A weak reference to an item.
        struct Weak { weak var item: Item? }
        let consumer = DispatchQueue(label: "test.consumer")
        let seen = Seen()
        let batcher = SerialBatcher<Item?>(queue: consumer, isBulk: { _ in true }, releasingAs: releasing ? .some(nil) : nil,
                                           bulkHandler: { _ in
            seen.turns += 1
            if seen.turns == 2 { seen.aliveAtSecondTurn = seen.items.map { $0.item != nil } }
        }) { _ in }
        consumer.sync {
            let items = (0..<600).map { _ in Item() }
            seen.items = items.map { Weak(item: $0) }
            for item in items { batcher.post(item) }
        }
        var spins = 0
        while consumer.sync(execute: { seen.turns }) < 3 || !batcher.isIdle, spins < 2_000 { usleep(1_000); spins += 1 }
        consumer.sync {}
        #expect(seen.turns == 3)
        #expect(seen.aliveAtSecondTurn.count == 600)
        let firstTurn = seen.aliveAtSecondTurn.prefix(256), rest = seen.aliveAtSecondTurn.suffix(88)
        if releasing {
            #expect(!firstTurn.contains(true), "the first turn's items are let go after it")
        } else {
            #expect(!firstTurn.contains(false), "held until the whole list is handed over")
        }
        #expect(!rest.contains(false), "the items of later turns are held until theirs")
        #expect(seen.items.allSatisfy { $0.item == nil }, "all let go once all were handed over")
    }

    @Test func inAReadersTurnOnItsOwnQueueEverythingGoesOverInPlaceAtTheTurnsEnd() {
        // A host's queue with its flush point, the batcher's consumer and producer both: what a reader's turn posted
        // (1,000 items, more than one turn's 256) is handed over before the turn returns, ahead of a block queued
        // meanwhile, and nothing before the turn's body ended.
        let queue = DispatchQueue(label: "test.host")
        TurnFlush.install(on: queue)
        let log = Log()
        let batcher = SerialBatcher<Int>(queue: queue, gatheringOn: queue, isBulk: { $0 % 2 == 0 }) { log.add("\($0)") }
        queue.sync {
            let flush = DispatchQueue.getSpecific(key: TurnFlush.key)
            #expect(flush != nil)
            flush?.turn {
                for value in 0..<1_000 { batcher.post(value) }
                queue.async { log.add("connect") }
                log.add("read")
            }
            log.add("turn ended")
        }
        queue.sync {}
        let expected = ["read"] + (0..<1_000).filter { $0 % 2 == 1 }.map { "\($0)" }.prefix(256)
        #expect(Array(log.all.prefix(257)) == Array(expected), "the other lane's first turn first")
        #expect(log.all.filter { $0 != "read" && $0 != "turn ended" && $0 != "connect" }.count == 1_000)
        #expect(log.all.suffix(2) == ["turn ended", "connect"], "all of it in place, before the block queued meanwhile")
        #expect(batcher.isIdle)
    }

    @Test func anAppsRequestThatCameDuringAReadersTurnRunsAtItsEndBeforeAnythingTheTurnRead() {
        // The same reader's turn, but a request was submitted with TurnFlush.request while the turn ran (an app's
        // connect during a flood): the turn runs it at its end, on the reader's thread (before queue.sync returns,
        // no wake-up of the queue's thread), before it hands over any of the 1,000 items it read; they follow, in
        // order, in blocks of their own. (Before: the request waited for the first turn of 256, then for the queue.)
        let queue = DispatchQueue(label: "test.host")
        TurnFlush.install(on: queue)
        let log = Log()
        let batcher = SerialBatcher<Int>(queue: queue, gatheringOn: queue, isBulk: { _ in true }) { log.add("\($0)") }
        queue.sync {
            let flush = DispatchQueue.getSpecific(key: TurnFlush.key)
            flush?.turn {
                for value in 0..<1_000 { batcher.post(value) }
                TurnFlush.request(on: queue) { log.add("connect") }
                TurnFlush.request(on: queue) { log.add("read RSSI") }
                #expect(flush?.hasWaitingRequests == true)
            }
            log.add("turn ended")
            // Still on the queue: no block queued meanwhile has run yet.
            #expect(log.all == ["connect", "read RSSI", "turn ended"], "the requests in order, in the turn, nothing else yet")
        }
        var spins = 0
        while log.all.count < 1_003, spins < 5_000 { usleep(1_000); spins += 1 }
        #expect(log.all.dropFirst(3) == ArraySlice((0..<1_000).map { "\($0)" }))
        #expect(DispatchQueue.getSpecific(key: TurnFlush.key) == nil)  // the test's thread is not the queue
        queue.sync { #expect(DispatchQueue.getSpecific(key: TurnFlush.key)?.hasWaitingRequests == false) }
    }

    @Test func withoutATurnARequestRunsInABlockOfItsOwnInOrderAndOnce() {
        let queue = DispatchQueue(label: "test.host")
        TurnFlush.install(on: queue)
        let log = Log()
        queue.sync {
            TurnFlush.request(on: queue) { log.add("first") }
            TurnFlush.request(on: queue) { log.add("second") }
            log.add("block ended")
        }
        TurnFlush.request(on: queue) { log.add("third") }
        queue.sync {}
        queue.sync {}
        #expect(log.all == ["block ended", "first", "second", "third"])
        // A queue without a flush point: a plain block.
        let plain = DispatchQueue(label: "test.plain")
        TurnFlush.request(on: plain) { log.add("plain") }
        plain.sync {}
        #expect(log.all.last == "plain")
    }

    @Test func outsideATurnAPostGoesOverInABlockOfItsOwn() {
        let queue = DispatchQueue(label: "test.host")
        TurnFlush.install(on: queue)
        let log = Log()
        let batcher = SerialBatcher<Int>(queue: queue, gatheringOn: queue) { log.add("\($0)") }
        queue.sync {
            batcher.post(1)
            log.add("block ended")
        }
        // Two blocks follow: the gathering's end, then the turn it schedules.
        var spins = 0
        while log.all.count < 2, spins < 5_000 { usleep(1_000); spins += 1 }
        #expect(log.all == ["block ended", "1"])
    }

    @Test func otherItemsOvertakeTheBulkOnesStillWaitingEachLaneInOrder() {
        // 1,000 discoveries (bulk) wait; a connection event posted after them is handed over at the next turn, before
        // the discoveries still waiting; each lane keeps its order.
        let consumer = DispatchQueue(label: "test.consumer")
        let log = Log()
        let batcher = SerialBatcher<String>(queue: consumer, isBulk: { $0.hasPrefix("discovered") }) { log.add($0) }
        consumer.sync {
            for value in 0..<1_000 { batcher.post("discovered \(value)") }
            batcher.post("connected")
        }
        var spins = 0
        while log.all.count < 1_001, spins < 5_000 { usleep(1_000); spins += 1 }
        #expect(log.all.first == "connected", "the link's event does not wait behind the flood")
        #expect(log.all.dropFirst() == ArraySlice((0..<1_000).map { "discovered \($0)" }))
    }

    @Test func aBlocksBulkItemsWeighingATurnGoOverWhileItRuns() {
        // A producer's block posts a bulk item weighing 256 (a read's batch of discoveries), then one of 44: the second
        // finds a turn's weight waiting and hands it over while the block still runs, as 256 single items would.
        let consumer = DispatchQueue(label: "test.consumer")
        let producer = DispatchQueue(label: "test.producer")
        let lock = NSLock()
        var turns: [[Int]] = []
        let handedOverDuringTheBlock = DispatchSemaphore(value: 0)
        let batcher = SerialBatcher<Int>(queue: consumer, gatheringOn: producer, isBulk: { _ in true }, weight: { $0 },
                                         bulkHandler: { items in
                                             lock.withLock { turns.append(Array(items)) }
                                             handedOverDuringTheBlock.signal()
                                         }) { _ in }
        var sawItDuringTheBlock = false
        producer.sync {
            batcher.post(256)
            batcher.post(44)
            sawItDuringTheBlock = handedOverDuringTheBlock.wait(timeout: .now() + 5) == .success
        }
        var spins = 0
        while lock.withLock({ turns.count }) < 2, spins < 5_000 { usleep(1_000); spins += 1 }
        #expect(sawItDuringTheBlock, "handed over while the producer's block ran, not after it")
        #expect(lock.withLock { turns } == [[256], [44]])
    }

    @Test func aBulkItemThatIsABatchCountsForItsSizeAgainstTheTurn() {
        // Bulk items weighing 200, 50, 10, 100 and 300 (batches of discoveries): a turn takes items while their weight
        // stays within 256, and an item heavier than that alone, so the turns hand over [200, 50], [10, 100], [300].
        let consumer = DispatchQueue(label: "test.consumer")
        let lock = NSLock()
        var turns: [[Int]] = []
        let batcher = SerialBatcher<Int>(queue: consumer, isBulk: { _ in true }, weight: { $0 },
                                         bulkHandler: { items in lock.withLock { turns.append(Array(items)) } }) { _ in }
        consumer.sync { for weight in [200, 50, 10, 100, 300] { batcher.post(weight) } }
        var spins = 0
        while lock.withLock({ turns.joined().count }) < 5, spins < 5_000 { usleep(1_000); spins += 1 }
        #expect(lock.withLock { turns } == [[200, 50], [10, 100], [300]])
    }

    @Test func withAProducerQueueABlocksItemsGoOverTogetherAfterItEnds() {
        let consumer = DispatchQueue(label: "test.consumer")
        let producer = DispatchQueue(label: "test.producer")
        let log = Log()
        let batcher = SerialBatcher<Int>(queue: consumer, gatheringOn: producer) { log.add("\($0)") }
        let seenDuringBlock = Log()
        producer.sync {
            for value in 0..<100 {
                batcher.post(value)
                usleep(100)  // time enough for a consumer that was told at the first post
            }
            seenDuringBlock.add("\(log.all.count)")
        }
        producer.sync {}
        consumer.sync {}
        var spins = 0
        while log.all.count < 100, spins < 5_000 { usleep(1_000); spins += 1 }
        #expect(seenDuringBlock.all == ["0"], "nothing went over before the producer's block ended")
        #expect(log.all == (0..<100).map { "\($0)" })
    }

    /// A long block of the producer (a read of a flood) hands its bulk items over every 256, while it still runs, so
    /// the consumer works beside it and the items waiting stay near 256 (not a whole read's thousands); the other
    /// items still go over at the block's end, ahead of the bulk ones left.
    @Test func aLongBlocksBulkItemsGoOverEvery256WhileItRuns() {
        let consumer = DispatchQueue(label: "test.consumer")
        let producer = DispatchQueue(label: "test.producer")
        let log = Log()
        let batcher = SerialBatcher<Int>(queue: consumer, gatheringOn: producer, isBulk: { $0 >= 0 }) { log.add("\($0)") }
        var seenAfter255 = -1, seenAfter256 = -1, urgentSeenInBlock = true
        producer.sync {
            for value in 0..<255 { batcher.post(value) }
            usleep(20_000)
            seenAfter255 = log.all.count
            batcher.post(255)
            var spins = 0
            while log.all.count < 256, spins < 5_000 { usleep(1_000); spins += 1 }
            seenAfter256 = log.all.count
            batcher.post(-1)
            for value in 256..<300 { batcher.post(value) }
            usleep(20_000)
            urgentSeenInBlock = log.all.contains("-1")
        }
        var spins = 0
        while log.all.count < 301, spins < 5_000 { usleep(1_000); spins += 1 }
        #expect(seenAfter255 == 0, "fewer than 256 wait for the block's end")
        #expect(seenAfter256 == 256, "the 256th goes over at once with the 255 before it")
        #expect(!urgentSeenInBlock, "the other items still wait for the block's end")
        #expect(log.all == (0..<256).map { "\($0)" } + ["-1"] + (256..<300).map { "\($0)" })
    }

    /// While `holdsBulk` says so (a host reading a backlog toward a connect's answer), discoveries wait and the other
    /// items still go; once it stops holding, the discoveries follow in their order.
    @Test func heldBulkItemsWaitWhileTheOthersGoOn() {
        let consumer = DispatchQueue(label: "test.consumer")
        let log = Log()
        let hold = Mutex(true)
        let batcher = SerialBatcher<String>(queue: consumer, isBulk: { $0.hasPrefix("discovered") },
                                            holdsBulk: { hold.withLock { $0 } }) { log.add($0) }
        for value in 0..<300 { batcher.post("discovered \(value)") }
        batcher.post("connected")
        var spins = 0
        while log.all.isEmpty, spins < 5_000 { usleep(1_000); spins += 1 }
        usleep(20_000)  // turns ran meanwhile, handing nothing held over
        #expect(log.all == ["connected"])
        #expect(!batcher.isIdle, "the held items still wait")
        hold.withLock { $0 = false }
        spins = 0
        while log.all.count < 301, spins < 5_000 { usleep(1_000); spins += 1 }
        #expect(log.all.dropFirst() == ArraySlice((0..<300).map { "discovered \($0)" }))
    }
}
