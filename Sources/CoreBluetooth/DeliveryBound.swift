// A bound on the deliveries of one kind waiting for a slow delegate: past it they are dropped, counted, logged once.

/// Counts deliveries (notification values, discoveries) handed to the delegate queue and not yet run, so a delegate
/// slower than the air never makes that queue grow without end. Used under the manager's lock.
struct DeliveryBound {
    /// The most deliveries waiting at once.
    let limit: Int
    /// Handed to the delegate queue and not yet run.
    private(set) var inFlight = 0
    /// Dropped since the manager started (all overflows together).
    private(set) var dropped = 0
    /// True after the warning of the current overflow; cleared when the delegate has caught up.
    private var warned = false

    init(limit: Int) { self.limit = limit }

    /// Whether one more may wait; when not, it is counted as dropped and `warn` is true for the first of an overflow.
    mutating func admit() -> (admitted: Bool, warn: Bool) {
        guard inFlight >= limit else {
            inFlight += 1
            return (true, false)
        }
        dropped += 1
        defer { warned = true }
        return (false, !warned)
    }

    /// One admitted delivery ran; when none waits any more, the next overflow warns again.
    mutating func delivered() {
        inFlight = max(0, inFlight - 1)
        if inFlight == 0 { warned = false }
    }
}
