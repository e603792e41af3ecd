// The one dispatch timer of a host, armed for the earliest deadline of the host's state machines.

import Dispatch

/// A one-shot `DispatchSourceTimer` on a host's serial queue for one `ContinuousClock` deadline at a time
/// (used on that queue only).
///
/// ``arm(_:on:_:)`` with the deadline already armed keeps the timer; another deadline replaces it; nil disarms.
/// Once the deadline has passed the timer disarms itself, then runs the handler on the queue (which re-arms it
/// for what is left). It never fires early: the delay is measured from before the dispatch time is read.
final class DeadlineTimer: @unchecked Sendable {
    private var source: DispatchSourceTimer?
    /// Counts the sources made, so that a handler already queued for a replaced source does nothing.
    private var serial: UInt64 = 0
    /// The deadline the timer is armed for; nil when disarmed.
    private(set) var deadline: ContinuousClock.Instant?

    deinit { source?.cancel() }

    /// The earlier of two deadlines, either of which may be absent (nil when both are).
    static func earliest(_ a: ContinuousClock.Instant?, _ b: ContinuousClock.Instant?) -> ContinuousClock.Instant? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// Arms the timer to run `fire` on `queue` at `deadline` (at once when it has passed), or disarms it for nil.
    func arm(_ deadline: ContinuousClock.Instant?, on queue: DispatchQueue, _ fire: @escaping @Sendable () -> Void) {
        guard let deadline else { return cancel() }
        if self.deadline == deadline, source != nil { return }
        source?.cancel()
        serial &+= 1
        let current = serial
        let source = DispatchSource.makeTimerSource(queue: queue)
        let delay = max(Duration.zero, deadline - .now)
        let nanoseconds = Int(delay.components.seconds) * 1_000_000_000 + Int(delay.components.attoseconds / 1_000_000_000)
        source.schedule(deadline: .now() + .nanoseconds(nanoseconds), leeway: .milliseconds(1))
        source.setEventHandler { [weak self] in
            guard let self, self.serial == current else { return }
            self.cancel()
            fire()
        }
        self.source = source
        self.deadline = deadline
        source.resume()
    }

    /// Disarms the timer.
    func cancel() {
        source?.cancel()
        source = nil
        deadline = nil
    }
}
