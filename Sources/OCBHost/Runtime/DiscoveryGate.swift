// The bound on discoveries a host has handed to its event queue and the handler has not taken yet.

import Foundation

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
    /// Advertising reports the host dropped unread (``shed(now:)``), and when it last warned about that.
    private var shedCount = 0
    private var lastShedWarning: ContinuousClock.Instant?

    /// Discoveries dropped since the host was made, the reports shed included.
    var dropped: Int { lock.withLock { bound.dropped + shedCount } }

    /// Counts one advertising report the host dropped without reading it (``SerialHost/shedsAdvertisingReport(_:behind:awaiting:)``);
    /// true when that should be said (at most once a ``DeliveryBound/warningInterval``).
    func shed(now: ContinuousClock.Instant = .now) -> Bool {
        lock.withLock {
            shedCount += 1
            if let last = lastShedWarning, now - last < DeliveryBound.warningInterval { return false }
            lastShedWarning = now
            return true
        }
    }

    /// Whether one more discovery may wait at `now`; when not, it is counted as dropped, and `warn` is true for the
    /// first drop of an overflow (the next overflow warns again once the handler has caught up), at most once a minute
    /// (``DeliveryBound``).
    func admit(now: ContinuousClock.Instant = .now) -> (admitted: Bool, warn: Bool) {
        lock.withLock { bound.admit(now: now) }
    }

    /// One admitted discovery reached the handler.
    func handedOver() {
        lock.withLock { bound.delivered() }
    }
}
