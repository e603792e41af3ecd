// decode pairs an ATT response with the request it answers: a stray Error Response does not take the pending one's place.

import OCBCore
import OCBGATT
import OCBHCI
import OCBToolKit
import Testing

@Suite struct StoryResponseMatchingTests {
    /// An ACL packet on handle 0x0040 (first, automatically flushable) carrying `att` on the ATT channel (CID 0x0004).
    private func att(_ att: [UInt8], _ direction: CaptureDirection, at time: Int64) -> CaptureRecord {
        let l2cap: [UInt8] = [UInt8(att.count), 0x00, 0x04, 0x00] + att
        let acl: [UInt8] = [0x40, 0x20, UInt8(l2cap.count), 0x00] + l2cap
        return CaptureRecord(timestamp: time, direction: direction, packet: HCIPacket(type: .acl, bytes: acl))
    }

    @Test func anErrorResponseNamingAnotherRequestLeavesThePendingOneToItsAnswer() throws {
        // LE Connection Complete (Core v5.4 Vol 4 Part E §7.7.65.1): handle 0x0040, central, random C1:A0:00:00:00:01.
        let connected = CaptureRecord(timestamp: 0, direction: .received, packet: HCIPacket(type: .event, bytes:
            [0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0xA0, 0xC1, 0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00]))
        let records = [
            connected,
            // Read By Group Type Request 0x0001-0xFFFF, «Primary Service» (Vol 3 Part F §3.4.4.9).
            att([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28], .sent, at: 1),
            // An Error Response naming a Write Request (0x12) on 0x0010, Write Not Permitted: it answers another
            // request (a late answer, a peer's bug), not the one pending.
            att([0x01, 0x12, 0x10, 0x00, 0x03], .received, at: 2),
            // The real answer: Battery Service 0x180F at 0x0001-0x0005 (§3.4.4.10, length 6).
            att([0x11, 0x06, 0x01, 0x00, 0x05, 0x00, 0x0F, 0x18], .received, at: 3),
        ]
        let story = CaptureStoryDecoder.story(of: CaptureFile(format: .btsnoop(datalink: 1002), records: records, error: nil))
        let services = try #require(story.peers.first).services.map(\.service)
        #expect(services == [GATTService(uuid: BluetoothUUID(0x180F), isPrimary: true, startHandle: 0x0001, endHandle: 0x0005)])
        #expect(story.problems == ["ATT response that answers no pending request": 1])
        // Its own Error Response does end the request: Attribute Not Found after a second discovery request.
        let ended = records + [
            att([0x10, 0x06, 0x00, 0xFF, 0xFF, 0x00, 0x28], .sent, at: 4),
            att([0x01, 0x10, 0x06, 0x00, 0x0A], .received, at: 5),
            att([0x11, 0x06, 0x06, 0x00, 0x09, 0x00, 0x0D, 0x18], .received, at: 6),
        ]
        let second = CaptureStoryDecoder.story(of: CaptureFile(format: .btsnoop(datalink: 1002), records: ended, error: nil))
        #expect(second.peers.first?.services.count == 1, "the response after the request's own error answers nothing")
        #expect(second.problems == ["ATT response that answers no pending request": 2])
    }
}
