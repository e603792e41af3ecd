// A clock that moves only when told: the time of a recording being played, for a host driven by a replay.

import Dispatch
import Foundation

/// A ``HostClock`` whose time is set from outside (``advance(to:)``), never read from the system: a replay transport
/// moves it to each recorded packet's timestamp as it plays the packet, so the host's deadlines (command and ATT
/// timeouts, scan-response waits, connection attempts) fall where the recording puts them, however fast it plays.
///
/// Waits whose deadline the clock reaches run on their queue in deadline order. ``advanceToNextWait()`` moves the
/// clock to the earliest pending deadline (a replay with nothing left to play: the host's timeouts then happen at
/// once). Bound: the waits pending are the host's (one timer), so at most a few.
public final class ReplayClock: HostClock, @unchecked Sendable {
    private struct Pending {
        let wait: Wait
        let deadline: ContinuousClock.Instant
        let queue: DispatchQueue
        let fire: @Sendable () -> Void
    }

    private final class Wait: HostClockWait, @unchecked Sendable {
        weak var clock: ReplayClock?
        /// Set by ``cancel()`` under the clock's lock: a fire already queued then does nothing.
        var cancelled = false
        func cancel() { clock?.remove(self) }
    }

    private let lock = NSLock()
    private var current: ContinuousClock.Instant
    private var pending: [Pending] = []

    /// A clock reading `start`.
    public init(start: ContinuousClock.Instant = .now) {
        current = start
    }

    /// The time the clock was last moved to (its start until then).
    public var now: ContinuousClock.Instant { lock.withLock { current } }

    /// Runs `fire` on `queue` once the clock is moved to `deadline` or past it; at once when it is there already.
    public func wait(until deadline: ContinuousClock.Instant, on queue: DispatchQueue,
                     _ fire: @escaping @Sendable () -> Void) -> any HostClockWait {
        let wait = Wait()
        wait.clock = self
        let due: Bool = lock.withLock {
            guard deadline > current else { return true }
            pending.append(Pending(wait: wait, deadline: deadline, queue: queue, fire: fire))
            return false
        }
        if due { run(Pending(wait: wait, deadline: deadline, queue: queue, fire: fire)) }
        return wait
    }

    /// Moves the clock to `instant` (never back) and runs the waits it reaches, earliest first.
    public func advance(to instant: ContinuousClock.Instant) {
        let due: [Pending] = lock.withLock {
            if instant > current { current = instant }
            let reached = pending.filter { $0.deadline <= current }.sorted { $0.deadline < $1.deadline }
            pending.removeAll { $0.deadline <= current }
            return reached
        }
        for wait in due { run(wait) }
    }

    /// Moves the clock to the earliest pending deadline and runs what it reaches; false when nothing waits.
    @discardableResult
    public func advanceToNextWait() -> Bool {
        guard let next = earliestWait else { return false }
        advance(to: next)
        return true
    }

    /// The earliest pending deadline; nil when nothing waits.
    public var earliestWait: ContinuousClock.Instant? { lock.withLock { pending.map(\.deadline).min() } }

    private func remove(_ wait: Wait) {
        lock.withLock {
            wait.cancelled = true
            pending.removeAll { $0.wait === wait }
        }
    }

    /// Runs a reached wait unless it was cancelled after it was reached.
    private func run(_ wait: Pending) {
        wait.queue.async { [self] in
            guard !lock.withLock({ wait.wait.cancelled }) else { return }
            wait.fire()
        }
    }
}
