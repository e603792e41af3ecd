// A bound on the deliveries of one kind waiting for a slow delegate: past it they are dropped, counted, logged once a minute at most.

/// Counts deliveries (notification values, discoveries) handed to a queue and not yet run, so a consumer slower than
/// the air (the app's delegate, the CoreBluetooth backend) never makes that queue grow without end. Used under its
/// owner's lock: the manager's for the delegate queue, ``DiscoveryGate``'s for the host's event queue.
package struct DeliveryBound {
    /// The most deliveries waiting at once.
    package let limit: Int
    /// Handed to the delegate queue and not yet run.
    package private(set) var inFlight = 0
    /// Dropped since the manager started (all overflows together).
    package private(set) var dropped = 0
    /// True after the warning of the current overflow; cleared when the delegate has caught up.
    private var warned = false
    /// When the last warning was logged: a flood that overflows again and again logs at most one line a minute
    /// (``warningInterval``), the count goes on in ``dropped``.
    private var lastWarning: ContinuousClock.Instant?

    /// The shortest time between two warnings.
    package static let warningInterval: Duration = .seconds(60)

    package init(limit: Int) { self.limit = limit }

    /// Whether one more may wait at `now`; when not, it is counted as dropped, and `warn` is true for the first drop of
    /// an overflow unless the last warning was less than ``warningInterval`` ago. The clock is read only then, not
    /// for each delivery admitted.
    package mutating func admit(now: @autoclosure () -> ContinuousClock.Instant = .now) -> (admitted: Bool, warn: Bool) {
        guard inFlight >= limit else {
            inFlight += 1
            return (true, false)
        }
        dropped += 1
        guard !warned else { return (false, false) }
        warned = true
        let now = now()
        if let lastWarning, now < lastWarning.advanced(by: Self.warningInterval) { return (false, false) }
        lastWarning = now
        return (false, true)
    }

    /// One admitted delivery ran; when none waits any more, the next overflow warns again.
    package mutating func delivered() {
        inFlight = max(0, inFlight - 1)
        if inFlight == 0 { warned = false }
    }
}
