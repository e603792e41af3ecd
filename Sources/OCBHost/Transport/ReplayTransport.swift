// A transport that plays a capture file back to the host in answer to what the host sends, on the capture's clock.

import Dispatch
import Foundation
import OCBHCI

/// The controller of a recording (btsnoop, pcap or pcapng): `OCB_TRANSPORT=replay:PATH` (strict) or
/// `replay-tolerant:PATH` (``TransportSpec/replay(path:mode:)``).
///
/// On open the file is read (errors thrown as ``HCITransportError/replayUnreadable(path:reason:)``) and the
/// controller's packets before the host's first one are played. Each packet the host sends goes to the mode's engine
/// (``StrictReplay``, ``TolerantReplay``), and what it answers is played on the host's queue. Time is the recording's:
/// the transport's ``clock`` (a ``ReplayClock``) moves to each played packet's timestamp, and while the recording waits
/// for the host, a host deadline that falls before the recording's next host packet is reached at once (the host's
/// timeouts happen where the recording has them, without waiting for them). A 10-minute session plays in
/// milliseconds, the same way every run.
///
/// A strict mismatch ends the transport with ``HCITransportError/replayMismatch(_:)`` (the host reports the
/// controller lost, with the mismatch as the reason). A recording is played once per ``ReplaySession``: opening it
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

    /// Hands `packet` to the engine and plays its answer; a strict mismatch closes the transport with it.
    /// Throws ``HCITransportError/notOpen`` before open or after close.
    public func send(_ packet: HCIPacket) throws(HCITransportError) {
        lock.lock()
        guard !closed, var current = engine else {
            lock.unlock()
            throw .notOpen
        }
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
        lock.unlock()
        if let mismatch {
            session.record(mismatch)
            end(.replayMismatch(mismatch))
            return
        }
        play(answer)
    }

    /// Stops the replay; `onClose(nil)` follows on the queue. Idempotent.
    public func close() { end(nil) }

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

    /// Plays `records` on the host's queue, each at its time, then lets the host's due deadlines pass.
    private func play(_ records: [ReplayRecord]) {
        guard let queue = lock.withLock({ self.queue }) else { return }
        for record in records {
            let instant = self.instant(of: record.timestamp)
            queue.async { [self] in
                guard let deliver = lock.withLock({ closed ? nil : onPacket }) else { return }
                replayClock.advance(to: instant)
                deliver(record.packet)
            }
        }
        queue.async { [self] in passDueDeadlines() }
    }

    /// While the recording waits for the host: a host deadline before the recording's next host packet is reached now
    /// (in the recording, it passed before the host sent that packet); past the recording's last host packet, every
    /// deadline is (nothing will come: a request left unanswered times out at once, 30 s of recording time in no time).
    /// One at a time, re-checked after each.
    private func passDueDeadlines() {
        let next: Int64?? = lock.withLock {
            guard !closed else { return nil }
            switch engine {
            case .strict(let strict)?: return .some(strict.nextHostTimestamp)
            case .tolerant(let tolerant)?: return .some(tolerant.nextHostTimestamp)
            case nil: return nil
            }
        }
        guard let next, let earliest = replayClock.earliestWait else { return }
        if let next, earliest > instant(of: next) { return }
        replayClock.advance(to: earliest)
        lock.withLock { queue }?.async { [self] in passDueDeadlines() }
    }

    /// The host-clock instant of a capture timestamp: the replay's start plus the time since the first record.
    private func instant(of timestamp: Int64) -> ContinuousClock.Instant {
        let base = lock.withLock { baseTimestamp } ?? timestamp
        let (offset, overflow) = timestamp.subtractingReportingOverflow(base)
        return origin + .microseconds(overflow ? 0 : max(0, offset))
    }
}
