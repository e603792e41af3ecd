// Notifications, indications and their confirmations, with field cases G4 and G5.

import OCBATT
import Testing

@Suite struct ATTBearerValueTests {
    let t0 = ContinuousClock.now

    /// Field case G4: a notification before the Write Response to the enabling CCCD write.
    @Test func g4NotificationBeforeWriteResponse() throws {
        var link = ScriptedLink()
        let write = link.bearer.enqueue(ATTWriteRequest(attributeHandle: 0x000F, attributeValue: [0x01, 0x00]), now: t0)
        #expect(try ScriptedLink.h4(link.bearer.takeEvents()) == [hex("02 40 00 09 00 05 00 04 00 12 0f 00 01 00")])
        try link.receive(h4: "02 40 20 08 00 04 00 04 00 1b 0e 00 2a", now: t0)
        #expect(link.bearer.takeEvents() == [.value(handle: 0x000E, value: [0x2a], kind: .notification)])
        try link.receive(h4: "02 40 20 05 00 01 00 04 00 13", now: t0)
        #expect(link.bearer.takeEvents() == [.requestCompleted(write, .success(.writeResponse(ATTWriteResponse())))])
    }

    /// G4 variant: an indication in the same spot is delivered and confirmed at once.
    @Test func g4IndicationBeforeWriteResponse() throws {
        var link = ScriptedLink()
        _ = link.bearer.enqueue(ATTWriteRequest(attributeHandle: 0x000F, attributeValue: [0x02, 0x00]), now: t0)
        _ = link.bearer.takeEvents()
        link.bearer.receive(hex("1d 0e 00 2a"), now: t0)
        #expect(link.bearer.takeEvents() == [.value(handle: 0x000E, value: [0x2a], kind: .indication), .send(hex("1e"))])
    }

    /// Field case G5: exactly one confirmation per indication, after the value is handed on.
    @Test func g5IndicationConfirmedOnce() throws {
        var link = ScriptedLink()
        try link.receive(h4: "02 40 20 09 00 05 00 04 00 1d 0e 00 01 02", now: t0)
        let events = link.bearer.takeEvents()
        #expect(events == [.value(handle: 0x000E, value: [0x01, 0x02], kind: .indication), .send(hex("1e"))])
        #expect(try ScriptedLink.h4(events) == [hex("02 40 00 05 00 01 00 04 00 1e")])
        try link.receive(h4: "02 40 20 09 00 05 00 04 00 1d 0e 00 03 04", now: t0)
        #expect(sent(link.bearer.takeEvents()) == [hex("1e")])
    }

    /// Every value comes out (subscriptions are the GATT client's), and every indication is confirmed.
    @Test func everyValueIsDeliveredAndEveryIndicationConfirmed() {
        var bearer = ATTBearer()
        bearer.receive(hex("1d 20 00 01"), now: t0)
        #expect(bearer.takeEvents() == [.value(handle: 0x20, value: [0x01], kind: .indication), .send(hex("1e"))])
        bearer.receive(hex("1b 20 00 01"), now: t0)
        #expect(bearer.takeEvents() == [.value(handle: 0x20, value: [0x01], kind: .notification)])
    }

    @Test func multipleHandleValueNotificationDeliversEachValue() {
        var bearer = ATTBearer()
        bearer.receive(hex("23 0e 00 01 00 2a 10 00 02 00 01 02"), now: t0)
        #expect(bearer.takeEvents() == [
            .value(handle: 0x0E, value: [0x2a], kind: .notification), .value(handle: 0x10, value: [1, 2], kind: .notification),
        ])
    }

    @Test func writeCommandGoesOutAtOnce() throws {
        var bearer = ATTBearer()
        _ = bearer.enqueue(ATTReadRequest(attributeHandle: 3), now: t0)
        try bearer.send(ATTWriteCommand(attributeHandle: 0x10, attributeValue: [1, 2]))
        #expect(sent(bearer.takeEvents()) == [hex("0a 03 00"), hex("52 10 00 01 02")])
    }
}
