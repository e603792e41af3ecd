// Routing of fixed channels and the SMP answer when no Security Manager is attached.

import OCBL2CAP
import Testing

@Suite struct L2CAPConnectionRouterTests {
    @Test func attHandedUp() {
        var router = L2CAPConnectionRouter(handle: 0x40)
        #expect(router.receive(L2CAPBasicFrame(handle: 0x40, channelID: 0x0004, payload: [0x1b, 0x0e, 0x00, 0x2a])) == [.attributeProtocol([0x1b, 0x0e, 0x00, 0x2a])])
        #expect(router.attributeProtocolFrame([0x1e]) == L2CAPBasicFrame(handle: 0x40, channelID: 0x0004, payload: [0x1e]))
    }

    @Test func pairingRequestWithoutSecurityManager() {
        var router = L2CAPConnectionRouter(handle: 0x40)
        // Pairing Request: IO NoInputNoOutput, no OOB, bonding + SC, max key 16, key distributions.
        let events = router.receive(L2CAPBasicFrame(handle: 0x40, channelID: 0x0006, payload: hex("01 03 00 09 10 07 07")))
        #expect(events.first == .send(L2CAPBasicFrame(handle: 0x40, channelID: 0x0006, payload: [0x05, 0x05])))
        // Security Request from the peripheral: answered the same way.
        #expect(router.receive(L2CAPBasicFrame(handle: 0x40, channelID: 0x0006, payload: hex("0b 01"))).first
            == .send(L2CAPBasicFrame(handle: 0x40, channelID: 0x0006, payload: [0x05, 0x05])))
        // Pairing Failed from the peer is not answered.
        #expect(router.receive(L2CAPBasicFrame(handle: 0x40, channelID: 0x0006, payload: hex("05 08")))
            == [.diagnostic(.securityManagerUnavailable(code: 0x05, answered: false))])
    }

    @Test func smpPassedToAttachedHandler() {
        var router = L2CAPConnectionRouter(handle: 0x40, securityManagerAttached: true)
        #expect(router.receive(L2CAPBasicFrame(handle: 0x40, channelID: 0x0006, payload: hex("01 03 00 09 10 07 07"))) == [.securityManager(hex("01 03 00 09 10 07 07"))])
    }

    @Test func signalingAnswersAndParameterUpdate() {
        var router = L2CAPConnectionRouter(handle: 0x40)
        let events = router.receive(L2CAPBasicFrame(handle: 0x40, channelID: 0x0005, payload: hex("12 07 08 00 06 00 0c 00 00 00 c8 00")))
        #expect(events == [
            .send(L2CAPBasicFrame(handle: 0x40, channelID: 0x0005, payload: hex("13 07 02 00 00 00"))),
            .connectionParameterUpdate(L2CAPConnectionParameters(intervalMin: 6, intervalMax: 12, latency: 0, timeout: 200)),
        ])
    }

    @Test func unknownChannelAndWrongHandle() {
        var router = L2CAPConnectionRouter(handle: 0x40)
        #expect(router.receive(L2CAPBasicFrame(handle: 0x40, channelID: 0x0041, payload: [1, 2])) == [.diagnostic(.unknownChannel(0x0041, length: 2))])
        #expect(router.receive(L2CAPBasicFrame(handle: 0x41, channelID: 0x0004, payload: [1])) == [.diagnostic(.wrongHandle(0x41))])
    }
}
