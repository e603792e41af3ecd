// Command flow control: credits, the queue waiting for them, completion by opcode and the command timeout.

import OCBCore

/// Host-side HCI command flow control (Core v5.4 Vol 4 Part E §4.4), sans-I/O.
///
/// The host may send as many commands as the last Num_HCI_Command_Packets allowed (1 at start). Commands wait in a
/// queue for credit; ``nextPacketsToSend(now:)`` hands out those that may go. Each sent command awaits the
/// Command Complete or Command Status with its opcode (oldest first when the same opcode is sent twice):
/// Command Complete finishes it (failed when Status is not 0x00); Command Status with a non-zero Status fails it;
/// Command Status 0x00 reports ``Outcome/pending``: a later event (e.g. LE Connection Complete) finishes the
/// procedure and the Host tracks that. A Command Complete or Status with opcode 0x0000 only sets credits.
/// ``tick(now:)`` fails commands unanswered for ``timeout`` with ``HCICommandError/timedOut(_:)`` and, like the
/// Linux kernel, then allows one command again so a controller that lost a command does not stall the host.
public struct HCICommandFlow: Sendable {
    /// Identifies one enqueued command.
    public struct Ticket: Hashable, Sendable {
        /// A number unique within this flow.
        public let id: UInt64
    }

    /// How a command ended (or that it is now pending).
    public enum Outcome: Hashable, Sendable {
        /// Command Complete with Status 0x00; decode with ``HCICommandCompleteEvent/returnParameters(of:)``.
        case completed(HCICommandCompleteEvent)
        /// Command Status 0x00: accepted; a later event completes the procedure.
        case pending
        /// Failed: non-zero Status in Command Complete or Command Status, malformed completion, or timeout.
        case failed(HCICommandError)
    }

    /// One command's outcome.
    public struct Completion: Hashable, Sendable {
        /// The command's ticket.
        public var ticket: Ticket
        /// The command's opcode.
        public var opcode: HCIOpcode
        /// The outcome.
        public var outcome: Outcome
        /// Makes the value from its fields.
        public init(ticket: Ticket, opcode: HCIOpcode, outcome: Outcome) {
            self.ticket = ticket
            self.opcode = opcode
            self.outcome = outcome
        }
    }

    private struct Queued: Sendable {
        var ticket: Ticket
        var opcode: HCIOpcode
        var packet: HCIPacket
    }

    private struct Sent: Sendable {
        var ticket: Ticket
        var opcode: HCIOpcode
        var deadline: ContinuousClock.Instant
    }

    /// How long a sent command may wait for Command Complete or Command Status.
    public let timeout: Duration
    /// Commands the controller currently accepts (Num_HCI_Command_Packets minus those sent since).
    public private(set) var credits: Int
    private var queue: [Queued] = []
    private var sent: [Sent] = []
    private var nextID: UInt64 = 0

    /// Makes the flow with one credit (Vol 4 Part E §4.4: the host may send one command after power-on).
    public init(timeout: Duration = .seconds(2), initialCredits: Int = 1) {
        self.timeout = timeout
        credits = max(0, initialCredits)
    }

    /// Commands waiting for credit.
    public var queuedCount: Int { queue.count }
    /// Commands sent and not yet answered.
    public var awaitingCount: Int { sent.count }
    /// The earliest timeout deadline among sent commands, for the Host's timer; nil when none is awaited.
    public var nextDeadline: ContinuousClock.Instant? { sent.lazy.map { $0.deadline }.min() }

    /// Queues a typed command.
    public mutating func enqueue<C: HCICommand>(_ command: C) -> Ticket {
        enqueue(opcode: C.opcode, packet: command.packet)
    }

    /// Queues a raw command.
    public mutating func enqueue(_ command: HCIRawCommand) -> Ticket {
        enqueue(opcode: command.opcode, packet: command.packet)
    }

    private mutating func enqueue(opcode: HCIOpcode, packet: HCIPacket) -> Ticket {
        nextID &+= 1
        let ticket = Ticket(id: nextID)
        queue.append(Queued(ticket: ticket, opcode: opcode, packet: packet))
        return ticket
    }

    /// Takes the queued commands that credits allow, oldest first, and starts their timeouts at `now`.
    public mutating func nextPacketsToSend(now: ContinuousClock.Instant) -> [HCIPacket] {
        var packets: [HCIPacket] = []
        while credits > 0, !queue.isEmpty {
            let next = queue.removeFirst()
            credits -= 1
            sent.append(Sent(ticket: next.ticket, opcode: next.opcode, deadline: now.advanced(by: timeout)))
            packets.append(next.packet)
        }
        return packets
    }

    /// Handles an event: Command Complete and Command Status set credits and finish the oldest sent command with
    /// their opcode; other events, and answers to opcodes not awaited, give no completion.
    public mutating func handle(_ event: HCIEvent) -> [Completion] {
        switch event {
        case .commandComplete(let complete):
            credits = Int(complete.numHCICommandPackets)
            guard complete.opcode.rawValue != 0, let sent = takeSent(complete.opcode) else { return [] }
            let outcome: Outcome
            if let status = complete.status {
                outcome = status.isSuccess ? .completed(complete) : .failed(.failed(status))
            } else {
                outcome = .failed(.malformed(HCIEventDecodingError(event: "Command Complete (\(complete.opcode.name))", field: "Status",
                                                                   offset: 3, reason: "no return parameters")))
            }
            return [Completion(ticket: sent.ticket, opcode: sent.opcode, outcome: outcome)]
        case .commandStatus(let status):
            credits = Int(status.numHCICommandPackets)
            guard status.opcode.rawValue != 0, let sent = takeSent(status.opcode) else { return [] }
            let outcome: Outcome = status.status.isSuccess ? .pending : .failed(.failed(status.status))
            return [Completion(ticket: sent.ticket, opcode: sent.opcode, outcome: outcome)]
        default:
            return []
        }
    }

    /// Moves every sent command's deadline to `instant` when it is earlier: the host had not read all the controller
    /// sent, and an answer may be waiting among it (the time was the host's, not the controller's).
    public mutating func postponeDeadlines(to instant: ContinuousClock.Instant) {
        for index in sent.indices where sent[index].deadline < instant { sent[index].deadline = instant }
    }

    /// Fails every sent command whose deadline is at or before `now` with ``HCICommandError/timedOut(_:)``;
    /// after a timeout at least one credit is available again.
    public mutating func tick(now: ContinuousClock.Instant) -> [Completion] {
        let expired = sent.filter { $0.deadline <= now }
        guard !expired.isEmpty else { return [] }
        sent.removeAll { $0.deadline <= now }
        credits = max(credits, 1)
        return expired.map { Completion(ticket: $0.ticket, opcode: $0.opcode, outcome: .failed(.timedOut($0.opcode))) }
    }

    /// Drops every queued and sent command (e.g. the transport closed), failing each with ``HCICommandError/timedOut(_:)``
    /// (never answered), and restores one credit.
    public mutating func cancelAll() -> [Completion] {
        let all = sent.map { ($0.ticket, $0.opcode) } + queue.map { ($0.ticket, $0.opcode) }
        sent.removeAll()
        queue.removeAll()
        credits = 1
        return all.map { Completion(ticket: $0.0, opcode: $0.1, outcome: .failed(.timedOut($0.1))) }
    }

    private mutating func takeSent(_ opcode: HCIOpcode) -> Sent? {
        guard let index = sent.firstIndex(where: { $0.opcode == opcode }) else { return nil }
        return sent.remove(at: index)
    }
}
