// The LE signaling channel: parameter updates, rejects, credit based refusals, our own requests.

import OCBL2CAP
import Testing

@Suite struct L2CAPSignalingTests {
    @Test func acceptsParametersInBounds() {
        var channel = L2CAPLESignalingChannel()
        // Interval 6...12 (7.5...15 ms), latency 0, timeout 200 (2 s).
        let events = channel.receive(hex("12 07 08 00 06 00 0c 00 00 00 c8 00"))
        #expect(events == [
            .send(L2CAPSignalingCommand(code: 0x13, identifier: 0x07, data: [0x00, 0x00])),
            .connectionParameterUpdateAccepted(L2CAPConnectionParameters(intervalMin: 6, intervalMax: 12, latency: 0, timeout: 200)),
        ])
        if case .send(let command) = events.first { #expect(command.bytes == hex("13 07 02 00 00 00")) }
    }

    @Test func rejectsParametersOutOfBounds() {
        var channel = L2CAPLESignalingChannel()
        // Interval max 3200 (4 s), latency 1, timeout 1000 (10 s): (1 + 1) * 4 s * 2 = 16 s is not below 10 s.
        let events = channel.receive(hex("12 08 08 00 06 00 80 0c 01 00 e8 03"))
        #expect(events == [
            .send(L2CAPSignalingCommand(code: 0x13, identifier: 0x08, data: [0x01, 0x00])),
            .connectionParameterUpdateRejected(L2CAPConnectionParameters(intervalMin: 6, intervalMax: 3200, latency: 1, timeout: 1000)),
        ])
    }

    @Test func boundsOfTheSpec() {
        #expect(L2CAPConnectionParameters(intervalMin: 6, intervalMax: 3200, latency: 0, timeout: 3200).isValid)
        #expect(!L2CAPConnectionParameters(intervalMin: 5, intervalMax: 6, latency: 0, timeout: 100).isValid)
        #expect(!L2CAPConnectionParameters(intervalMin: 6, intervalMax: 3201, latency: 0, timeout: 3200).isValid)
        #expect(!L2CAPConnectionParameters(intervalMin: 12, intervalMax: 6, latency: 0, timeout: 100).isValid)
        #expect(!L2CAPConnectionParameters(intervalMin: 6, intervalMax: 6, latency: 500, timeout: 3200).isValid)
        #expect(!L2CAPConnectionParameters(intervalMin: 6, intervalMax: 6, latency: 0, timeout: 9).isValid)
        #expect(!L2CAPConnectionParameters(intervalMin: 6, intervalMax: 6, latency: 0, timeout: 3201).isValid)
        // 40 ms interval (32), latency 4: (1 + 4) * 40 ms * 2 = 400 ms; the timeout must exceed it.
        #expect(!L2CAPConnectionParameters(intervalMin: 32, intervalMax: 32, latency: 4, timeout: 40).isValid)
        #expect(L2CAPConnectionParameters(intervalMin: 32, intervalMax: 32, latency: 4, timeout: 41).isValid)
    }

    @Test func unknownCommandGetsCommandReject() {
        var channel = L2CAPLESignalingChannel()
        let events = channel.receive(hex("0a 03 02 00 02 00")) // Information Request is BR/EDR only.
        #expect(events.first == .send(L2CAPSignalingCommand(code: .commandReject, identifier: 0x03, data: [0x00, 0x00])))
        if case .send(let command) = events.first { #expect(command.bytes == hex("01 03 02 00 00 00")) }
        // A parameter update request with a 6-byte data field is not understood either.
        #expect(channel.receive(hex("12 04 06 00 06 00 0c 00 00 00")).first
            == .send(L2CAPSignalingCommand(code: .commandReject, identifier: 0x04, data: [0x00, 0x00])))
        // Length field disagreeing with the data: rejected with the readable identifier.
        #expect(channel.receive(hex("12 05 09 00 06 00")).contains(.send(L2CAPSignalingCommand(code: .commandReject, identifier: 0x05, data: [0x00, 0x00]))))
    }

    @Test func disconnectionRequestGetsInvalidCID() {
        var channel = L2CAPLESignalingChannel()
        #expect(channel.receive(hex("06 09 04 00 40 00 41 00")).first
            == .send(L2CAPSignalingCommand(code: .commandReject, identifier: 0x09, data: hex("02 00 40 00 41 00"))))
    }

    @Test func creditBasedRequestsRefusedSPSMNotSupported() {
        var channel = L2CAPLESignalingChannel()
        #expect(channel.receive(hex("14 0a 0a 00 80 00 40 00 f7 00 f7 00 0a 00")).first
            == .send(L2CAPSignalingCommand(code: 0x15, identifier: 0x0a, data: hex("00 00 00 00 00 00 00 00 02 00"))))
        #expect(channel.receive(hex("17 0b 0c 00 80 00 f7 00 f7 00 0a 00 40 00 41 00")).first
            == .send(L2CAPSignalingCommand(code: 0x18, identifier: 0x0b, data: hex("00 00 00 00 00 00 02 00 00 00 00 00"))))
    }

    @Test func responsesAreMatchedNeverAnswered() {
        var channel = L2CAPLESignalingChannel()
        let request = channel.makeRequest(code: .connectionParameterUpdateRequest, data: hex("06 00 0c 00 00 00 c8 00"))
        #expect(request.identifier == 0x01)
        #expect(channel.outstandingRequests == [0x01: .connectionParameterUpdateRequest])
        // Command Reject to our request is reported.
        #expect(channel.receive(hex("01 01 02 00 00 00"))
            == [.requestRejected(request: .connectionParameterUpdateRequest, identifier: 1, reason: .commandNotUnderstood, data: [])])
        #expect(channel.outstandingRequests.isEmpty)
        // The same response again matches nothing: dropped, nothing sent.
        let events = channel.receive(hex("01 01 02 00 00 00"))
        #expect(events == [.diagnostic(.unmatchedResponse(L2CAPSignalingCommand(code: .commandReject, identifier: 1, data: [0, 0])))])
        let second = channel.makeRequest(code: .disconnectionRequest, data: hex("40 00 40 00"))
        #expect(second.identifier == 0x02)
        #expect(channel.receive(hex("07 02 04 00 40 00 40 00"))
            == [.response(request: .disconnectionRequest, command: L2CAPSignalingCommand(code: 0x07, identifier: 2, data: hex("40 00 40 00")))])
    }

    @Test func identifierZeroAndShortFrames() {
        var channel = L2CAPLESignalingChannel()
        #expect(channel.receive(hex("12 00 08 00 06 00 0c 00 00 00 c8 00")) == [.diagnostic(.invalidIdentifier(.connectionParameterUpdateRequest))])
        #expect(channel.receive(hex("12")) == [.diagnostic(.malformedCommand(.truncated(length: 1), bytes: [0x12]))])
    }
}
