// Fragmentation of outgoing basic frames to the controller's ACL data length.

import OCBHCI
import OCBL2CAP
import Testing

@Suite struct L2CAPFragmenterTests {
    @Test func fitsInOnePacketWithBoundary00() throws {
        // Field case G4's outgoing Write Request: `02 40 00 09 00 05 00 04 00 12 0f 00 01 00`.
        let frame = L2CAPBasicFrame(handle: 0x0040, channelID: .attributeProtocol, payload: hex("12 0f 00 01 00"))
        let packets = try L2CAPFragmenter(maximumDataLength: 27).fragments(of: frame)
        #expect(packets.map(\.bytes) == [hex("40 00 09 00 05 00 04 00 12 0f 00 01 00")])
    }

    @Test func splitsIntoContinuations() throws {
        let payload = (0..<30).map { UInt8($0) }
        let frame = L2CAPBasicFrame(handle: 0x0001, channelID: .attributeProtocol, payload: payload)
        let packets = try L2CAPFragmenter(maximumDataLength: 27).fragments(of: frame)
        #expect(packets.count == 2)
        #expect(packets[0].bytes == hex("01 00 1b 00 1e 00 04 00") + payload[0..<23])
        #expect(packets[1].bytes == hex("01 10 07 00") + payload[23...])
        var recombiner = L2CAPRecombiner()
        #expect(packets.flatMap { recombiner.receive($0) } == [.frame(frame)])
    }

    @Test func refusesOversizedPayload() {
        let frame = L2CAPBasicFrame(handle: 1, channelID: .attributeProtocol, payload: [UInt8](repeating: 0, count: 65536))
        #expect(throws: L2CAPFrameTooLongError(payloadLength: 65536)) { try L2CAPFragmenter(maximumDataLength: 251).fragments(of: frame) }
    }
}
