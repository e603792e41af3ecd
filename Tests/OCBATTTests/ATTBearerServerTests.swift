// The central's minimal ATT server: the right Error Response for each request, silence for commands.

import OCBATT
import Testing

@Suite struct ATTBearerServerTests {
    let t0 = ContinuousClock.now

    func answer(_ request: String) -> [[UInt8]] {
        var bearer = ATTBearer()
        bearer.receive(hex(request), now: t0)
        return sent(bearer.takeEvents())
    }

    @Test func discoveryOnAnEmptyDatabase() {
        #expect(answer("10 01 00 ff ff 00 28") == [hex("01 10 01 00 0a")])
        #expect(answer("08 01 00 ff ff 03 28") == [hex("01 08 01 00 0a")])
        #expect(answer("04 01 00 ff ff") == [hex("01 04 01 00 0a")])
        #expect(answer("06 01 00 ff ff 00 28 0d 18") == [hex("01 06 01 00 0a")])
        // Bad ranges: Invalid Handle with the starting handle.
        #expect(answer("04 00 00 ff ff") == [hex("01 04 00 00 01")])
        #expect(answer("08 05 00 01 00 03 28") == [hex("01 08 05 00 01")])
        // A group type that is not a service.
        #expect(answer("10 01 00 ff ff 03 28") == [hex("01 10 01 00 10")])
    }

    @Test func readsAndWritesGetInvalidHandle() {
        #expect(answer("0a 03 00") == [hex("01 0a 03 00 01")])
        #expect(answer("0c 03 00 16 00") == [hex("01 0c 03 00 01")])
        #expect(answer("0e 03 00 05 00") == [hex("01 0e 03 00 01")])
        #expect(answer("20 03 00 05 00") == [hex("01 20 03 00 01")])
        #expect(answer("12 0f 00 01 00") == [hex("01 12 0f 00 01")])
        #expect(answer("16 10 00 00 00 01") == [hex("01 16 10 00 01")])
        #expect(answer("18 01") == [hex("19")])
    }

    @Test func unsupportedMalformedAndCommands() {
        #expect(answer("3f 01 02") == [hex("01 3f 00 00 06")])
        #expect(answer("0a 03") == [hex("01 0a 00 00 04")])
        #expect(answer("52 10 00 01") == [])
        #expect(answer("d2 10 00 01 a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 aa ab") == [])
        #expect(answer("7f 01") == [])
        #expect(answer("1e") == [])
    }

    @Test func serverAnswersWhileOurRequestIsPending() {
        var bearer = ATTBearer()
        let id = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        _ = bearer.takeEvents()
        bearer.receive(hex("0a 01 00"), now: t0)
        #expect(sent(bearer.takeEvents()) == [hex("01 0a 01 00 01")])
        #expect(bearer.pendingRequest == id)
    }
}
