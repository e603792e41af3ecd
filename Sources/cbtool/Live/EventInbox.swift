// A blocking first-in first-out queue of SessionEvents between the delegate queue and the command thread.

import Foundation

/// Where the delegate posts events and the command thread waits for them, with a deadline.
///
/// Bound: at most ``discoveryLimit`` discoveries wait (what the air sends, when the output — a terminal, a pipe —
/// is slower than the advertisements); further ones are dropped and counted in ``droppedDiscoveries``, which the
/// scan's summary reports. Other events are never dropped (there are a handful per session).
///
/// The bound is sized for bursts, not for a slow output: the delegate queue hands discoveries on in bursts (turns of
/// up to 256, as fast as it runs, while the output thread may not run at all for a time slice). Measured with the virtual peer's
/// flood of 100,000 distinct advertisers (README, "A flood of distinct advertisers"): with 4,096 the output thread,
/// idle a third of the time, still lost 5-18% of them to bursts; with 16,384 it lists all, and cbtool's peak resident
/// set stays at 47-48 MiB. A scan's entry is the advertisement dictionary and the address, not the peripheral
/// (``SessionEvent/advertised(address:addressType:advertisement:rssi:)``): with the host reading a flood faster
/// (2026-12-02), entries holding peripherals took the peak to 51-71 MiB when the inbox filled; without them, 50-63 MiB.
final class EventInbox: @unchecked Sendable {
    /// The most discoveries waiting for the command thread (see the type's description for the size).
    static let discoveryLimit = 16_384

    private let condition = NSCondition()
    private var events: [SessionEvent] = []
    private var head = 0
    private var waitingDiscoveries = 0
    private var dropped = 0
    private var sleeping = false

    /// Discoveries dropped because ``discoveryLimit`` were waiting.
    var droppedDiscoveries: Int { condition.withLock { dropped } }

    /// True when an event waits to be taken (``next(until:)`` would return at once).
    var hasWaiting: Bool { condition.withLock { head < events.count } }

    /// Appends an event and wakes the waiting thread (any thread); a discovery past the bound is counted instead.
    func post(_ event: SessionEvent) {
        condition.lock()
        defer { condition.unlock() }
        if event.isDiscovery {
            guard waitingDiscoveries < Self.discoveryLimit else {
                dropped += 1
                return
            }
            waitingDiscoveries += 1
        }
        events.append(event)
        if sleeping { condition.signal() }  // no wake-up call for a thread that is busy with the events before
    }

    /// The oldest event not yet taken, waiting for one until `deadline` (forever when nil); nil when the deadline passed.
    func next(until deadline: ContinuousClock.Instant?) -> SessionEvent? {
        condition.lock()
        defer { condition.unlock() }
        while head == events.count {
            sleeping = true
            defer { sleeping = false }
            if let deadline {
                let remaining = deadline - .now
                guard remaining > .zero else { return nil }
                let seconds = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18
                _ = condition.wait(until: Date(timeIntervalSinceNow: min(seconds, 3600)))
            } else {
                condition.wait()
            }
        }
        let event = events[head]
        head += 1
        if event.isDiscovery { waitingDiscoveries -= 1 }
        if head > 256, head * 2 > events.count {
            events.removeFirst(head)
            head = 0
        }
        return event
    }
}

extension SessionEvent {
    /// A discovery, as the peripheral and its dictionary or as a scan's snapshot: what ``EventInbox`` bounds.
    var isDiscovery: Bool {
        switch self {
        case .discovered, .advertised: true
        default: false
        }
    }
}
