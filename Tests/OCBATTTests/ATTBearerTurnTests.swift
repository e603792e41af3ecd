// The bearer's turns: a multi-request procedure's requests go out with nothing of others between them.

import OCBATT
import Testing

@Suite struct ATTBearerTurnTests {
    let t0 = ContinuousClock.now

    /// A long write (Prepare Write, Prepare Write, Execute Write, Core v5.4 Vol 3 Part F §3.4.6) keeps the turn: a Read
    /// Request queued meanwhile goes out only after the Execute Write Response and the owner's endTurn.
    @Test func aProcedureKeepsTheTurnUntilItEnds() {
        var bearer = ATTBearer()
        let first = bearer.enqueue(ATTPrepareWriteRequest(attributeHandle: 0x0003, valueOffset: 0, partAttributeValue: [1]),
                                   now: t0, keepsTurn: true)
        let read = bearer.enqueue(ATTReadRequest(attributeHandle: 0x0005), now: t0)
        #expect(sent(bearer.takeEvents()) == [hex("16 03 00 00 00 01")])
        bearer.receive(hex("17 03 00 00 00 01"), now: t0)
        // Completed, and the Read Request waits: the turn is held.
        guard case .requestCompleted(first, .success)? = bearer.takeEvents().first else {
            Issue.record("no completion")
            return
        }
        #expect(bearer.isTurnHeld && bearer.pendingRequest == nil && bearer.queuedRequests == [read])
        bearer.continueTurn(with: ATTPrepareWriteRequest(attributeHandle: 0x0003, valueOffset: 1, partAttributeValue: [2]), now: t0)
        #expect(sent(bearer.takeEvents()) == [hex("16 03 00 01 00 02")])
        bearer.receive(hex("17 03 00 01 00 02"), now: t0)
        _ = bearer.takeEvents()
        bearer.continueTurn(with: ATTExecuteWriteRequest(flags: .writeAllPendingPreparedValues), now: t0, keepsTurn: false)
        #expect(sent(bearer.takeEvents()) == [hex("18 01")])
        // The last request kept no turn: the Read Request follows its response at once.
        bearer.receive(hex("19"), now: t0)
        #expect(sent(bearer.takeEvents()) == [hex("0a 05 00")])
        #expect(!bearer.isTurnHeld)
    }

    /// endTurn lets the queue go on; a request queued `ahead` goes before older ones.
    @Test func endTurnAndAhead() {
        var bearer = ATTBearer()
        _ = bearer.enqueue(ATTReadRequest(attributeHandle: 0x0003), now: t0, keepsTurn: true)
        _ = bearer.enqueue(ATTReadRequest(attributeHandle: 0x0005), now: t0)
        _ = bearer.enqueue(ATTReadRequest(attributeHandle: 0x0007), now: t0, ahead: true)
        _ = bearer.takeEvents()
        bearer.receive(hex("0b 01"), now: t0)
        #expect(sent(bearer.takeEvents()).isEmpty)
        bearer.endTurn(now: t0)
        #expect(sent(bearer.takeEvents()) == [hex("0a 07 00")])
    }

    /// A request sent by a call without the time gets its 30 s (§3.3.3) from the next call that brings it.
    @Test func aRequestSentWithoutTheTimeIsTimedFromTheNextTick() {
        var bearer = ATTBearer()
        _ = bearer.enqueue(ATTReadRequest(attributeHandle: 0x0003), now: nil)
        #expect(bearer.nextDeadline == nil)
        bearer.tick(now: t0)
        #expect(bearer.nextDeadline == t0 + .seconds(30))
        bearer.tick(now: t0 + .seconds(30))
        #expect(bearer.closeReason == .transactionTimeout)
    }

    /// Closing clears a held turn, and the close reason stays readable.
    @Test func closeClearsTheTurn() {
        var bearer = ATTBearer()
        _ = bearer.enqueue(ATTReadRequest(attributeHandle: 0x0003), now: t0, keepsTurn: true)
        bearer.receive(hex("0b 01"), now: t0)
        #expect(bearer.isTurnHeld)
        bearer.close()
        #expect(!bearer.isTurnHeld && bearer.closeReason == .closedByOwner && bearer.isClosed)
    }
}
