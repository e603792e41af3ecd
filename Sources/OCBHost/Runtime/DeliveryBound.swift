// A bound on the deliveries of one kind waiting for a slow delegate: past it they are dropped, counted, logged once a minute at most.

/// Counts deliveries (notification values, discoveries) handed to a queue and not yet run, so a consumer slower than
/// the air (the app's delegate, the CoreBluetooth backend) never makes that queue grow without end. Used under its
/// owner's lock: the manager's for the delegate queue, ``DiscoveryGate``'s for the host's event queue.
package struct DeliveryBound {
    /// The most deliveries waiting at once.
    package let limit: Int
    /// The most bytes (each delivery's estimate, given to ``admit(bytes:now:)``) waiting at once; nil: no such limit.
    /// One delivery is always admitted when none waits, whatever its size.
    package let byteLimit: Int?
    /// Handed to the delegate queue and not yet run.
    package private(set) var inFlight = 0
    /// The bytes of those (the estimates admitted, less those delivered).
    package private(set) var bytesInFlight = 0
    /// Dropped since the manager started (all overflows together).
    package private(set) var dropped = 0
    /// True after the warning of the current overflow; cleared when the delegate has caught up.
    private var warned = false
    /// When the last warning was logged: a flood that overflows again and again logs at most one line a minute
    /// (``warningInterval``), the count goes on in ``dropped``. A ``MonotonicStamp`` (a stored instant would make this
    /// struct's layout, checked at every delivery, known only at run time).
    private var lastWarning: Duration?

    /// The shortest time between two warnings.
    package static let warningInterval: Duration = .seconds(60)

    /// A bound of `limit` deliveries waiting, and of `byteLimit` bytes when given.
    package init(limit: Int, byteLimit: Int? = nil) {
        self.limit = limit
        self.byteLimit = byteLimit
    }

    /// Whether one more, of `bytes` (an estimate of what it holds; 0 when only the count is bounded), may wait at
    /// `now`; when not, it is counted as dropped, and `warn` is true for the first drop of an overflow unless the last
    /// warning was less than ``warningInterval`` ago. The clock is read only then, not for each delivery admitted.
    package mutating func admit(bytes: Int = 0, now: @autoclosure () -> ContinuousClock.Instant = .now) -> (admitted: Bool, warn: Bool) {
        let bytes = max(0, bytes)
        let fits = inFlight == 0 || byteLimit.map { bytesInFlight <= $0 &- bytes } ?? true
        guard inFlight >= limit || !fits else {
            inFlight += 1
            bytesInFlight += bytes
            return (true, false)
        }
        dropped += 1
        guard !warned else { return (false, false) }
        warned = true
        let now = MonotonicStamp.of(now())
        if let lastWarning, now < lastWarning + Self.warningInterval { return (false, false) }
        lastWarning = now
        return (false, true)
    }

    /// `count` admitted deliveries of `bytes` in all (what ``admit(bytes:now:)`` was given for them) ran; when none
    /// waits any more, the next overflow warns again.
    package mutating func delivered(_ count: Int = 1, bytes: Int = 0) {
        inFlight = max(0, inFlight - max(0, count))
        bytesInFlight = inFlight == 0 ? 0 : max(0, bytesInFlight - max(0, bytes))
        if inFlight == 0 { warned = false }
    }
}
