// Scripted exchanges of the bearer's client side: queue, timeout, mismatched error, unexpected response.

import OCBATT
import Testing

@Suite struct ATTBearerClientTests {
    let t0 = ContinuousClock.now

    @Test func queueOfRequestsGoesOutOneAtATime() {
        var bearer = ATTBearer()
        let first = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        let second = bearer.enqueue(ATTReadRequest(attributeHandle: 5), now: t0)
        let third = bearer.enqueue(ATTWriteRequest(attributeHandle: 0x0F, attributeValue: [1, 0]), now: t0)
        #expect(sent(bearer.takeEvents()) == [hex("0a 03 00")])
        #expect(bearer.pendingRequest == first && bearer.queuedRequests == [second, third])

        bearer.receive(hex("0b 41 42"), now: t0 + .seconds(1))
        let events = bearer.takeEvents()
        #expect(events == [.requestCompleted(first, .success(.readResponse(ATTReadResponse(attributeValue: [0x41, 0x42])))), .send(hex("0a 05 00"))])

        bearer.receive(hex("01 0a 05 00 02"), now: t0 + .seconds(2))
        #expect(bearer.takeEvents() == [
            .requestCompleted(second, .failure(.errorResponse(ATTErrorResponse(requestOpcode: .readRequest, attributeHandle: 5, error: .readNotPermitted)))),
            .send(hex("12 0f 00 01 00")),
        ])
        bearer.receive(hex("13"), now: t0 + .seconds(3))
        #expect(bearer.takeEvents() == [.requestCompleted(third, .success(.writeResponse(ATTWriteResponse())))])
        #expect(bearer.pendingRequest == nil && bearer.nextDeadline == nil)
    }

    @Test func transactionTimeoutClosesTheBearer() throws {
        var bearer = ATTBearer()
        let first = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        let second = bearer.enqueue(ATTReadRequest(attributeHandle: 5), now: t0 + .seconds(10))
        _ = bearer.takeEvents()
        #expect(bearer.nextDeadline == t0 + .seconds(30))
        bearer.tick(now: t0 + .seconds(30) - .milliseconds(1))
        #expect(bearer.takeEvents() == [])
        bearer.tick(now: t0 + .seconds(30))
        #expect(bearer.takeEvents() == [
            .requestCompleted(first, .failure(.timeout)), .requestCompleted(second, .failure(.timeout)), .closed(.transactionTimeout),
        ])
        #expect(bearer.isClosed)
        // No more ATT on this bearer: later requests fail at once, commands are refused, nothing is answered or confirmed.
        let late = bearer.enqueue(ATTReadRequest(attributeHandle: 7), now: t0 + .seconds(31))
        #expect(bearer.takeEvents() == [.requestCompleted(late, .failure(.bearerClosed))])
        #expect(throws: ATTBearerError.bearerClosed) { try bearer.send(ATTWriteCommand(attributeHandle: 1, attributeValue: [1])) }
        bearer.receive(hex("1d 0e 00 01"), now: t0 + .seconds(32))
        bearer.receive(hex("0b 41"), now: t0 + .seconds(32))
        #expect(sent(bearer.takeEvents()).isEmpty)
    }

    @Test func lateResponseAfterDeadlineCountsAsTimeout() {
        var bearer = ATTBearer()
        let id = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        _ = bearer.takeEvents()
        bearer.receive(hex("0b 41"), now: t0 + .seconds(31))
        let events = bearer.takeEvents()
        #expect(events.prefix(2) == [.requestCompleted(id, .failure(.timeout)), .closed(.transactionTimeout)])
        #expect(events.last == .diagnostic(.receivedWhileClosed(.readResponse)))
    }

    @Test func mismatchedErrorResponseIsDropped() {
        var bearer = ATTBearer()
        let id = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        _ = bearer.takeEvents()
        bearer.receive(hex("01 12 03 00 03"), now: t0)
        #expect(bearer.takeEvents() == [.diagnostic(.mismatchedErrorResponse(
            ATTErrorResponse(requestOpcode: .writeRequest, attributeHandle: 3, error: .writeNotPermitted), pending: .readRequest))])
        #expect(bearer.pendingRequest == id)
        bearer.receive(hex("0b 01"), now: t0)
        #expect(bearer.takeEvents() == [.requestCompleted(id, .success(.readResponse(ATTReadResponse(attributeValue: [1]))))])
    }

    @Test func responsesWithNothingPendingAreDropped() {
        var bearer = ATTBearer()
        bearer.receive(hex("13"), now: t0)
        #expect(bearer.takeEvents() == [.diagnostic(.unexpectedResponse(.writeResponse, pending: nil))])
        bearer.receive(hex("01 0a 03 00 01"), now: t0)
        #expect(bearer.takeEvents() == [.diagnostic(.unexpectedResponse(.errorResponse, pending: nil))])
    }

    @Test func aResponseOfTheWrongKindFailsThePendingRequestAtOnce() {
        var bearer = ATTBearer()
        // ATT_READ_REQ 0x0A | handle 0x0003, then ATT_READ_REQ for 0x0004 queued behind it (§3.3.2).
        let first = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        let second = bearer.enqueue(ATTReadRequest(attributeHandle: 4), now: t0)
        #expect(bearer.takeEvents() == [.send(hex("0a 03 00"))])
        // ATT_WRITE_RSP 0x13 cannot answer a Read Request (only ATT_READ_RSP 0x0B or ATT_ERROR_RSP can): a protocol
        // error, the request fails now (no 30 s wait) and the next one goes out.
        bearer.receive(hex("13"), now: t0)
        #expect(bearer.takeEvents() == [.requestCompleted(first, .failure(.unexpectedResponse(.writeResponse, expected: .readResponse))),
                                        .send(hex("0a 04 00"))])
        #expect(bearer.pendingRequest == second && !bearer.isClosed)
    }

    @Test func anErrorResponseNamingAnotherRequestIsNotTheAnswer() {
        var bearer = ATTBearer()
        let id = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        _ = bearer.takeEvents()
        // ATT_ERROR_RSP for Request Opcode 0x12 (Write Request), handle 3, Write Not Permitted: not for the Read pending.
        bearer.receive(hex("01 12 03 00 03"), now: t0)
        #expect(bearer.takeEvents() == [.diagnostic(.mismatchedErrorResponse(
            ATTErrorResponse(requestOpcode: .writeRequest, attributeHandle: 3, error: .writeNotPermitted), pending: .readRequest))])
        #expect(bearer.pendingRequest == id)
        // The real answer after it completes the read.
        bearer.receive(hex("0b 2a"), now: t0)
        #expect(bearer.takeEvents() == [.requestCompleted(id, .success(.readResponse(ATTReadResponse(attributeValue: [0x2A]))))])
    }

    @Test func malformedResponseFailsItsRequest() {
        var bearer = ATTBearer()
        let id = bearer.enqueue(ATTReadByTypeRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeType: .init(0x2803)), now: t0)
        _ = bearer.takeEvents()
        bearer.receive(hex("09 00"), now: t0)
        #expect(bearer.takeEvents() == [.requestCompleted(id, .failure(.invalidResponse(
            ATTDecodingError(opcode: .readByTypeResponse, field: "Length", offset: 1, reason: .invalidEntryLength(0)))))])
    }

    @Test func closeFailsEverything() {
        var bearer = ATTBearer()
        let first = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        let second = bearer.enqueue(ATTReadRequest(attributeHandle: 4), now: t0)
        _ = bearer.takeEvents()
        bearer.close()
        #expect(bearer.takeEvents() == [.requestCompleted(first, .failure(.bearerClosed)), .requestCompleted(second, .failure(.bearerClosed)), .closed(.closedByOwner)])
    }
}
