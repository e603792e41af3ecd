// A blocking first-in first-out queue of SessionEvents between the delegate queue and the command thread.

import Foundation

/// Where the delegate posts events and the command thread waits for them, with a deadline.
///
/// Bound: at most ``discoveryLimit`` discoveries wait (what the air sends, when the output — a terminal, a pipe —
/// is slower than the advertisements). A discovery that finds the inbox full waits for room, up to ``roomWait``: the
/// delegate queue is held meanwhile, so the discoveries behind it wait in CoreBluetooth's own bound, compact (the
/// report, not the dictionary), instead of being dropped here. When the wait runs out, the command thread is not
/// taking any (a stalled output): that one and further ones are dropped at once, counted in ``droppedDiscoveries``
/// (which the scan's summary reports), until the command thread takes one again. Other events are never dropped and
/// never wait (there are a handful per session).
///
/// The bound is sized for bursts, not for a slow output: the delegate queue hands discoveries on in bursts (turns of
/// up to 256, as fast as it runs, while the output thread may not run at all for a time slice). Measured with the virtual peer's
/// flood of 100,000 distinct advertisers (README, "A flood of distinct advertisers"): with 4,096 the output thread,
/// idle a third of the time, still lost 5-18% of them to bursts; with 16,384 it lists all, and cbtool's peak resident
/// set stays at 47-48 MiB. A scan's entry is the advertisement dictionary and the address, not the peripheral
/// (``SessionEvent/advertised(address:addressType:advertisement:rssi:)``): with the host reading a flood faster
/// (2026-12-02), entries holding peripherals took the peak to 51-71 MiB when the inbox filled; without them, 50-63 MiB.
/// With the stack reading twice as fast (2026-12-03, batched discoveries), the inbox of 16,384 filled again in the
/// flood, lost a quarter of it and took the peak to 71 MiB; waiting for room instead lets a smaller inbox list all.
final class EventInbox: @unchecked Sendable {
    /// The most discoveries waiting for the command thread (see the type's description for the size).
    static let discoveryLimit = 4_096
    /// The longest a discovery waits for room in a full inbox before the output counts as stalled.
    static let roomWait: TimeInterval = 0.25

    private let condition = NSCondition()
    private var events: [SessionEvent] = []
    private var head = 0
    private var waitingDiscoveries = 0
    private var dropped = 0
    private var sleeping = false
    /// Posters waiting for room (``roomWait``).
    private var waitingForRoom = 0
    /// The last wait for room ran out and the command thread has taken no discovery since: drop at once.
    private var stalled = false

    /// Discoveries dropped because ``discoveryLimit`` were waiting.
    var droppedDiscoveries: Int { condition.withLock { dropped } }

    /// True when an event waits to be taken (``next(until:)`` would return at once).
    var hasWaiting: Bool { condition.withLock { head < events.count } }

    /// Appends an event and wakes the waiting thread (any thread); a discovery past the bound is counted instead.
    func post(_ event: SessionEvent) {
        condition.lock()
        defer { condition.unlock() }
        if event.isDiscovery {
            if waitingDiscoveries >= Self.discoveryLimit, !stalled {
                let deadline = Date(timeIntervalSinceNow: Self.roomWait)
                waitingForRoom += 1
                while waitingDiscoveries >= Self.discoveryLimit, !stalled {
                    // Out of time with the inbox still full: the command thread takes none (room made at the deadline is taken).
                    if !condition.wait(until: deadline), waitingDiscoveries >= Self.discoveryLimit { stalled = true }
                }
                waitingForRoom -= 1
            }
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
        if event.isDiscovery {
            waitingDiscoveries -= 1
            stalled = false
            if waitingForRoom > 0 { condition.broadcast() }  // the posters waiting for room (never while this one sleeps)
        }
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
