// The bearer's security retry: a request answered 0x05, 0x0C or 0x0F waits for the link's security, then goes again once.

import OCBATT
import Testing

@Suite struct ATTBearerSecurityTests {
    let t0 = ContinuousClock.now
    /// ATT_ERROR_RSP for ATT_READ_REQ on handle 0x0003 with `code` (Core v5.4 Vol 3 Part F §3.4.1.1).
    func errorResponse(_ code: UInt8) -> [UInt8] { [0x01, 0x0A, 0x03, 0x00, code] }

    @Test(arguments: [(UInt8(0x05), ATTError.insufficientAuthentication), (0x0F, .insufficientEncryption), (0x0C, .encryptionKeySizeTooShort)])
    func insufficientSecurityParksTheRequestUntilRaised(code: UInt8, error: ATTError) {
        var bearer = ATTBearer()
        bearer.raisesSecurityOnError = true
        let read = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        let behind = bearer.enqueue(ATTReadRequest(attributeHandle: 5), now: t0)
        _ = bearer.takeEvents()
        bearer.receive(errorResponse(code), now: t0 + .milliseconds(5))
        #expect(bearer.takeEvents() == [.securityRequired(ATTErrorResponse(requestOpcode: .readRequest, attributeHandle: 3, error: error))])
        #expect(bearer.isWaitingForSecurity && bearer.pendingRequest == nil && bearer.nextDeadline == nil,
                "no transaction runs while the link is paired: the Error Response ended it")
        // Pairing takes as long as it takes: no timeout fires meanwhile.
        bearer.tick(now: t0 + .seconds(60))
        #expect(bearer.takeEvents().isEmpty)

        bearer.securityRaised(now: t0 + .seconds(61))
        #expect(bearer.takeEvents() == [.send([0x0A, 0x03, 0x00])], "the same request again, and nothing behind it yet")
        #expect(bearer.pendingRequest == read && bearer.nextDeadline == t0 + .seconds(91))
        bearer.receive([0x0B, 0x53], now: t0 + .seconds(62))
        #expect(bearer.takeEvents() == [.requestCompleted(read, .success(.readResponse(ATTReadResponse(attributeValue: [0x53])))),
                                        .send([0x0A, 0x05, 0x00])])
        #expect(bearer.pendingRequest == behind)
    }

    @Test func aSecondInsufficientSecurityErrorCompletesTheRetriedRequest() {
        var bearer = ATTBearer()
        bearer.raisesSecurityOnError = true
        let read = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        _ = bearer.takeEvents()
        bearer.receive(errorResponse(0x05), now: t0)
        _ = bearer.takeEvents()
        bearer.securityRaised(now: t0)
        _ = bearer.takeEvents()
        bearer.receive(errorResponse(0x05), now: t0)
        #expect(bearer.takeEvents() == [.requestCompleted(read, .failure(.errorResponse(
            ATTErrorResponse(requestOpcode: .readRequest, attributeHandle: 3, error: .insufficientAuthentication))))],
                "encrypted and still refused: the requester gets the error, no pairing loop")
    }

    @Test func securityNotRaisedCompletesWithTheOriginalErrorAndTheQueueGoesOn() {
        var bearer = ATTBearer()
        bearer.raisesSecurityOnError = true
        let read = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        _ = bearer.enqueue(ATTReadRequest(attributeHandle: 5), now: t0)
        _ = bearer.takeEvents()
        bearer.receive(errorResponse(0x0F), now: t0)
        _ = bearer.takeEvents()
        bearer.securityNotRaised(now: t0 + .seconds(1))
        #expect(bearer.takeEvents() == [
            .requestCompleted(read, .failure(.errorResponse(ATTErrorResponse(requestOpcode: .readRequest, attributeHandle: 3, error: .insufficientEncryption)))),
            .send([0x0A, 0x05, 0x00]),
        ])
    }

    @Test func withoutTheSettingTheErrorCompletesAtOnce() {
        var bearer = ATTBearer()
        let read = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        _ = bearer.takeEvents()
        bearer.receive(errorResponse(0x05), now: t0)
        #expect(bearer.takeEvents() == [.requestCompleted(read, .failure(.errorResponse(
            ATTErrorResponse(requestOpcode: .readRequest, attributeHandle: 3, error: .insufficientAuthentication))))])
    }

    @Test func otherErrorsAreNotParked() {
        var bearer = ATTBearer()
        bearer.raisesSecurityOnError = true
        let read = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        _ = bearer.takeEvents()
        bearer.receive(errorResponse(0x08), now: t0)  // Insufficient Authorization: the app's business, not pairing
        #expect(bearer.takeEvents() == [.requestCompleted(read, .failure(.errorResponse(
            ATTErrorResponse(requestOpcode: .readRequest, attributeHandle: 3, error: .insufficientAuthorization))))])
    }

    @Test func closingFailsAParkedRequest() {
        var bearer = ATTBearer()
        bearer.raisesSecurityOnError = true
        let read = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        let behind = bearer.enqueue(ATTReadRequest(attributeHandle: 5), now: t0)
        _ = bearer.takeEvents()
        bearer.receive(errorResponse(0x05), now: t0)
        _ = bearer.takeEvents()
        bearer.close()
        #expect(bearer.takeEvents() == [.requestCompleted(read, .failure(.bearerClosed)), .requestCompleted(behind, .failure(.bearerClosed)),
                                        .closed(.closedByOwner)])
        bearer.securityRaised(now: t0)
        #expect(bearer.takeEvents().isEmpty, "nothing goes out on a closed bearer")
    }
}
