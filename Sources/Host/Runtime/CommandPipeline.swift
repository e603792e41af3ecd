// Sans-I/O HCI command flow: credits from Num_HCI_Command_Packets, answers matched by opcode, timeouts with injected time.

import HCI

/// Sends HCI commands as the controller allows and matches their answers (Core v5.4 Vol 4 Part E §4.4).
///
/// The controller grants Num_HCI_Command_Packets credits in each Command Complete and Command Status (§7.7.14,
/// §7.7.15); one credit is assumed at start and after Reset. A command waits in order for a credit; a sent command
/// is answered by the first Command Complete or Command Status with its opcode. A command unanswered at its
/// deadline times out and its credit is given back (the controller will not answer it any more; BlueZ does the same).
struct CommandPipeline {
    struct Entry {
        let id: UInt64
        let opcode: HCIOpcode
        let packet: HCIPacket
        let timeout: Duration
        var deadline: ContinuousClock.Instant?
    }

    private(set) var credits = 1
    private var nextID: UInt64 = 1
    private var waiting: [Entry] = []
    private var sent: [Entry] = []

    /// Queues a command; returns its id and the packets that may be sent now.
    mutating func submit(_ packet: HCIPacket, opcode: HCIOpcode, timeout: Duration, now: ContinuousClock.Instant) -> (UInt64, [HCIPacket]) {
        let id = nextID
        nextID &+= 1
        waiting.append(Entry(id: id, opcode: opcode, packet: packet, timeout: timeout, deadline: nil))
        return (id, release(now: now))
    }

    /// An answer (Command Complete or Command Status) for `opcode` granting `credits`; returns the id it answers
    /// (nil for opcode 0x0000 or an unmatched answer) and the packets that may be sent now.
    mutating func answer(opcode: HCIOpcode, credits granted: UInt8, now: ContinuousClock.Instant) -> (UInt64?, [HCIPacket]) {
        credits = Int(granted)
        var matched: UInt64?
        if opcode.rawValue != 0, let index = sent.firstIndex(where: { $0.opcode == opcode }) {
            matched = sent.remove(at: index).id
        }
        return (matched, release(now: now))
    }

    /// Ids and opcodes of sent commands whose deadline passed, and the packets that may be sent now.
    mutating func tick(now: ContinuousClock.Instant) -> ([(id: UInt64, opcode: HCIOpcode)], [HCIPacket]) {
        let expired = sent.filter { ($0.deadline ?? now.advanced(by: .seconds(1))) <= now }
        guard !expired.isEmpty else { return ([], []) }
        sent.removeAll { ($0.deadline ?? now.advanced(by: .seconds(1))) <= now }
        credits = max(credits, 1)
        return (expired.map { ($0.id, $0.opcode) }, release(now: now))
    }

    /// The earliest deadline of a sent command.
    var nextDeadline: ContinuousClock.Instant? { sent.compactMap(\.deadline).min() }

    /// Forgets everything (transport closed); returns every id still waiting or sent.
    mutating func reset() -> [UInt64] {
        let ids = sent.map(\.id) + waiting.map(\.id)
        sent = []
        waiting = []
        credits = 1
        return ids
    }

    private mutating func release(now: ContinuousClock.Instant) -> [HCIPacket] {
        var packets: [HCIPacket] = []
        while credits > 0, !waiting.isEmpty {
            var entry = waiting.removeFirst()
            entry.deadline = now.advanced(by: entry.timeout)
            sent.append(entry)
            credits -= 1
            packets.append(entry.packet)
        }
        return packets
    }
}
