// Host-side ATT sequencing: one request at a time, response matching, 30 s timeout, confirmations and the minimal server.

@testable import Host
import Testing

private let start = ContinuousClock.now

@Test func requestsGoOneAtATimeAndMatchTheirResponses() {
    var att = ATTTransactions()
    // ATT_READ_REQ handle 0x0003, then ATT_READ_REQ handle 0x0005 (Vol 3 Part F §3.4.4.3).
    let (first, sendFirst) = att.submit([0x0A, 0x03, 0x00], now: start)
    let (second, sendSecond) = att.submit([0x0A, 0x05, 0x00], now: start)
    #expect(sendFirst == [[0x0A, 0x03, 0x00]])
    #expect(sendSecond.isEmpty)
    let answer = att.receive([0x0B, 0x68, 0x69], now: start)
    #expect(answer.response?.id == first)
    #expect(answer.response?.pdu == [0x0B, 0x68, 0x69])
    #expect(answer.send == [[0x0A, 0x05, 0x00]])
    // ATT_ERROR_RSP for Read Request (0x0A), handle 0x0005, Read Not Permitted (0x02) answers the second.
    let error = att.receive([0x01, 0x0A, 0x05, 0x00, 0x02], now: start)
    #expect(error.response?.id == second)
}

@Test func indicationIsConfirmedAndNotificationHandedUp() {
    var att = ATTTransactions()
    let indication = att.receive([0x1D, 0x10, 0x00, 0x01], now: start)
    #expect(indication.send == [[0x1E]])  // ATT_HANDLE_VALUE_CFM (§3.4.7.3)
    #expect(indication.unsolicited == [0x1D, 0x10, 0x00, 0x01])
    let notification = att.receive([0x1B, 0x10, 0x00, 0x02], now: start)
    #expect(notification.send.isEmpty)
    #expect(notification.unsolicited == [0x1B, 0x10, 0x00, 0x02])
}

@Test func timeoutAfterThirtySecondsKillsTheBearer() {
    var att = ATTTransactions()
    let (id, _) = att.submit([0x0A, 0x03, 0x00], now: start)
    let (queued, _) = att.submit([0x0A, 0x04, 0x00], now: start)
    #expect(att.tick(now: start.advanced(by: .seconds(29))).isEmpty)
    #expect(att.tick(now: start.advanced(by: .seconds(30))) == [id, queued])
    #expect(att.isDead)
    let (_, after) = att.submit([0x0A, 0x03, 0x00], now: start.advanced(by: .seconds(31)))
    #expect(after.isEmpty)
}

@Test func peerRequestsGetTheMinimalServerAnswers() {
    var att = ATTTransactions()
    // ATT_EXCHANGE_MTU_REQ Client Rx MTU 100 → ATT_EXCHANGE_MTU_RSP Server Rx MTU 517; ATT_MTU = 100 (§3.4.2).
    let mtu = att.receive([0x02, 0x64, 0x00], now: start)
    #expect(mtu.send == [[0x03, 0x05, 0x02]])
    #expect(mtu.mtuChanged == 100)
    // ATT_READ_BY_GROUP_TYPE_REQ 0x0001-0xFFFF → Attribute Not Found (0x0A) at handle 0x0001.
    let discovery = att.receive([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28], now: start)
    #expect(discovery.send == [[0x01, 0x10, 0x01, 0x00, 0x0A]])
    // ATT_READ_REQ with nothing outstanding → Request Not Supported (0x06).
    let read = att.receive([0x0A, 0x01, 0x00], now: start)
    #expect(read.send == [[0x01, 0x0A, 0x00, 0x00, 0x06]])
    // ATT_WRITE_CMD: ignored (§3.3.1 allows it).
    #expect(att.receive([0x52, 0x01, 0x00, 0x01], now: start).send.isEmpty)
}
