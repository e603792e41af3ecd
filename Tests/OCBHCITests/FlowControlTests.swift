// Command and ACL flow control: credits, queueing, pending status, timeouts and disconnection.

import OCBCore
import OCBHCI
import Testing

@Suite struct FlowControlTests {
    @Test func commandsWaitForCreditAndCompleteByOpcode() throws {
        var flow = HCICommandFlow(timeout: .seconds(2))
        let start = ContinuousClock.now
        let reset = flow.enqueue(HCIReset())
        let address = flow.enqueue(HCIReadBDADDR())
        #expect(flow.nextPacketsToSend(now: start).map(\.h4Bytes) == [hex("01 03 0c 00")])   // one credit at start
        #expect(flow.queuedCount == 1)
        // bottle frame 2: Reset complete, 1 credit.
        let done = flow.handle(try event("04 0e 04 01 03 0c 00"))
        #expect(done.first?.ticket == reset)
        #expect(flow.nextPacketsToSend(now: start).map(\.h4Bytes) == [hex("01 09 10 00")])
        let completed = flow.handle(try event("04 0e 0a 01 09 10 00 3c 89 d1 93 42 03"))
        guard case .completed(let complete) = completed.first?.outcome else { Issue.record("not completed"); return }
        #expect(completed.first?.ticket == address)
        #expect(try complete.returnParameters(of: HCIReadBDADDR.self) == BluetoothAddress("03:42:93:D1:89:3C"))
    }

    @Test func commandStatusZeroReportsPendingAndCreditsFollowTheController() throws {
        var flow = HCICommandFlow()
        let now = ContinuousClock.now
        let connect = flow.enqueue(HCILECreateConnection(peerAddressType: .public, peerAddress: .zero))
        _ = flow.nextPacketsToSend(now: now)
        let status = flow.handle(try event("04 0f 04 00 05 0d 20"))                    // 5 credits
        #expect(status == [.init(ticket: connect, opcode: .leCreateConnection, outcome: .pending)])
        #expect(flow.credits == 5)
        for _ in 0..<6 { _ = flow.enqueue(HCILECreateConnectionCancel()) }
        #expect(flow.nextPacketsToSend(now: now).count == 5 && flow.queuedCount == 1)
    }

    @Test func postponedDeadlinesMoveOnlyEarlierOnes() throws {
        // The host had unread input when the timer fired: the answer may be in it, so the wait goes on to `later`.
        var flow = HCICommandFlow(timeout: .milliseconds(500))
        let start = ContinuousClock.now
        let ticket = flow.enqueue(HCIReset())
        _ = flow.nextPacketsToSend(now: start)
        #expect(flow.nextDeadline == start.advanced(by: .milliseconds(500)))
        flow.postponeDeadlines(to: start.advanced(by: .milliseconds(750)))
        #expect(flow.tick(now: start.advanced(by: .milliseconds(600))).isEmpty, "not timed out at its first deadline")
        flow.postponeDeadlines(to: start.advanced(by: .milliseconds(700)))
        #expect(flow.nextDeadline == start.advanced(by: .milliseconds(750)), "a later deadline is never moved earlier")
        #expect(flow.tick(now: start.advanced(by: .milliseconds(750))).map(\.ticket) == [ticket])
    }

    @Test func unansweredCommandTimesOut() throws {
        var flow = HCICommandFlow(timeout: .milliseconds(500))
        let start = ContinuousClock.now
        let ticket = flow.enqueue(HCILESetPHY(handle: 1, txPHYs: .le2M, rxPHYs: .le2M))
        _ = flow.nextPacketsToSend(now: start)
        #expect(flow.nextDeadline == start.advanced(by: .milliseconds(500)))
        #expect(flow.tick(now: start.advanced(by: .milliseconds(499))).isEmpty)
        let expired = flow.tick(now: start.advanced(by: .milliseconds(500)))
        #expect(expired == [.init(ticket: ticket, opcode: .leSetPHY, outcome: .failed(.timedOut(.leSetPHY)))])
        #expect(flow.credits == 1 && flow.awaitingCount == 0 && flow.nextDeadline == nil)
    }

    @Test func aclDisconnectionReturnsCreditsAndDropsQueue() throws {
        var flow = ACLFlow(maxDataLength: 27, totalPackets: 2)
        for handle: ConnectionHandle in [1, 1, 1, 2] { try flow.enqueue(HCIACLDataPacket(handle: handle, packetBoundary: .firstFlushable, data: [UInt8(handle.rawValue)])) }
        #expect(flow.nextPacketsToSend().map(\.handle) == [1, 2])                      // round robin across handles
        #expect(flow.queuedCount(handle: 1) == 2)
        flow.handle(try event("04 05 04 00 01 00 13"))                                 // handle 1 disconnected
        #expect(flow.availableCredits == 1 && flow.queuedCount == 0 && flow.outstanding(handle: 1) == 0)
        // Completions beyond what is outstanding never inflate credits.
        #expect(flow.handle(HCINumberOfCompletedPacketsEvent(entries: [.init(handle: 2, completedPackets: 5)])) == 4)
        #expect(flow.availableCredits == 2)
        #expect(throws: ACLFlow.Error.packetTooLong(length: 28, maximum: 27)) {
            try flow.enqueue(HCIACLDataPacket(handle: 2, packetBoundary: .firstFlushable, data: [UInt8](repeating: 0, count: 28)))
        }
    }

    @Test func sharedBuffersAreUsedWhenLEReportsZero() throws {
        let shared = HCIReadBufferSize.decodeReturnParameters
        let sizes = try shared(hex("00 04 32 07 00 08 00"))                               // bottle frame 4
        let flow = try #require(ACLFlow(leBufferSize: LEBufferSize(leACLDataPacketLength: 0, totalNumLEACLDataPackets: 0), sharedBufferSize: sizes))
        #expect(flow.maxDataLength == 1024 && flow.totalPackets == 7)
        #expect(ACLFlow(leBufferSize: LEBufferSize(leACLDataPacketLength: 0, totalNumLEACLDataPackets: 0), sharedBufferSize: nil) == nil)
    }
}
