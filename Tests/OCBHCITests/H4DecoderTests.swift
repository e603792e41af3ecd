// Tests of H4 framing: header lengths per packet type, chunking, several packets per read, bad indicators.

import Testing
@testable import OCBHCI

/// A small seeded generator (SplitMix64) so random chunkings are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct H4DecoderTests {
    // HCI_Reset (Vol 4 Part E §7.3.2): opcode 0x0C03, no parameters.
    let reset: [UInt8] = [0x01, 0x03, 0x0C, 0x00]
    // Command Complete for Reset, status success (§7.7.14).
    let resetComplete: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
    // ACL, handle 0x0040, PB 0b10, 5 data bytes: L2CAP length 1, CID 4, ATT opcode 0x02... (cut).
    let acl: [UInt8] = [0x02, 0x40, 0x20, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x13]

    @Test func decodesEachTypeWithItsHeader() throws {
        var decoder = H4Decoder()
        // SCO: handle 2 bytes, length 1 byte (§5.4.3); ISO: length 14 bits, top bits are RFU (§5.4.5).
        let sco: [UInt8] = [0x03, 0x01, 0x00, 0x02, 0xAA, 0xBB]
        let iso: [UInt8] = [0x05, 0x01, 0x00, 0x02, 0xC0, 0x11, 0x22]
        let (packets, error) = decoder.decode(reset + resetComplete + acl + sco + iso)
        #expect(error == nil)
        #expect(packets == [
            HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00]),
            HCIPacket(type: .event, bytes: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]),
            HCIPacket(type: .acl, bytes: [0x40, 0x20, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x13]),
            HCIPacket(type: .sco, bytes: [0x01, 0x00, 0x02, 0xAA, 0xBB]),
            HCIPacket(type: .iso, bytes: [0x01, 0x00, 0x02, 0xC0, 0x11, 0x22]),
        ])
        #expect(decoder.pendingByteCount == 0)
    }

    @Test func aclLengthIsSixteenBitsLittleEndian() throws {
        var decoder = H4Decoder()
        let payload = [UInt8](repeating: 0x5A, count: 0x0104)
        decoder.push([0x02, 0x01, 0x00, 0x04, 0x01] + payload.dropLast())
        #expect(try decoder.next() == nil)
        decoder.push([0x5A])
        #expect(try decoder.next()?.bytes.count == 4 + 0x0104)
    }

    @Test func byteAtATimeGivesThePacketOnlyWhenComplete() throws {
        var decoder = H4Decoder()
        for byte in resetComplete.dropLast() {
            decoder.push([byte])
            #expect(try decoder.next() == nil)
        }
        decoder.push([resetComplete[resetComplete.count - 1]])
        #expect(try decoder.next() == HCIPacket(type: .event, bytes: Array(resetComplete.dropFirst())))
        #expect(decoder.streamOffset == resetComplete.count)
    }

    @Test func badIndicatorIsReportedWithItsStreamOffsetAfterEarlierPackets() {
        var decoder = H4Decoder()
        var (packets, error) = decoder.decode(reset + [0x07, 0x01, 0x02])
        #expect(packets == [HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00])])
        #expect(error == .badPacketIndicator(0x07, offset: 4))
        // The stream cannot be resynchronised: even a valid packet afterwards is refused.
        (packets, error) = decoder.decode(reset)
        #expect(packets.isEmpty)
        #expect(error == .badPacketIndicator(0x07, offset: 4))
        #expect(decoder.hasFailed)
        #expect("\(H4Error.badPacketIndicator(0x07, offset: 4))".contains("0x07 at stream offset 4"))
    }

    @Test func badIndicatorOffsetCountsBytesAlreadyConsumed() {
        var decoder = H4Decoder()
        _ = decoder.decode(acl)
        _ = decoder.decode(resetComplete)
        let (_, error) = decoder.decode([0x00])
        #expect(error == .badPacketIndicator(0x00, offset: acl.count + resetComplete.count))
    }

    @Test func encoderConcatenatesIndicatorAndBytes() {
        let packets = [HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00]),
                       HCIPacket(type: .event, bytes: Array(resetComplete.dropFirst()))]
        #expect(H4Encoder.encode(packets) == reset + resetComplete)
    }

    @Test(arguments: [1, 2, 3])
    func randomRechunkingOfCaptureStreamGivesSamePackets(seed: UInt64) throws {
        let capture = try CaptureFixtures.read("scooter-ext-adv-mtu517-indications.btsnoop")
        let packets = capture.records.compactMap(\.packet)
        #expect(packets.count == 4574)
        let stream = H4Encoder.encode(packets)
        var random = SplitMix64(state: seed)
        var decoder = H4Decoder()
        var decoded: [HCIPacket] = []
        var position = 0
        while position < stream.count {
            // Mostly small pieces (splitting headers), sometimes large ones (many packets per read).
            let limit = Int.random(in: 0..<4, using: &random) == 0 ? 600 : 9
            let size = min(Int.random(in: 1...limit, using: &random), stream.count - position)
            let (more, error) = decoder.decode(stream[position..<(position + size)])
            #expect(error == nil)
            decoded += more
            position += size
        }
        #expect(decoded == packets)
        #expect(decoder.pendingByteCount == 0)
    }
}
