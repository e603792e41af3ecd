// A transport that plays a capture file back to the host in answer to what the host sends, on the capture's clock.

import Dispatch
import Foundation
import OCBHCI

/// The controller of a recording (btsnoop, pcap or pcapng): `OCB_TRANSPORT=replay:PATH` (strict) or
/// `replay-tolerant:PATH` (``TransportSpec/replay(path:mode:)``).
///
/// On open the file is read (errors thrown as ``HCITransportError/replayUnreadable(path:reason:)``) and the
/// controller's packets before the host's first one are played. Each packet the host sends goes to the mode's engine
/// (``StrictReplay``, ``TolerantReplay``), and what it answers is played on the host's queue, one packet per turn of
/// the queue. Time is the recording's: in a strict replay the transport's ``clock`` (a ``ReplayClock``) moves to each
/// played packet's timestamp (a host deadline that falls before it runs first), and while the recording waits for the
/// host, the host's deadlines before the recording's next host packet pass at once (its timeouts happen where the
/// recording has them, without waiting for them). A tolerant replay plays its answers at once and lets up to
/// ``horizon`` of deadlines pass whenever it waits. A 10-minute session plays in milliseconds, the same way every run.
///
/// A strict mismatch is thrown from ``send(_:)`` and ends the transport with ``HCITransportError/replayMismatch(_:)``
/// (the host reports the controller lost, with the mismatch as the reason). A recording is played once per ``ReplaySession``: opening it
/// again (a host retrying a lost controller) throws ``HCITransportError/replayFinished(path:)``.
public final class ReplayTransport: HCITransport, @unchecked Sendable {
    private enum Engine {
        case strict(StrictReplay)
        case tolerant(TolerantReplay)
    }

    /// The recording and whether it was played.
    public let session: ReplaySession
    private let replayClock = ReplayClock()
    private let lock = NSLock()
    private var engine: Engine?
    private var queue: DispatchQueue?
    private var onPacket: (@Sendable (HCIPacket) -> Void)?
    private var onClose: (@Sendable (HCITransportError?) -> Void)?
    private var baseTimestamp: Int64?
    private var origin = ContinuousClock.now
    private var closed = false
    /// The mismatch that ended a strict replay: every later send throws it.
    private var failure: ReplayMismatch?
    /// Records waiting to be played, in order (one per turn of the host's queue, so a host deadline they pass runs
    /// before the next one). Bounded by the recording: each record is played at most once per host packet matched.
    private var waiting: [ReplayRecord] = []
    private var waitingHead = 0
    private var playing = false
    /// How many of the tolerant engine's unmatched kinds ``takeNotices()`` has given.
    private var noticed = 0

    /// A transport for `session`; nothing is read until open.
    public init(session: ReplaySession) { self.session = session }

    /// The recording's clock.
    public var clock: (any HostClock)? { replayClock }

    /// Reads the recording and plays its opening. Throws ``HCITransportError/replayUnreadable(path:reason:)``,
    /// ``HCITransportError/replayFinished(path:)`` or ``HCITransportError/alreadyOpen``.
    public func open(queue: DispatchQueue, onPacket: @escaping @Sendable (HCIPacket) -> Void,
                     onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        let records = try session.claim()
        let opening: [ReplayRecord]
        lock.lock()
        guard engine == nil, !closed else {
            lock.unlock()
            throw .alreadyOpen
        }
        self.queue = queue
        self.onPacket = onPacket
        self.onClose = onClose
        baseTimestamp = records.first?.timestamp
        origin = replayClock.now
        switch session.mode {
        case .strict:
            var strict = StrictReplay(records: records)
            opening = strict.opening()
            engine = .strict(strict)
        case .tolerant:
            var tolerant = TolerantReplay(records: records)
            opening = tolerant.opening()
            engine = .tolerant(tolerant)
        }
        lock.unlock()
        play(opening)
    }

    /// Hands `packet` to the engine and plays its answer. Throws ``HCITransportError/replayMismatch(_:)`` when a strict
    /// replay meets a packet the recording does not have there (then for every later packet too, and the transport
    /// closes with it), ``HCITransportError/notOpen`` before open or after close.
    public func send(_ packet: HCIPacket) throws(HCITransportError) {
        lock.lock()
        if let failure {
            lock.unlock()
            throw .replayMismatch(failure)
        }
        guard !closed, var current = engine else {
            lock.unlock()
            throw .notOpen
        }
        engine = nil  // the engine is changed in place, not copied
        var answer: [ReplayRecord] = []
        var mismatch: ReplayMismatch?
        switch current {
        case .strict(var strict):
            do throws(ReplayMismatch) { answer = try strict.receive(packet) } catch { mismatch = error }
            current = .strict(strict)
        case .tolerant(var tolerant):
            answer = tolerant.receive(packet)
            current = .tolerant(tolerant)
        }
        engine = current
        if let mismatch { failure = mismatch }
        lock.unlock()
        if let mismatch {
            session.record(mismatch)
            end(.replayMismatch(mismatch))
            throw .replayMismatch(mismatch)
        }
        play(answer)
    }

    /// Stops the replay; `onClose(nil)` follows on the queue. Idempotent.
    public func close() { end(nil) }

    /// The tolerant engine's unmatched kinds met since the last call, one line each ("replay (tolerant): …").
    public func takeNotices() -> [String] {
        lock.withLock {
            guard case .tolerant(let tolerant) = engine else { return [] }
            let kinds = tolerant.unmatchedKinds
            defer { noticed = kinds.count }
            return kinds.dropFirst(noticed).map { "replay (tolerant): " + $0 }
        }
    }

    /// What the tolerant engine could not match so far (empty for a strict replay).
    public var unmatched: [String] {
        lock.withLock {
            if case .tolerant(let tolerant) = engine { return tolerant.unmatched }
            return []
        }
    }

    private func end(_ error: HCITransportError?) {
        let (queue, onClose): (DispatchQueue?, (@Sendable (HCITransportError?) -> Void)?) = lock.withLock {
            guard !closed else { return (nil, nil) }
            closed = true
            let callbacks = (self.queue, self.onClose)
            self.onPacket = nil
            self.onClose = nil
            return callbacks
        }
        guard let queue, let onClose else { return }
        queue.async { onClose(error) }
    }

    /// Plays `records` on the host's queue after those already waiting, one per turn of the queue, each at its time;
    /// then lets the host's due deadlines pass.
    private func play(_ records: [ReplayRecord]) {
        let start: DispatchQueue? = lock.withLock {
            guard !closed, let queue else { return nil }
            waiting += records
            guard !playing else { return nil }
            playing = true
            return queue
        }
        start?.async { [self] in playNext() }
    }

    /// One step of playing: a host deadline that falls before the next record runs first (the clock is moved to it
    /// and the step comes again after its handler); else the record is played at its time.
    private func playNext() {
        let step: (record: ReplayRecord, deliver: @Sendable (HCIPacket) -> Void, queue: DispatchQueue)? = lock.withLock {
            guard !closed, let onPacket, let queue, waitingHead < waiting.count else {
                playing = false
                waiting.removeAll(keepingCapacity: true)
                waitingHead = 0
                return nil
            }
            return (waiting[waitingHead], onPacket, queue)
        }
        guard let step else { return passDueDeadlines(until: nil) }
        // A strict replay plays on the recording's clock; a tolerant one plays each answer now (the other stack's
        // timeline says nothing of this one's: its time moves only while it waits, below).
        let instant = session.mode == .strict ? self.instant(of: step.record.timestamp) : replayClock.now
        if let earliest = replayClock.earliestWait, earliest < instant {
            replayClock.advance(to: earliest)  // its handler is queued now: it runs before the record, as it did live
            step.queue.async { [self] in playNext() }
            return
        }
        lock.withLock { waitingHead += 1 }
        replayClock.advance(to: instant)
        step.deliver(step.record.packet)
        step.queue.async { [self] in playNext() }
    }

    /// While the recording waits for the host, its deadlines pass up to a limit fixed when the wait starts, one at a
    /// time, re-checked after each (a periodic timer cannot spin the replay: it stops at the limit).
    /// - Strict: up to the recording's next host packet (in the recording they passed before the host sent it), then
    ///   the clock moves to just before that packet's time, where the host sent it (its own deadlines count from
    ///   there). Past the last host packet: up to ``horizon`` after the last record (a request left unanswered times
    ///   out at once).
    /// - Tolerant: up to ``horizon`` from now (scan-response waits end, timers of a scan run; every request has been
    ///   answered already).
    private func passDueDeadlines(until fixed: ContinuousClock.Instant?) {
        let state: (next: Int64?, last: Int64)? = lock.withLock {
            guard !closed, !playing else { return nil }  // records still to play come first
            switch engine {
            case .strict(let strict)?: return (strict.nextHostTimestamp, strict.lastTimestamp)
            case .tolerant(let tolerant)?: return (nil, tolerant.lastTimestamp)
            case nil: return nil
            }
        }
        guard let state else { return }
        let limit = fixed ?? {
            if session.mode == .tolerant { return replayClock.now + Self.horizon }
            return state.next.map { instant(of: $0) } ?? instant(of: state.last) + Self.horizon
        }()
        guard let earliest = replayClock.earliestWait, earliest <= limit else {
            if session.mode == .strict, let next = state.next { replayClock.advance(to: instant(of: next) - .microseconds(1)) }
            return
        }
        replayClock.advance(to: earliest)
        lock.withLock { queue }?.async { [self] in passDueDeadlines(until: limit) }
    }

    /// How far past its last record a replay lets the host's deadlines pass: 60 s, beyond the ATT transaction timeout
    /// (30 s, Core v5.4 Vol 3 Part F §3.3.3) and the command timeout.
    static let horizon = Duration.seconds(60)

    /// The host-clock instant of a capture timestamp: the replay's start plus the time since the first record.
    private func instant(of timestamp: Int64) -> ContinuousClock.Instant {
        let (base, origin) = lock.withLock { (baseTimestamp ?? timestamp, self.origin) }
        let (offset, overflow) = timestamp.subtractingReportingOverflow(base)
        return origin + .microseconds(overflow ? 0 : max(0, offset))
    }
}
