// Tests of H4 framing over the read buffer (H4Decoder.frames(in:_:)): the same packets as next(), slices of the read, errors.

import Testing
@testable import OCBHCI

@Suite struct H4InPlaceFramingTests {
    // Command Complete for HCI_Reset, status success (Core v5.4 Vol 4 Part E §7.7.14).
    let resetComplete: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
    // LE Advertising Report (§7.7.65.2): one ADV_NONCONN_IND from random C1:00:00:00:00:01, Flags 0x06, RSSI -60.
    let report: [UInt8] = [0x04, 0x3E, 0x0F, 0x02, 0x01, 0x03, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0xC1, 0x03, 0x02, 0x01, 0x06, 0xC4]

    /// Frames `stream` cut into reads by `sizes` (cycled), collecting what frames(in:_:) hands over.
    private func framed(_ stream: [UInt8], sizes: [Int]) throws(H4Error) -> [HCIPacket] {
        var decoder = H4Decoder()
        var packets: [HCIPacket] = []
        var position = 0, turn = 0
        while position < stream.count {
            let size = min(sizes[turn % sizes.count], stream.count - position)
            turn += 1
            try decoder.frames(in: Array(stream[position..<(position + size)])) { type, bytes in
                packets.append(HCIPacket(type: type, bytes: Array(bytes)))
                return true
            }
            position += size
        }
        #expect(decoder.pendingByteCount == 0)
        #expect(decoder.streamOffset == stream.count)
        return packets
    }

    @Test(arguments: [1, 2, 3])
    func randomRechunkingOfCaptureStreamGivesTheSamePacketsAsNext(seed: UInt64) throws {
        let capture = try CaptureFixtures.read("scooter-ext-adv-mtu517-indications.btsnoop")
        let packets = capture.records.compactMap(\.packet)
        #expect(packets.count == 4574)
        let stream = H4Encoder.encode(packets)
        var random = SplitMix64(state: seed)
        // Mostly small reads (splitting headers and payloads), sometimes large ones (many packets per read).
        let sizes = (0..<512).map { _ in Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 1...600, using: &random) : Int.random(in: 1...9, using: &random) }
        #expect(try framed(stream, sizes: sizes) == packets)
        // One read of the whole stream, as a flood arrives.
        #expect(try framed(stream, sizes: [stream.count]) == packets)
    }

    @Test func aPacketWhollyInTheReadIsASliceOfIt() throws {
        var decoder = H4Decoder()
        let read = resetComplete + report
        var starts: [Int] = []
        try decoder.frames(in: read) { _, bytes in
            starts.append(bytes.startIndex)
            // The slice's bytes are the read's own: the event code at the index after the indicator.
            #expect(bytes.first == read[bytes.startIndex])
            return true
        }
        #expect(starts == [1, resetComplete.count + 1])
    }

    @Test func aPacketSplitOverReadsIsHandedOverOnceWhole() throws {
        var decoder = H4Decoder()
        var got: [[UInt8]] = []
        // The header split after the event code, then the payload split in two.
        for piece in [Array(report[0..<2]), Array(report[2..<9]), Array(report[9...]) + resetComplete] {
            try decoder.frames(in: piece) { _, bytes in got.append(Array(bytes)); return true }
        }
        #expect(got == [Array(report.dropFirst()), Array(resetComplete.dropFirst())])
    }

    @Test func badIndicatorAfterEarlierPacketsNamesItsStreamOffset() {
        var decoder = H4Decoder()
        var handed = 0
        #expect(throws: H4Error.badPacketIndicator(0x07, offset: resetComplete.count + 3)) {
            try decoder.frames(in: resetComplete + [0x04, 0x0E]) { _, _ in handed += 1; return true }
            try decoder.frames(in: [0x00, 0x07, 0x01]) { _, _ in handed += 1; return true }
        }
        // The packet completed in the second read (an empty event) came before the bad byte.
        #expect(handed == 2)
        #expect(decoder.hasFailed)
        #expect(throws: H4Error.badPacketIndicator(0x07, offset: resetComplete.count + 3)) {
            try decoder.frames(in: resetComplete) { _, _ in true }
        }
    }

    @Test func stoppingKeepsTheRestForNext() throws {
        var decoder = H4Decoder()
        var got = 0
        try decoder.frames(in: resetComplete + report + resetComplete) { _, _ in got += 1; return false }
        #expect(got == 1)
        #expect(decoder.pendingByteCount == report.count + resetComplete.count)
        #expect(try decoder.next() == HCIPacket(type: .event, bytes: Array(report.dropFirst())))
        #expect(try decoder.next() == HCIPacket(type: .event, bytes: Array(resetComplete.dropFirst())))
        #expect(try decoder.next() == nil)
    }

    @Test func bytesPushedEarlierAreFramedFirst() throws {
        var decoder = H4Decoder()
        decoder.push(resetComplete + Array(report[0..<5]))
        var got: [[UInt8]] = []
        try decoder.frames(in: Array(report[5...])) { _, bytes in got.append(Array(bytes)); return true }
        #expect(got == [Array(resetComplete.dropFirst()), Array(report.dropFirst())])
        #expect(decoder.pendingByteCount == 0)
    }
}
