// Recombination of ACL fragments into basic frames, including the field case L1 and every fault kind.

import OCBHCI
import OCBL2CAP
import Testing

@Suite struct L2CAPRecombinerTests {
    /// Field case L1: a start fragment of 3 bytes splits the basic header.
    @Test func l1SplitHeader() throws {
        var recombiner = L2CAPRecombiner()
        #expect(recombiner.receive(try aclPacket(h4: "02 01 20 03 00 0b 00 04")) == [])
        #expect(recombiner.handlesInProgress == [0x0001])
        let outputs = recombiner.receive(try aclPacket(h4: "02 01 10 0c 00 00 52 10 00 01 02 03 04 05 06 07 08"))
        let expected = L2CAPBasicFrame(handle: 0x0001, channelID: 0x0004, payload: hex("52 10 00 01 02 03 04 05 06 07 08"))
        #expect(outputs == [.frame(expected)])
        #expect(expected.payload.count == 11)
        #expect(recombiner.handlesInProgress.isEmpty)
    }

    @Test func singleFragmentAndOneByteFragments() throws {
        var recombiner = L2CAPRecombiner()
        #expect(recombiner.receive(HCIACLDataPacket(handle: 0x40, packetBoundary: .firstFlushable, data: hex("01 00 04 00 13")))
            == [.frame(L2CAPBasicFrame(handle: 0x40, channelID: .attributeProtocol, payload: [0x13]))])
        let bytes = hex("02 00 05 00 aa bb")
        var outputs: [L2CAPRecombiner.Output] = []
        for (index, byte) in bytes.enumerated() {
            outputs += recombiner.receive(HCIACLDataPacket(handle: 0x40, packetBoundary: index == 0 ? .firstNonFlushable : .continuing, data: [byte]))
        }
        #expect(outputs == [.frame(L2CAPBasicFrame(handle: 0x40, channelID: .leSignaling, payload: [0xaa, 0xbb]))])
    }

    @Test func interleavedHandles() {
        var recombiner = L2CAPRecombiner()
        var outputs: [L2CAPRecombiner.Output] = []
        outputs += recombiner.receive(HCIACLDataPacket(handle: 1, packetBoundary: .firstFlushable, data: hex("03 00 04 00 0b")))
        outputs += recombiner.receive(HCIACLDataPacket(handle: 2, packetBoundary: .firstFlushable, data: hex("02 00 06 00")))
        outputs += recombiner.receive(HCIACLDataPacket(handle: 1, packetBoundary: .continuing, data: hex("01")))
        outputs += recombiner.receive(HCIACLDataPacket(handle: 2, packetBoundary: .continuing, data: hex("05 05")))
        outputs += recombiner.receive(HCIACLDataPacket(handle: 1, packetBoundary: .continuing, data: hex("02")))
        #expect(outputs == [
            .frame(L2CAPBasicFrame(handle: 2, channelID: .securityManagerProtocol, payload: [0x05, 0x05])),
            .frame(L2CAPBasicFrame(handle: 1, channelID: .attributeProtocol, payload: [0x0b, 0x01, 0x02])),
        ])
    }

    @Test func continuationWithoutStartThenNormalPDU() {
        var recombiner = L2CAPRecombiner()
        #expect(recombiner.receive(HCIACLDataPacket(handle: 0x40, packetBoundary: .continuing, data: hex("01 02 03")))
            == [.dropped(.continuationWithoutStart(handle: 0x40, length: 3))])
        #expect(recombiner.receive(HCIACLDataPacket(handle: 0x40, packetBoundary: .firstFlushable, data: hex("01 00 04 00 1e")))
            == [.frame(L2CAPBasicFrame(handle: 0x40, channelID: 0x0004, payload: [0x1e]))])
    }

    @Test func startBeforeCompletionDropsTheIncompletePDU() {
        var recombiner = L2CAPRecombiner()
        #expect(recombiner.receive(HCIACLDataPacket(handle: 0x40, packetBoundary: .firstFlushable, data: hex("0a 00 04 00 0b 01"))) == [])
        #expect(recombiner.receive(HCIACLDataPacket(handle: 0x40, packetBoundary: .firstFlushable, data: hex("01 00 04 00 13"))) == [
            .dropped(.startBeforeCompletion(handle: 0x40, received: 6, expected: 14)),
            .frame(L2CAPBasicFrame(handle: 0x40, channelID: 0x0004, payload: [0x13])),
        ])
        // A stale split header: expected is unknown.
        _ = recombiner.receive(HCIACLDataPacket(handle: 0x40, packetBoundary: .firstFlushable, data: hex("01 00")))
        #expect(recombiner.receive(HCIACLDataPacket(handle: 0x40, packetBoundary: .firstFlushable, data: hex("00 00 04 00")))
            == [.dropped(.startBeforeCompletion(handle: 0x40, received: 2, expected: nil)),
                .frame(L2CAPBasicFrame(handle: 0x40, channelID: 0x0004, payload: []))])
    }

    @Test func moreBytesThanAnnounced() {
        var recombiner = L2CAPRecombiner()
        #expect(recombiner.receive(HCIACLDataPacket(handle: 0x40, packetBoundary: .firstFlushable, data: hex("01 00 04 00 1e ff")))
            == [.dropped(.lengthExceeded(handle: 0x40, expected: 5, received: 6))])
        _ = recombiner.receive(HCIACLDataPacket(handle: 0x40, packetBoundary: .firstFlushable, data: hex("03 00 04 00 0b")))
        #expect(recombiner.receive(HCIACLDataPacket(handle: 0x40, packetBoundary: .continuing, data: hex("01 02 03")))
            == [.dropped(.lengthExceeded(handle: 0x40, expected: 7, received: 8))])
        #expect(recombiner.handlesInProgress.isEmpty)
        #expect(recombiner.receive(HCIACLDataPacket(handle: 0x40, packetBoundary: .firstFlushable, data: hex("01 00 04 00 13")))
            == [.frame(L2CAPBasicFrame(handle: 0x40, channelID: 0x0004, payload: [0x13]))])
    }

    @Test func announcedLengthAboveLimit() {
        var recombiner = L2CAPRecombiner(maximumPayloadLength: 600)
        #expect(recombiner.receive(HCIACLDataPacket(handle: 0x40, packetBoundary: .firstFlushable, data: hex("ff ff 04 00 0b")))
            == [.dropped(.announcedLengthTooLarge(handle: 0x40, announced: 65535, limit: 600))])
        #expect(recombiner.handlesInProgress.isEmpty)
        #expect(recombiner.reset(handle: 0x40) == false)
    }
}
