// MTU rules of the bearer, with field cases G1 and G2.

import OCBATT
import Testing

@Suite struct ATTBearerMTUTests {
    let t0 = ContinuousClock.now

    /// Field case G1: both sides exchange, the peer announces 679 as client and 103 as server.
    @Test func g1BothSidesExchangeDifferentValues() throws {
        var link = ScriptedLink()
        let ours = link.bearer.exchangeMTU(now: t0)
        var out = try ScriptedLink.h4(link.bearer.takeEvents())
        try link.receive(h4: "02 40 20 07 00 03 00 04 00 02 a7 02", now: t0)
        var events = link.bearer.takeEvents()
        out += try ScriptedLink.h4(events)
        #expect(out == [hex("02 40 00 07 00 03 00 04 00 02 05 02"), hex("02 40 00 07 00 03 00 04 00 03 05 02")])
        #expect(events.contains(.mtuChanged(517)))
        try link.receive(h4: "02 40 20 07 00 03 00 04 00 03 67 00", now: t0)
        events = link.bearer.takeEvents()
        #expect(events == [.mtuChanged(103), .requestCompleted(ours, .success(.exchangeMTUResponse(ATTExchangeMTUResponse(serverRxMTU: 103))))])
        #expect(link.bearer.mtu == 103)

        // Outgoing PDUs at most 103 bytes: a 104-byte Write Request fails visibly, a 103-byte one goes out.
        let tooLong = link.bearer.enqueue(ATTWriteRequest(attributeHandle: 0x10, attributeValue: [UInt8](repeating: 7, count: 101)), now: t0)
        #expect(link.bearer.takeEvents() == [.requestCompleted(tooLong, .failure(.exceedsMTU(length: 104, mtu: 103)))])
        #expect(throws: ATTBearerError.exceedsMTU(length: 104, mtu: 103)) {
            try link.bearer.send(ATTWriteCommand(attributeHandle: 0x10, attributeValue: [UInt8](repeating: 7, count: 101)))
        }
        let fits = link.bearer.enqueue(ATTReadRequest(attributeHandle: 0x10), now: t0)
        #expect(sent(link.bearer.takeEvents()) == [hex("0a 10 00")])

        // Incoming PDUs up to our own receive MTU (517) are accepted whole.
        let longValue = [UInt8](repeating: 0x5a, count: 516)
        link.bearer.receive([0x0b] + longValue, now: t0)
        #expect(link.bearer.takeEvents() == [.requestCompleted(fits, .success(.readResponse(ATTReadResponse(attributeValue: longValue))))])
        // A response that does not fit our receive MTU fails its request visibly.
        let next = link.bearer.enqueue(ATTReadRequest(attributeHandle: 0x11), now: t0)
        _ = link.bearer.takeEvents()
        link.bearer.receive([0x0b] + longValue + [0x00], now: t0)
        #expect(link.bearer.takeEvents() == [.requestCompleted(next, .failure(.responseExceedsReceiveMTU(length: 518, receiveMTU: 517)))])
        // Notifications of up to 517 bytes are delivered whole too.
        link.bearer.receive([0x1b, 0x0e, 0x00] + [UInt8](repeating: 1, count: 514), now: t0)
        #expect(link.bearer.takeEvents() == [.value(handle: 0x0E, value: [UInt8](repeating: 1, count: 514), kind: .notification)])
    }

    /// Field case G2: the peripheral asks, also again later.
    @Test func g2PeerExchangeMTURequest() throws {
        var link = ScriptedLink()
        try link.receive(h4: "02 40 20 07 00 03 00 04 00 02 9e 00", now: t0)
        let events = link.bearer.takeEvents()
        #expect(sent(events) == [hex("03 05 02")])
        #expect(try ScriptedLink.h4(events) == [hex("02 40 00 07 00 03 00 04 00 03 05 02")])
        #expect(events.contains(.mtuChanged(158)))
        #expect(link.bearer.mtu == 158)
        try link.receive(h4: "02 40 20 07 00 03 00 04 00 02 9e 00", now: t0 + .seconds(60))
        #expect(sent(link.bearer.takeEvents()) == [hex("03 05 02")])
        #expect(link.bearer.mtu == 158)
    }

    @Test func mtuNeverBelow23AndOfferedOnce() {
        var bearer = ATTBearer()
        let first = bearer.exchangeMTU(now: t0)
        _ = bearer.takeEvents()
        bearer.receive(hex("03 10 00"), now: t0)
        #expect(bearer.takeEvents() == [.requestCompleted(first, .success(.exchangeMTUResponse(ATTExchangeMTUResponse(serverRxMTU: 16))))])
        #expect(bearer.mtu == 23)
        let second = bearer.exchangeMTU(now: t0)
        #expect(bearer.takeEvents() == [.requestCompleted(second, .failure(.mtuAlreadyExchanged))])
    }

    @Test func anOfferAfterClosureFailsAndChangesNoMTU() {
        // Found by the gatt-client fuzz target: the peer's Exchange MTU Request announces 3470 (0x0D8E), the link ends,
        // then a raw Exchange MTU offering 3470 set our receive MTU and with it ATT_MTU to 3470 on the closed bearer.
        var bearer = ATTBearer()
        bearer.receive(hex("02 8e 0d"), now: t0)
        #expect(sent(bearer.takeEvents()) == [hex("03 05 02")])
        #expect(bearer.mtu == 517)
        bearer.close()
        _ = bearer.takeEvents()
        let offer = bearer.exchangeMTU(clientRxMTU: 3470, now: t0)
        #expect(bearer.takeEvents() == [.requestCompleted(offer, .failure(.bearerClosed))])
        #expect(bearer.mtu == 517 && bearer.receiveMTU == 517)
    }

    @Test func smallReceiveMTUBoundsTheExchange() {
        var bearer = ATTBearer(receiveMTU: 185)
        bearer.receive(hex("02 05 02"), now: t0)
        let events = bearer.takeEvents()
        #expect(sent(events) == [hex("03 b9 00")])
        #expect(bearer.mtu == 185)
    }
}
