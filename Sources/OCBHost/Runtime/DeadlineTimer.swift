// The one timer of a host, armed for the earliest deadline of the host's state machines on the host's clock.

import Dispatch

/// A one-shot wait on a host's ``HostClock`` for one deadline at a time, on the host's serial queue (used on that
/// queue only).
///
/// ``arm(_:on:_:)`` with the deadline already armed keeps the wait; another deadline replaces it; nil disarms.
/// Once the deadline has passed the timer disarms itself, then runs the handler on the queue (which re-arms it
/// for what is left). It never fires early.
final class DeadlineTimer: @unchecked Sendable {
    /// The clock waited on (the system's unless the transport brings one; set before arming).
    var clock: any HostClock = SystemHostClock.shared
    private var wait: (any HostClockWait)?
    /// Counts the waits made, so that a handler already queued for a replaced wait does nothing.
    private var serial: UInt64 = 0
    /// The deadline the timer is armed for; nil when disarmed.
    private(set) var deadline: ContinuousClock.Instant?

    deinit { wait?.cancel() }

    /// The earlier of two deadlines, either of which may be absent (nil when both are).
    static func earliest(_ a: ContinuousClock.Instant?, _ b: ContinuousClock.Instant?) -> ContinuousClock.Instant? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// Arms the timer to run `fire` on `queue` at `deadline` (at once when it has passed), or disarms it for nil.
    func arm(_ deadline: ContinuousClock.Instant?, on queue: DispatchQueue, _ fire: @escaping @Sendable () -> Void) {
        guard let deadline else { return cancel() }
        if self.deadline == deadline, wait != nil { return }
        wait?.cancel()
        serial &+= 1
        let current = serial
        self.deadline = deadline
        wait = clock.wait(until: deadline, on: queue) { [weak self] in
            guard let self, self.serial == current else { return }
            self.cancel()
            fire()
        }
    }

    /// Disarms the timer.
    func cancel() {
        wait?.cancel()
        wait = nil
        deadline = nil
    }
}
