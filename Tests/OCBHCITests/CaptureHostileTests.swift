// Tests of capture reading on hostile input: cut-short files, bad lengths, unknown formats, other btsnoop datalinks.

import Testing
@testable import OCBHCI

@Suite struct CaptureHostileTests {
    func btsnoopHeader(datalink: UInt8, version: UInt8 = 1) -> [UInt8] {
        Array("btsnoop".utf8) + [0, 0, 0, 0, version, 0, 0, 0x03, datalink == 1 ? 0xE9 : datalink]
    }

    @Test func truncatedLastRecordKeepsEveryCompleteRecord() throws {
        let original = try CaptureFixtures.bytes("toycar-acl-only-read-write.btsnoop")
        // The last record is at byte 5898 with 16 data bytes (24-byte header): cut 5 bytes into its data.
        let cut = Array(original.prefix(5898 + 24 + 5))
        let capture = try CaptureFile.read(bytes: cut)
        #expect(capture.records.count == 148)
        // tshark lists frames 1-148 of this file and says it "appears to have been cut short in the middle of a
        // packet": the record cut short is frame 149.
        #expect(capture.error == .truncatedRecord(number: 149, offset: 5898, needed: 16, available: 5))
        #expect(capture.error?.description == "record 149 at byte 5898 cut short: needed 16 bytes, 5 available")
        // Cut inside the record header.
        let header = try CaptureFile.read(bytes: Array(original.prefix(5898 + 10)))
        #expect(header.records.count == 148)
        #expect(header.error == .truncatedRecord(number: 149, offset: 5898, needed: 24, available: 10))
    }

    @Test func everyPrefixOfACaptureReadsWithoutTrapping() throws {
        let original = try CaptureFixtures.bytes("toycar-acl-only-read-write.btsnoop")
        // Every length in the last 300 bytes (header and data cuts), every 11th before.
        for length in Array(stride(from: 0, to: original.count - 300, by: 11)) + Array((original.count - 300)...original.count) {
            if let capture = try? CaptureFile.read(bytes: Array(original.prefix(length))) {
                #expect(capture.records.count <= 149)
            }
        }
        let pcapng = try CaptureFixtures.bytes("lock.pcapng", folder: "captures-derived")
        for length in stride(from: 0, through: pcapng.count, by: 7) {
            if let capture = try? CaptureFile.read(bytes: Array(pcapng.prefix(length))) {
                #expect(capture.records.count <= 690)
            }
        }
    }

    @Test func hugeIncludedLengthIsATruncationNotACrash() throws {
        let record: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 16) + [0x04]
        let capture = try CaptureFile.read(bytes: btsnoopHeader(datalink: 0xEA) + record)
        #expect(capture.records.isEmpty)
        #expect(capture.error == .truncatedRecord(number: 1, offset: 16, needed: 0xFFFF_FFFF, available: 1))
    }

    @Test func headerErrorsThrow() {
        #expect(throws: CaptureError.unknownFormat(magic: [0x00, 0x01])) { try CaptureFile.read(bytes: [0x00, 0x01]) }
        #expect(throws: CaptureError.truncatedHeader(needed: 16, available: 10)) {
            try CaptureFile.read(bytes: Array(btsnoopHeader(datalink: 0xEA).prefix(10)))
        }
        #expect(throws: CaptureError.unsupportedVersion(2)) { try CaptureFile.read(bytes: btsnoopHeader(datalink: 0xEA, version: 2)) }
        #expect(throws: CaptureError.unsupportedDatalink(0x3EB)) { try CaptureFile.read(bytes: btsnoopHeader(datalink: 0xEB)) }
        let ethernetPcap: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 1, 0, 0, 0]
        #expect(throws: CaptureError.unsupportedLinkType(1)) { try CaptureFile.read(bytes: ethernetPcap) }
    }

    @Test func badPcapngBlockLengthIsReportedAfterEarlierRecords() throws {
        var pcapng = try CaptureFixtures.bytes("lock.pcapng", folder: "captures-derived")
        let complete = try CaptureFile.read(bytes: pcapng)
        #expect(complete.records.count == 690)
        // Append a block whose length is not a multiple of 4.
        pcapng += [6, 0, 0, 0, 13, 0, 0, 0, 0, 0, 0, 0, 13, 0, 0, 0]
        let capture = try CaptureFile.read(bytes: pcapng)
        #expect(capture.records.count == 690)
        guard case .malformedBlock = capture.error else {
            Issue.record("expected a malformed block, got \(String(describing: capture.error))")
            return
        }
    }

    @Test func btsnoopHCIDatalinkTakesTypeFromFlags() throws {
        // Datalink 1001: flags 2 = command sent, 3 = event received, 1 = ACL received.
        var file = btsnoopHeader(datalink: 1)
        func record(_ flags: UInt8, _ data: [UInt8]) -> [UInt8] {
            let length = UInt8(data.count)
            return [0, 0, 0, length, 0, 0, 0, length, 0, 0, 0, flags, 0, 0, 0, 0] + [0x00, 0xDC, 0xDD, 0xB3, 0x0F, 0x2F, 0x80, 0x00] + data
        }
        file += record(2, [0x03, 0x0C, 0x00]) + record(3, [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]) + record(1, [0x40, 0x20, 0x00, 0x00])
        let capture = try CaptureFile.read(bytes: file)
        #expect(capture.format == .btsnoop(datalink: 1001))
        #expect(capture.records.map(\.packet?.type) == [.command, .event, .acl])
        #expect(capture.records.map(\.direction) == [.sent, .received, .received])
        // The epoch offset itself is 1970-01-01 00:00:00.
        #expect(capture.records.map(\.timestamp) == [0, 0, 0])
        // Written as H4 (1002), each packet gains its indicator byte.
        let rewritten = try CaptureFile.read(bytes: BtsnoopWriter.file(capture.records))
        #expect(rewritten.records.map(\.packet) == capture.records.map(\.packet))
        #expect(rewritten.records.first?.data == [0x01, 0x03, 0x0C, 0x00])
    }

    @Test func btsnoopMonitorDatalinkAsBtmonWrites() throws {
        var file = btsnoopHeader(datalink: 0xD1) // 2001 = 0x07D1
        file[15] = 0xD1
        file[14] = 0x07
        // Adapter 0, opcode 3 (event): Command Complete for Reset.
        file += [0, 0, 0, 6, 0, 0, 0, 6, 0, 0, 0, 3, 0, 0, 0, 0, 0x00, 0xDC, 0xDD, 0xB3, 0x0F, 0x2F, 0x80, 0x00,
                 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
        // Adapter 1, opcode 0 (new index), 16 bytes kept raw.
        file += [0, 0, 0, 2, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0x00, 0xDC, 0xDD, 0xB3, 0x0F, 0x2F, 0x80, 0x00, 0x00, 0x01]
        let capture = try CaptureFile.read(bytes: file)
        #expect(capture.format == .btsnoop(datalink: 2001))
        #expect(capture.records.count == 2)
        #expect(capture.records.first?.packet == HCIPacket(type: .event, bytes: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]))
        #expect(capture.records.first?.monitorOpcode == .eventPacket)
        #expect(capture.records.last?.packet == nil)
        #expect(capture.records.last?.monitorOpcode == .newIndex)
        #expect(capture.records.last?.adapterIndex == 1)
        // Non-packet records cannot be written as H4: only the event is written.
        #expect(try CaptureFile.read(bytes: BtsnoopWriter.file(capture.records)).records.count == 1)
    }
}
