// Where a host reads the time and waits for a deadline: the system's monotonic clock, or a clock a transport drives.

import Dispatch

/// The time source of a host: `now` for its sans-I/O state machines and one way to wait for a deadline.
///
/// ``SystemHostClock`` is the system's `ContinuousClock` and a dispatch timer. A transport that plays a recording
/// brings its own (``HCITransport/clock``; ``ReplayClock``): time then moves only as the recording's timestamps say,
/// so a session of minutes replays in milliseconds and the same way every run.
public protocol HostClock: AnyObject, Sendable {
    /// The current instant (monotonic).
    var now: ContinuousClock.Instant { get }
    /// Runs `fire` on `queue` once `deadline` has passed on this clock, unless the returned wait is cancelled first.
    func wait(until deadline: ContinuousClock.Instant, on queue: DispatchQueue,
              _ fire: @escaping @Sendable () -> Void) -> any HostClockWait
}

/// A pending ``HostClock/wait(until:on:_:)``.
public protocol HostClockWait: AnyObject, Sendable {
    /// Stops the wait: `fire` does not run (unless it is already running). Idempotent.
    func cancel()
}

/// The system's monotonic clock (`ContinuousClock`) with a one-shot `DispatchSourceTimer` per wait (leeway 1 ms).
public final class SystemHostClock: HostClock {
    /// The one instance.
    public static let shared = SystemHostClock()

    private init() {}

    /// The system's `ContinuousClock.now`.
    public var now: ContinuousClock.Instant { .now }

    /// A one-shot `DispatchSourceTimer` on `queue` for `deadline` (leeway 1 ms, never early).
    public func wait(until deadline: ContinuousClock.Instant, on queue: DispatchQueue,
                     _ fire: @escaping @Sendable () -> Void) -> any HostClockWait {
        let source = DispatchSource.makeTimerSource(queue: queue)
        // The delay is measured before the dispatch time is read, so the timer never fires early.
        let delay = max(Duration.zero, deadline - .now)
        let nanoseconds = Int(delay.components.seconds) * 1_000_000_000 + Int(delay.components.attoseconds / 1_000_000_000)
        source.schedule(deadline: .now() + .nanoseconds(nanoseconds), leeway: .milliseconds(1))
        source.setEventHandler(handler: fire)
        source.resume()
        return DispatchWait(source: source)
    }

    private final class DispatchWait: HostClockWait, @unchecked Sendable {
        let source: DispatchSourceTimer
        init(source: DispatchSourceTimer) { self.source = source }
        func cancel() { source.cancel() }
    }
}
