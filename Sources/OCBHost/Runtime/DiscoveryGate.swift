// The bound on discoveries a host has handed to its event queue and the handler has not taken yet.

import Foundation
import Synchronization

/// Counts ``HostEvent/discovered(_:)`` events posted to a host's event queue and not yet handed to the handler; past
/// ``limit`` a discovery is dropped and counted (``dropped``), so a handler slower than the air (the CoreBluetooth
/// backend behind a flood of advertisers) never makes the queue grow without end. Other events are never dropped.
/// Used from the host's queue (admit) and the event queue (handed over).
final class DiscoveryGate: @unchecked Sendable {
    /// The most discoveries waiting for the handler: a burst of about 55 ms at the 300,000 reports/s the host takes in
    /// (scripts/bench-scan); each holds its advertising data and scan response, typically 50-200 bytes and at most
    /// 1,650 (about 27 MB in all at worst).
    static let limit = 16_384

    private let lock = NSLock()
    private var bound = DeliveryBound(limit: DiscoveryGate.limit)
    /// Advertising reports the host dropped unread (``shed(now:)``): counted without the lock, one per report of a flood.
    private let shedCount = Atomic<Int>(0)
    /// When the host last warned about shedding (under the lock).
    private var lastShedWarning: ContinuousClock.Instant?

    /// Discoveries dropped since the host was made, the reports shed included.
    var dropped: Int { lock.withLock { bound.dropped } + shedCount.load(ordering: .relaxed) }

    /// Counts `count` advertising reports the host dropped without reading them (``SerialHost/receive(_:behind:awaiting:_:)``,
    /// once a read); true when that should be said (at most once a ``DeliveryBound/warningInterval``). The count costs
    /// one atomic add; the clock is read for the first reports shed and then once each ``shedClockStride``.
    func shed(count: Int = 1, now: @autoclosure () -> ContinuousClock.Instant = .now) -> Bool {
        let total = shedCount.add(count, ordering: .relaxed).newValue
        let before = total - count
        guard before == 0 || before / Self.shedClockStride != total / Self.shedClockStride else { return false }
        let now = now()
        return lock.withLock {
            if let last = lastShedWarning, now - last < DeliveryBound.warningInterval { return false }
            lastShedWarning = now
            return true
        }
    }

    /// One report shed in this many reads the clock for the warning's interval.
    static let shedClockStride = 1_024

    /// Whether one more discovery may wait at `now`; when not, it is counted as dropped, and `warn` is true for the
    /// first drop of an overflow (the next overflow warns again once the handler has caught up), at most once a minute
    /// (``DeliveryBound``; the clock is read only for a drop).
    func admit(now: @autoclosure () -> ContinuousClock.Instant = .now) -> (admitted: Bool, warn: Bool) {
        lock.withLock { bound.admit(now: now()) }
    }

    /// ``admit(now:)`` for `count` discoveries in order, under one look at the lock: how many of them, from the first,
    /// may wait (the rest are counted as dropped), and whether that starts an overflow to warn about.
    func admit(count: Int, now: @autoclosure () -> ContinuousClock.Instant = .now) -> (admitted: Int, warn: Bool) {
        lock.withLock {
            var admitted = 0, warn = false
            for _ in 0..<max(0, count) {
                let (fits, warns) = bound.admit(now: now())
                if fits { admitted += 1 }
                warn = warn || warns
            }
            return (admitted, warn)
        }
    }

    /// `count` admitted discoveries reached the handler.
    func handedOver(_ count: Int = 1) {
        lock.withLock { bound.delivered(count) }
    }
}
