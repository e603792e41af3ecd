// Tests of btsnoop reading and writing on the eight fixture captures, checked against tshark.

import Foundation
import Testing
import OCBHCI

@Suite struct CaptureFileTests {
    @Test(arguments: CaptureFixtures.names)
    func btsnoopReadThenWriteGivesIdenticalBytes(name: String) throws {
        let original = try CaptureFixtures.bytes(name)
        let capture = try CaptureFile.read(bytes: original)
        #expect(capture.format == .btsnoop(datalink: 1002))
        #expect(capture.error == nil)
        #expect(capture.records.count == CaptureFixtures.frameCounts[name])
        #expect(capture.records.allSatisfy { $0.packet != nil })
        #expect(BtsnoopWriter.file(capture.records) == original)
    }

    @Test(.enabled(if: CaptureFixtures.tsharkPath != nil, "tshark is not installed: run scripts/setup"), arguments: CaptureFixtures.names)
    func recordCountAndDirectionsMatchTshark(name: String) throws {
        let capture = try CaptureFixtures.read(name)
        let frames = try CaptureFixtures.tshark(CaptureFixtures.path(name), fields: ["frame.number", "hci_h4.direction", "hci_h4.type"])
        #expect(frames.count == capture.records.count)
        let theirs = frames.map { $0.count > 2 ? "\($0[1]) \($0[2])" : "" }
        let ours = capture.records.map { record in
            "0x0\(record.direction.rawValue) 0x0\(record.packet?.type.rawValue ?? 0)"
        }
        #expect(theirs == ours)
    }

    @Test(.enabled(if: CaptureFixtures.tsharkPath != nil, "tshark is not installed: run scripts/setup"), arguments: CaptureFixtures.names)
    func fileWeWriteOpensInTsharkWithSamePacketsAndDirections(name: String) throws {
        let capture = try CaptureFixtures.read(name)
        // Written from packets and directions only (fresh records), incrementally: the bytes taken after each record.
        var writer = BtsnoopWriter()
        var file = writer.takeBytes()
        for record in capture.records {
            guard let packet = record.packet else { continue }
            writer.append(packet, direction: record.direction, timestamp: record.timestamp)
            file += writer.takeBytes()
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-\(UUID().uuidString).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(file).write(to: URL(fileURLWithPath: path))
        let frames = try CaptureFixtures.tshark(path, fields: ["frame.number", "hci_h4.direction", "frame.len"])
        #expect(frames.count == CaptureFixtures.frameCounts[name])
        #expect(frames.map { $0.count > 1 ? $0[1] : "" } == capture.records.map { "0x0\($0.direction.rawValue)" })
        #expect(frames.map { $0.count > 2 ? Int($0[2]) : nil } == capture.records.map { $0.data.count })
    }

    @Test func btsnoopTimestampIsMicrosecondsSinceUnixEpoch() throws {
        let capture = try CaptureFixtures.read("lock-legacy-adv-discovery-indications.btsnoop")
        // tshark: frame 1 at 1552223479.707800 (2019-03-10 13:11:19.707800 UTC).
        #expect(capture.records.first?.timestamp == 1_552_223_479_707_800)
        #expect(capture.records.first?.direction == .received)
        #expect(capture.records.first?.packet == HCIPacket(type: .event, bytes: [0x0F, 0x04, 0x00, 0x01, 0x00, 0x00]))
    }
}
