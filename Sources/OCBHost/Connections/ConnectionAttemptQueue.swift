// Pure bookkeeping of connection attempts: one LE Create Connection at a time, the rest queued, timeouts and cancels with injected time.

import OCBHCI
import OCBCore

/// Orders connection attempts for a controller that allows one pending LE Create Connection at a time
/// (Core v5.4 Vol 4 Part E §7.8.12: a second one while one is pending is answered Command Disallowed).
///
/// Sans-I/O: the caller feeds requests, controller outcomes and time, and performs the returned ``Action``s.
/// An attempt ends exactly once, in ``Action/finished(_:_:)``. A timed-out or cancelled attempt that is on air
/// is cancelled with LE Create Connection Cancel (§7.8.13), whose LE Connection Complete carries status 0x02
/// Unknown Connection Identifier; if that completion never comes within ``cancelGrace`` the attempt ends anyway.
public struct ConnectionAttemptQueue: Sendable {
    /// Why an attempt ended.
    public enum Outcome: Sendable, Hashable {
        /// LE (Enhanced) Connection Complete with status 0x00 for this attempt, with its connection handle.
        case connected(handle: ConnectionHandle)
        /// The connection completed although a cancel or timeout was already under way: the caller should disconnect it.
        case connectedAfterCancel(handle: ConnectionHandle, reason: EndReason)
        /// Ended by cancel or timeout (before or after it reached the controller).
        case ended(EndReason)
        /// The controller refused the create command or completed it with this non-zero status.
        case failed(status: UInt8)
    }

    /// Why the host stopped an attempt.
    public enum EndReason: Sendable, Hashable {
        /// The caller cancelled.
        case cancelled
        /// The connect timeout passed.
        case timedOut
    }

    /// What the caller must do.
    public enum Action: Sendable, Hashable {
        /// Send LE (Extended) Create Connection for this attempt.
        case create(Attempt)
        /// Send LE Create Connection Cancel.
        case cancelCreate
        /// The attempt is over.
        case finished(Attempt, Outcome)
    }

    /// One requested connection.
    public struct Attempt: Sendable, Hashable {
        /// Caller-visible identity, unique per queue.
        public let id: UInt64
        /// The device to connect to.
        public let peer: PeerAddress
        /// When the attempt times out; nil waits until cancelled.
        public let deadline: ContinuousClock.Instant?
    }

    private enum Phase: Sendable, Hashable {
        case onAir
        case cancelling(EndReason, graceDeadline: ContinuousClock.Instant)
        /// Cancelled to be sent again (the device was heard at another address): LE Connection Complete 0x02 re-creates it.
        case restarting(graceDeadline: ContinuousClock.Instant)
    }

    /// How long a cancel waits for its LE Connection Complete before the attempt ends without it.
    public var cancelGrace: Duration
    private var nextID: UInt64 = 1
    private var waiting: [Attempt] = []
    private var active: (attempt: Attempt, phase: Phase)?

    /// An empty queue.
    public init(cancelGrace: Duration = .seconds(2)) {
        self.cancelGrace = cancelGrace
    }

    /// The attempt on air, if any.
    public var activeAttempt: Attempt? { active?.attempt }
    /// Every attempt not yet ended, the one on air first.
    public var attempts: [Attempt] { (active.map { [$0.attempt] } ?? []) + waiting }

    /// The earliest instant at which ``tick(now:)`` has work.
    public var nextDeadline: ContinuousClock.Instant? {
        let waitingDeadline = waiting.lazy.compactMap { $0.deadline }.min()
        guard let active else { return waitingDeadline }
        let activeDeadline: ContinuousClock.Instant?
        switch active.phase {
        case .onAir: activeDeadline = active.attempt.deadline
        case .cancelling(_, let grace), .restarting(let grace): activeDeadline = grace
        }
        return DeadlineTimer.earliest(waitingDeadline, activeDeadline)
    }

    /// Queues an attempt for `peer`; returns it and the actions to perform (a create when nothing is on air).
    public mutating func enqueue(_ peer: PeerAddress, timeout: Duration?, now: ContinuousClock.Instant) -> (Attempt, [Action]) {
        let attempt = Attempt(id: nextID, peer: peer, deadline: timeout.map { now.advanced(by: $0) })
        nextID &+= 1
        waiting.append(attempt)
        return (attempt, startNext())
    }

    /// Cancels every attempt for `peer`.
    public mutating func cancel(_ peer: PeerAddress, now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        let removed = waiting.filter { $0.peer == peer }
        waiting.removeAll { $0.peer == peer }
        actions += removed.map { .finished($0, .ended(.cancelled)) }
        if let active, active.attempt.peer == peer, case .onAir = active.phase {
            self.active = (active.attempt, .cancelling(.cancelled, graceDeadline: now.advanced(by: cancelGrace)))
            actions.append(.cancelCreate)
        }
        return actions
    }

    /// Sends the attempt on air again (LE Create Connection Cancel, then a new create once the cancel's LE Connection
    /// Complete 0x02 Unknown Connection Identifier came): the device it waits for was heard at another address (a
    /// bonded device's new private address). Nothing when no attempt is on air.
    public mutating func restart(now: ContinuousClock.Instant) -> [Action] {
        guard let active, case .onAir = active.phase else { return [] }
        self.active = (active.attempt, .restarting(graceDeadline: now.advanced(by: cancelGrace)))
        return [.cancelCreate]
    }

    /// Applies timeouts and cancel graces due at `now`.
    public mutating func tick(now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        let expired = waiting.filter { ($0.deadline ?? now.advanced(by: .seconds(1))) <= now }
        waiting.removeAll { ($0.deadline ?? now.advanced(by: .seconds(1))) <= now }
        actions += expired.map { .finished($0, .ended(.timedOut)) }
        if let active {
            switch active.phase {
            case .onAir:
                if let deadline = active.attempt.deadline, deadline <= now {
                    self.active = (active.attempt, .cancelling(.timedOut, graceDeadline: now.advanced(by: cancelGrace)))
                    actions.append(.cancelCreate)
                }
            case .cancelling(let reason, let grace):
                if grace <= now {
                    self.active = nil
                    actions.append(.finished(active.attempt, .ended(reason)))
                    actions += startNext()
                }
            case .restarting(let grace):
                if grace <= now {  // the cancel's event never came: send it again anyway
                    self.active = (active.attempt, .onAir)
                    actions.append(.create(active.attempt))
                }
            }
        }
        return actions
    }

    /// The create command was refused (Command Status or Command Complete with non-zero `status`, or no answer).
    public mutating func createRejected(status: UInt8) -> [Action] {
        guard let active else { return [] }
        self.active = nil
        let outcome: Outcome
        switch active.phase {
        case .cancelling(let reason, _): outcome = .ended(reason)
        default: outcome = .failed(status: status)
        }
        return [.finished(active.attempt, outcome)] + startNext()
    }

    /// LE (Enhanced) Connection Complete in the central role arrived with `status` (and `handle` when 0x00).
    public mutating func connectionComplete(status: UInt8, handle: ConnectionHandle) -> [Action] {
        guard let active else { return [] }
        if case .restarting = active.phase, status != 0x00 {
            // The cancel ended it: the same attempt goes again, to where the device is now.
            self.active = (active.attempt, .onAir)
            return [.create(active.attempt)]
        }
        self.active = nil
        let outcome: Outcome
        switch (active.phase, status) {
        case (.onAir, 0x00), (.restarting, 0x00): outcome = .connected(handle: handle)
        case (.onAir, _), (.restarting, _): outcome = .failed(status: status)
        case (.cancelling(let reason, _), 0x00): outcome = .connectedAfterCancel(handle: handle, reason: reason)
        case (.cancelling(let reason, _), _): outcome = .ended(reason)
        }
        return [.finished(active.attempt, outcome)] + startNext()
    }

    /// Ends every attempt (transport lost or host stopping); nothing more will be sent.
    public mutating func failAll(status: UInt8) -> [Action] {
        let all = attempts
        waiting = []
        active = nil
        return all.map { .finished($0, .failed(status: status)) }
    }

    private mutating func startNext() -> [Action] {
        guard active == nil, !waiting.isEmpty else { return [] }
        let next = waiting.removeFirst()
        active = (next, .onAir)
        return [.create(next)]
    }
}
