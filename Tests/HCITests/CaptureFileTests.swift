// Tests of btsnoop reading and writing on the eight fixture captures, checked against tshark; and the fixture helpers.

import Foundation
import Testing
import HCI

enum CaptureFixtures {
    /// The eight btsnoop captures with their frame counts (tshark 4.0.17 and an independent record walk agree;
    /// captures/SOURCES.md, measured with an earlier tshark, lists one fewer for each).
    static let frameCounts: [String: Int] = [
        "lock-legacy-adv-discovery-indications.btsnoop": 690,
        "toycar-acl-only-read-write.btsnoop": 149,
        "treadmill-legacy-adv-notifications.btsnoop": 2572,
        "scooter-ext-adv-mtu517-indications.btsnoop": 4574,
        "wristband-read-blob-acl-fragments-smp.btsnoop": 897,
        "bottle-legacy-conn-complete-adv-reports.btsnoop": 3046,
        "escooter-ext-adv-nonlegacy-acl-fragments.btsnoop": 2939,
        "toy-legacy-conn-cycles-notify-heavy.btsnoop": 29317,
    ]

    static var names: [String] { frameCounts.keys.sorted() }

    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func path(_ name: String, folder: String = "captures") -> String {
        root.appendingPathComponent("Fixtures").appendingPathComponent(folder).appendingPathComponent(name).path
    }

    static func bytes(_ name: String, folder: String = "captures") throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name, folder: folder))))
    }

    static func read(_ name: String, folder: String = "captures") throws -> CaptureFile {
        try CaptureFile.read(bytes: bytes(name, folder: folder))
    }

    static let tsharkPath: String? = ["/usr/bin/tshark", "/usr/local/bin/tshark"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs tshark on `file` printing `fields`, one line per frame, tab-separated.
    static func tshark(_ file: String, fields: [String]) throws -> [[String]] {
        guard let tsharkPath else { return [] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tsharkPath)
        process.arguments = ["-r", file, "-T", "fields"] + fields.flatMap { ["-e", $0] }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }
}

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
        // Written from packets and directions only (fresh records), incrementally, through a file handle.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-\(UUID().uuidString).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try BtsnoopFileWriter(path: path)
        for record in capture.records {
            guard let packet = record.packet else { continue }
            try writer.write(packet, direction: record.direction, timestamp: record.timestamp)
        }
        writer.close()
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
