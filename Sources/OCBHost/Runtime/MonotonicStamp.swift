// A monotonic instant as a fixed-layout Duration since one origin for the process, for the time kept on hot paths.

/// `ContinuousClock.Instant` is not a frozen type: outside the standard library each copy, comparison, optional or
/// stored field of it goes through its value witnesses, and a struct that stores one has a layout known only at run
/// time (each access to its fields a look-up). State kept and compared per report or per delivery stores the time as
/// a `Duration` since ``origin`` instead (frozen: two integers), converted from and to instants at its edges.
package enum MonotonicStamp {
    /// The instant stamps count from: the first time one is asked for in the process (an instant before it has a
    /// negative stamp).
    package static let origin = ContinuousClock.now

    /// `instant` as the time since ``origin``.
    package static func of(_ instant: ContinuousClock.Instant) -> Duration { origin.duration(to: instant) }

    /// The instant `stamp` stands for.
    package static func instant(_ stamp: Duration) -> ContinuousClock.Instant { origin.advanced(by: stamp) }
}
