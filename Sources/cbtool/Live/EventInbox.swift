// A blocking first-in first-out queue of SessionEvents between the delegate queue and the command thread.

import Foundation

/// Where the delegate posts events and the command thread waits for them, with a deadline.
final class EventInbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [SessionEvent] = []
    private var head = 0

    /// Appends an event and wakes the waiting thread (any thread).
    func post(_ event: SessionEvent) {
        condition.lock()
        events.append(event)
        condition.signal()
        condition.unlock()
    }

    /// The oldest event not yet taken, waiting for one until `deadline` (forever when nil); nil when the deadline passed.
    func next(until deadline: ContinuousClock.Instant?) -> SessionEvent? {
        condition.lock()
        defer { condition.unlock() }
        while head == events.count {
            if let deadline {
                let remaining = deadline - .now
                guard remaining > .zero else { return nil }
                let seconds = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18
                _ = condition.wait(until: Date(timeIntervalSinceNow: min(seconds, 3600)))
            } else {
                condition.wait()
            }
        }
        let event = events[head]
        head += 1
        if head > 256, head * 2 > events.count {
            events.removeFirst(head)
            head = 0
        }
        return event
    }
}
