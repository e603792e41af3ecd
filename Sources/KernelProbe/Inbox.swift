// A thread-safe queue that callbacks fill and the probe's main thread waits on, with a deadline.

import Dispatch
import Foundation

/// Items delivered by transport or socket callbacks (on their dispatch queue), taken by the probe with a timeout.
final class Inbox<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let signal = DispatchSemaphore(value: 0)
    private var items: [Item] = []

    /// Appends `item` and wakes a waiter.
    func put(_ item: Item) {
        lock.lock()
        items.append(item)
        lock.unlock()
        signal.signal()
    }

    /// Waits until an item matching `predicate` arrives, up to `timeout`; earlier non-matching items are dropped.
    /// Returns nil on timeout.
    func take(within timeout: Duration, where predicate: (Item) -> Bool = { _ in true }) -> Item? {
        let deadline = ContinuousClock.now + timeout
        while true {
            lock.lock()
            while !items.isEmpty {
                let item = items.removeFirst()
                if predicate(item) { lock.unlock(); return item }
            }
            lock.unlock()
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            let milliseconds = Int(left.components.seconds) * 1000 + Int(left.components.attoseconds / 1_000_000_000_000_000)
            if signal.wait(timeout: .now() + .milliseconds(max(milliseconds, 1))) == .timedOut, ContinuousClock.now >= deadline {
                lock.lock()
                let last = items.firstIndex(where: predicate)
                let item = last.map { items.remove(at: $0) }
                lock.unlock()
                return item
            }
        }
    }

    /// Takes every item delivered so far, in order, without waiting.
    func drain() -> [Item] {
        lock.lock()
        defer { lock.unlock() }
        let all = items
        items = []
        return all
    }
}
