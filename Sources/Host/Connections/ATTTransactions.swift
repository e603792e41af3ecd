// Host-side ATT sequencing for one connection: one request at a time, 30 s timeout, confirmations and a minimal server.

/// Sequences ATT on one bearer (Core v5.4 Vol 3 Part F §3.3), sans-I/O with injected time.
///
/// - Requests (opcodes with a response): one outstanding at a time, the rest queued in order. A response is the
///   PDU with opcode request+1, or Error Response (0x01) naming the request's opcode (§3.4.1.1, §3.3.2).
///   A request not answered within 30 s times out; the bearer then takes no more PDUs (§3.3.3).
/// - Handle Value Indication (0x1D) is confirmed with Handle Value Confirmation (0x1E) (§3.4.7.2-3) and handed up,
///   as is Handle Value Notification (0x1B) and Multiple Handle Value Notification (0x23).
/// - The peer's requests to our (empty) server: Exchange MTU (0x02) is answered with our receive MTU (§3.4.2.2);
///   discovery requests (0x04, 0x06, 0x08, 0x10) with Attribute Not Found (0x0A); every other request with Request Not
///   Supported (0x06) (§3.4.1.1). Commands (bit 6 set) are ignored as the spec allows (§3.3.1).
struct ATTTransactions {
    /// What a received PDU produced.
    struct Received {
        /// The request id it answers, with the response PDU.
        var response: (id: UInt64, pdu: [UInt8])?
        /// PDUs to send back now (confirmations, answers to the peer's requests, the next queued request).
        var send: [[UInt8]] = []
        /// A notification or indication (or an unmatched PDU) to hand up.
        var unsolicited: [UInt8]?
        /// The new ATT_MTU when the peer's MTU request changed it.
        var mtuChanged: UInt16?
    }

    /// The ATT transaction timeout (§3.3.3).
    static let timeout: Duration = .seconds(30)
    /// The MTU we offer and answer with (the ATT maximum, §3.2.8).
    static let receiveMTU: UInt16 = 517

    /// ATT_MTU (23 until exchanged).
    var mtu: UInt16 = 23
    /// True after a transaction timed out: no further PDUs may be sent on this bearer.
    private(set) var isDead = false
    private var nextID: UInt64 = 1
    private var outstanding: (id: UInt64, opcode: UInt8, deadline: ContinuousClock.Instant)?
    private var waiting: [(id: UInt64, pdu: [UInt8])] = []

    /// When the outstanding request times out.
    var nextDeadline: ContinuousClock.Instant? { outstanding?.deadline }

    /// Queues a request PDU; returns its id and the PDUs to send now.
    mutating func submit(_ pdu: [UInt8], now: ContinuousClock.Instant) -> (UInt64, [[UInt8]]) {
        let id = nextID
        nextID &+= 1
        waiting.append((id, pdu))
        return (id, pump(now: now))
    }

    /// Takes one PDU received on CID 0x0004.
    mutating func receive(_ pdu: [UInt8], now: ContinuousClock.Instant) -> Received {
        var result = Received()
        guard let opcode = pdu.first else { return result }
        switch opcode {
        case 0x1B, 0x23:
            result.unsolicited = pdu
        case 0x1D:
            result.send.append([0x1E])
            result.unsolicited = pdu
        case 0x02:
            if pdu.count >= 3 {
                let clientMTU = UInt16(pdu[1]) | UInt16(pdu[2]) << 8
                let agreed = max(23, min(clientMTU, Self.receiveMTU))
                if agreed != mtu { mtu = agreed; result.mtuChanged = agreed }
                result.send.append([0x03, UInt8(truncatingIfNeeded: Self.receiveMTU), UInt8(truncatingIfNeeded: Self.receiveMTU >> 8)])
            } else {
                result.send.append(Self.errorResponse(request: opcode, handle: 0, code: 0x04))  // Invalid PDU
            }
        case 0x04, 0x06, 0x08, 0x10:
            let handle = pdu.count >= 3 ? UInt16(pdu[1]) | UInt16(pdu[2]) << 8 : 0
            result.send.append(Self.errorResponse(request: opcode, handle: handle, code: 0x0A))
        default:
            if let outstanding, Self.answers(pdu, request: outstanding.opcode) {
                result.response = (outstanding.id, pdu)
                self.outstanding = nil
                result.send += pump(now: now)
            } else if Self.isRequest(opcode) {
                result.send.append(Self.errorResponse(request: opcode, handle: 0, code: 0x06))
            } else if opcode & 0x40 == 0 {
                result.unsolicited = pdu  // a response nobody waits for (e.g. to a raw request): hand it up
            }
        }
        return result
    }

    /// The id of a request that timed out at `now`, if any (the bearer is dead afterwards), and every queued id.
    mutating func tick(now: ContinuousClock.Instant) -> [UInt64] {
        guard let outstanding, outstanding.deadline <= now else { return [] }
        self.outstanding = nil
        isDead = true
        let ids = [outstanding.id] + waiting.map(\.id)
        waiting = []
        return ids
    }

    /// Every id not yet answered (the link ended).
    mutating func drain() -> [UInt64] {
        let ids = (outstanding.map { [$0.id] } ?? []) + waiting.map(\.id)
        outstanding = nil
        waiting = []
        return ids
    }

    private mutating func pump(now: ContinuousClock.Instant) -> [[UInt8]] {
        guard outstanding == nil, !isDead, !waiting.isEmpty else { return [] }
        let next = waiting.removeFirst()
        outstanding = (next.id, next.pdu.first ?? 0, now.advanced(by: Self.timeout))
        return [next.pdu]
    }

    /// True when `pdu` is the response to a request with opcode `request`.
    static func answers(_ pdu: [UInt8], request: UInt8) -> Bool {
        guard let opcode = pdu.first else { return false }
        if opcode == 0x01 { return pdu.count >= 2 && pdu[1] == request }
        return opcode == request &+ 1
    }

    /// True for client-to-server request opcodes that expect a response (§3.4.8 table of opcodes).
    static func isRequest(_ opcode: UInt8) -> Bool {
        [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20].contains(opcode)
    }

    /// ATT_ERROR_RSP: `0x01 | Request Opcode | Attribute Handle (2) | Error Code` (§3.4.1.1).
    static func errorResponse(request: UInt8, handle: UInt16, code: UInt8) -> [UInt8] {
        [0x01, request, UInt8(truncatingIfNeeded: handle), UInt8(truncatingIfNeeded: handle >> 8), code]
    }
}
