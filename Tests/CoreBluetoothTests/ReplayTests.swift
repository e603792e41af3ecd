// Replay through the CoreBluetooth API: a live session recorded and played back strictly, the golden recording, an altered one.
@testable import CoreBluetooth
import Foundation
import OCBHCI
import PeerSupport
import Testing

@Suite(.serialized) struct ReplayTests {
    /// The package's root (Fixtures/ lives there).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("a session recorded against the peer replays strictly through the API with the same callbacks, in milliseconds of peer time")
    func recordedSessionReplaysStrictly() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        var live: [String]?
        do {
            let central = LiveCentral(transport: try LivePeer.transport(6), options: [CBCentralManagerOptionBtsnoopPathKey: file])
            let peer = try LivePeer.shared()
            live = GoldenSession.run(central, setMTU: { mtu in _ = try? peer.send("mtu \(mtu) 6") })
            #expect(live != nil, "the live session stopped: \(central.recorder.log.suffix(5))")
            central.manager.delegate = nil
        }
        let recorded = try #require(live)
        // The second connection's write went as a long write: Prepare Write Requests (0x16) of 18 bytes (ATT_MTU 23 − 5)
        // and one Execute Write Request (0x18) with Flags 0x01 (Core v5.4 Vol 3 Part F §3.4.6).
        let sent = try CaptureFile.read(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))).records.compactMap { record -> [UInt8]? in
            guard record.direction == .sent, let packet = record.packet, packet.type == .acl, packet.bytes.count > 8,
                  packet.bytes[6] == 0x04, packet.bytes[7] == 0x00 else { return nil }
            return Array(packet.bytes.dropFirst(8))
        }
        #expect(sent.filter { $0.first == 0x16 }.count == 6, "100 bytes in 18-byte parts")
        #expect(sent.contains([0x18, 0x01]))
        #expect(recorded.contains("value \(alphaUUID("000A")) nil error=ATT.2"), "Read Not Permitted is in the session")
        #expect(recorded.contains("wrote \(alphaUUID("000B")) error=ATT.3"), "Write Not Permitted is in the session")

        if ProcessInfo.processInfo.environment["OCB_RECORD_GOLDEN"] == "1" {
            // scripts/fixtures/record-golden: keep this recording and its transcript as the golden pair.
            let directory = Self.root.appendingPathComponent("Fixtures/golden")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let recording = Self.root.appendingPathComponent(GoldenSession.recording)
            try? FileManager.default.removeItem(at: recording)
            try FileManager.default.copyItem(atPath: file, toPath: recording.path)
            try (recorded.joined(separator: "\n") + "\n").write(to: Self.root.appendingPathComponent(GoldenSession.transcript),
                                                               atomically: true, encoding: .utf8)
        }

        let started = ContinuousClock.now
        let replay = LiveCentral(transport: "replay:" + file)
        let replayed = GoldenSession.run(replay)
        #expect(replayed == recorded, "replayed: \(replay.recorder.log.suffix(5))")
        _ = started
    }

    @Test("the golden recording replays strictly with its golden transcript")
    func goldenRecordingReplays() throws {
        let recording = Self.root.appendingPathComponent(GoldenSession.recording).path
        let expected = try String(contentsOf: Self.root.appendingPathComponent(GoldenSession.transcript), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let central = LiveCentral(transport: "replay:" + recording)
        let replayed = GoldenSession.run(central, within: 5)
        #expect(replayed == expected, "the stack's wire behaviour changed (re-record on purpose with scripts/fixtures/record-golden); callbacks so far: \(central.recorder.log)")
    }

    @Test("an altered recording fails at the altered packet: record number, byte offset and both packets in the warning")
    func alteredRecordingNamesThePacket() throws {
        let recording = Self.root.appendingPathComponent(GoldenSession.recording).path
        var capture = try CaptureFile.read(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: recording))))
        // The LE Set Extended Scan Parameters (0x2041) or LE Set Scan Parameters (0x200B) command: its scan interval's low byte.
        let index = try #require(capture.records.firstIndex { record in
            guard record.direction == .sent, let packet = record.packet, packet.type == .command, packet.bytes.count > 6 else { return false }
            return [0x41, 0x0B].contains(packet.bytes[0]) && packet.bytes[1] == 0x20
        })
        var packet = try #require(capture.records[index].packet)
        let offset = packet.bytes[0] == 0x41 ? 7 : 4  // 0x2041: opcode, length, own type, filter, PHYs, type, interval
        packet.bytes[offset] ^= 0x01
        capture.records[index].packet = packet
        var writer = BtsnoopWriter()
        for record in capture.records {
            if let packet = record.packet { _ = writer.append(packet, direction: record.direction, timestamp: record.timestamp) }
        }
        let altered = FileManager.default.temporaryDirectory.appendingPathComponent("altered-\(UUID().uuidString).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: altered) }
        try Data(writer.bytes).write(to: URL(fileURLWithPath: altered))

        let warnings = WarningCapture(marker: "replay")
        defer { warnings.remove() }
        let central = LiveCentral(transport: "replay:" + altered)
        #expect(central.wait(within: 5) { $0 == "state poweredOn" } != nil)
        central.manager.scanForPeripherals(withServices: nil, options: nil)
        #expect(central.wait(within: 5) { $0 == "state poweredOff" } != nil, "the mismatch reaches the app as the controller lost")
        // (Another test's tolerant replay, running beside this one, may warn too: its lines are not this replay's.)
        #expect(poll(within: 5) { warnings.lines.contains { !$0.contains("replay (tolerant)") } })
        let line = warnings.lines.first { !$0.contains("replay (tolerant)") } ?? ""
        #expect(line.contains("differs from record \(index + 1) of the recording at byte \(offset + 1)"), "\(line)")
        #expect(line.contains("recorded command 0x20"), "\(line)")
        #expect(line.contains("; sent command 0x20"), "\(line)")
    }

    @Test("time is the recording's: a read the recording leaves unanswered times out after the ATT 30 s at once, not after 30 s")
    func unansweredReadTimesOutInRecordingTime() throws {
        let recording = Self.root.appendingPathComponent(GoldenSession.recording).path
        var capture = try CaptureFile.read(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: recording))))
        // The first Read Request (ATT opcode 0x0A at byte 8 of the ACL packet: handle, length, L2CAP length, CID 0x0004).
        let read = try #require(capture.records.firstIndex { record in
            guard record.direction == .sent, let packet = record.packet, packet.type == .acl, packet.bytes.count > 8 else { return false }
            return packet.bytes[6] == 0x04 && packet.bytes[7] == 0x00 && packet.bytes[8] == 0x0A
        })
        capture.records.removeSubrange((read + 1)...)  // the peer never answers it
        var writer = BtsnoopWriter()
        for record in capture.records {
            if let packet = record.packet { _ = writer.append(packet, direction: record.direction, timestamp: record.timestamp) }
        }
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: cut) }
        try Data(writer.bytes).write(to: URL(fileURLWithPath: cut))

        let started = ContinuousClock.now
        let central = LiveCentral(transport: "replay:" + cut)
        #expect(GoldenSession.run(central, within: 5) == nil, "the session cannot finish")
        let failed = central.recorder.log.first { $0.hasPrefix("value 2A00 nil error=") }
        #expect(failed == "value 2A00 nil error=CB.6", "CBError.connectionTimeout (6) after the ATT transaction timeout: \(central.recorder.log.suffix(4))")
        #expect(ContinuousClock.now - started < .seconds(10), "the 30 s passed in recording time")
    }
}
