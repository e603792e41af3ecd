// Tests of pcap and pcapng reading: link types 201, 187 and 254, byte orders, time resolutions.

import Testing
@testable import OCBHCI

@Suite struct CapturePcapTests {
    let lockName = "lock-legacy-adv-discovery-indications.btsnoop"

    /// The derived files are editcap conversions of the lock capture (Fixtures/captures-derived/SOURCES.md).
    @Test(arguments: [("lock.pcap", false), ("lock-nsec.pcap", true)])
    func pcapLinkType201MatchesTheBtsnoopOriginal(file: String, nanosecond: Bool) throws {
        let original = try CaptureFixtures.read(lockName)
        let capture = try CaptureFixtures.read(file, folder: "captures-derived")
        #expect(capture.format == .pcap(linkType: 201, nanosecond: nanosecond, bigEndian: false))
        #expect(capture.error == nil)
        #expect(capture.records.count == 690)
        #expect(capture.records.map(\.packet) == original.records.map(\.packet))
        #expect(capture.records.map(\.direction) == original.records.map(\.direction))
        #expect(capture.records.map(\.timestamp) == original.records.map(\.timestamp))
    }

    @Test func pcapngMatchesTheBtsnoopOriginal() throws {
        let original = try CaptureFixtures.read(lockName)
        let capture = try CaptureFixtures.read("lock.pcapng", folder: "captures-derived")
        #expect(capture.format == .pcapng)
        #expect(capture.error == nil)
        #expect(capture.records.count == 690)
        #expect(capture.records.map(\.packet) == original.records.map(\.packet))
        #expect(capture.records.map(\.direction) == original.records.map(\.direction))
        #expect(capture.records.map(\.timestamp) == original.records.map(\.timestamp))
    }

    @Test func pcapRecordsWriteBackAsTheOriginalBtsnoop() throws {
        let original = try CaptureFixtures.bytes(lockName)
        let capture = try CaptureFixtures.read("lock.pcapng", folder: "captures-derived")
        #expect(BtsnoopWriter.file(capture.records) == original)
    }

    @Test func bigEndianPcapWithDirectionHeader() throws {
        var file: [UInt8] = [0xA1, 0xB2, 0xC3, 0xD4, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 201]
        // 1 s + 2 µs, 8 bytes: direction 0 (sent), HCI_Reset.
        file += [0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 0, 0x01, 0x03, 0x0C, 0x00]
        let capture = try CaptureFile.read(bytes: file)
        #expect(capture.format == .pcap(linkType: 201, nanosecond: false, bigEndian: true))
        #expect(capture.records == [CaptureRecord(timestamp: 1_000_002, direction: .sent,
                                                  packet: HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00]),
                                                  data: [0, 0, 0, 0, 0x01, 0x03, 0x0C, 0x00])])
    }

    @Test func pcapLinkType187InfersDirectionFromType() throws {
        var file: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 187, 0, 0, 0]
        file += [0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 0x01, 0x03, 0x0C, 0x00]
        file += [0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 0x04, 0x10, 0x00]
        let capture = try CaptureFile.read(bytes: file)
        #expect(capture.records.map(\.direction) == [.sent, .received])
        #expect(capture.records.map(\.packet?.type) == [.command, .event])
    }

    @Test func pcapLinuxMonitorRecordsKeepNonPacketOpcodes() throws {
        var file: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 254, 0, 0, 0]
        // Adapter 1, opcode 5 (ACL RX), 4-byte ACL header with no data.
        file += [0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 0, 1, 0, 5, 0x40, 0x20, 0x00, 0x00]
        // Adapter 0, opcode 12 (system note) "hi".
        file += [0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 12, 0x68, 0x69]
        let capture = try CaptureFile.read(bytes: file)
        #expect(capture.records.count == 2)
        #expect(capture.records.first?.packet == HCIPacket(type: .acl, bytes: [0x40, 0x20, 0x00, 0x00]))
        #expect(capture.records.first?.direction == .received)
        #expect(capture.records.first?.adapterIndex == 1)
        #expect(capture.records.last?.packet == nil)
        #expect(capture.records.last?.monitorOpcode == .systemNote)
    }

    @Test func pcapngTimeResolutions() {
        // if_tsresol 9 = nanoseconds, 3 = milliseconds, 0x80|20 = 2^-20 s.
        #expect(PcapngReader.microseconds(1_500_000_123_456, resolution: 9) == 1_500_000_123)
        #expect(PcapngReader.microseconds(1_500, resolution: 3) == 1_500_000)
        #expect(PcapngReader.microseconds(3 << 20 | 1 << 19, resolution: 0x80 | 20) == 3_500_000)
        // Hostile values do not trap.
        _ = PcapngReader.microseconds(.max, resolution: 0)
        _ = PcapngReader.microseconds(.max, resolution: 127)
        _ = PcapngReader.microseconds(.max, resolution: 0xFF)
    }
}
