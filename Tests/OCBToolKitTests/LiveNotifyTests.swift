// cbtool notify, rssi, --btsnoop and the live commands' errors against the virtual peer.

import OCBCore
import Foundation
import OCBHCI
import Testing

extension LiveCommandTests {
    /// The bpm of a notify text line "HH:MM:SS.mmm 0x001B 2A37 Heart Rate Measurement = 61 bpm", nil for other lines.
    func bpm(_ line: String) -> Int? {
        guard line.range(of: #"^\d\d:\d\d:\d\d\.\d{3} 0x001B 2A37 Heart Rate Measurement = \d+ bpm$"#, options: .regularExpression) != nil
        else { return nil }
        return Int(line.split(separator: " ").dropLast().last ?? "")
    }

    @Test("notify --duration: heart rate values 60, 61, 62 … every 100 ms with timestamps, then unsubscribe, disconnect, summary")
    func notifyText() throws {
        let run = try LivePeer.run(["notify", LivePeer.alpha, "2A37", "--duration", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        let values = run.stdoutLines.compactMap(bpm)
        // The peer notifies every 100 ms once subscribed, bpm = 60 + n (Tests/Peer/README.md).
        #expect((8...11).contains(values.count))
        #expect(values == Array(60..<(60 + values.count)))
        #expect(run.stdoutLines.last == "summary: \(values.count) notifications in 1.0 s from 0x001B 2A37 Heart Rate Measurement")
        #expect(run.stderrLines.suffix(2) == ["receiving notifications from 0x001B 2A37 Heart Rate Measurement for 1 s…",
                                             "unsubscribing and disconnecting…"])
    }

    @Test("notify --json: one notification object per value (hex, decoded, time, elapsed), a summary object")
    func notifyJSON() throws {
        let run = try LivePeer.run(["notify", LivePeer.alpha, "0x001B", "--duration", "0.5", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let objects = run.jsonObjects
        let notifications = objects.filter { $0["type"] as? String == "notification" }
        #expect((3...6).contains(notifications.count))
        for (index, object) in notifications.enumerated() {
            #expect(object["value"] as? String == String(format: "00%02x", 60 + index))
            #expect(object["decoded"] as? String == "\(60 + index) bpm")
            #expect(object["handle"] as? Int == 0x001B)
            #expect(object["uuid"] as? String == "2A37")
            #expect((object["time"] as? String)?.hasSuffix("Z") == true)
            #expect(object["elapsed"] is Double || object["elapsed"] is Int)
        }
        let summary = try #require(objects.last)
        #expect(summary["type"] as? String == "summary")
        #expect(summary["count"] as? Int == notifications.count)
        #expect(summary["kind"] as? String == "notification")
    }

    @Test("notify until Ctrl-C: SIGINT ends the stream, unsubscribes and disconnects, exit 0 with the summary")
    func notifyInterrupted() throws {
        let run = try ToolRunner.runInterrupted(["notify", LivePeer.alpha, "2A37", "--transport", LivePeer.transport()]) { text in
            text.contains("= 62 bpm")
        }
        #expect(run.status == 0, "\(run.stderr)")
        let values = run.stdoutLines.compactMap(bpm)
        #expect(values.count >= 3)
        #expect(values == Array(60..<(60 + values.count)))
        #expect(run.stdoutLines.last?.hasPrefix("summary: \(values.count) notifications in ") == true)
        #expect(run.stderrLines.last == "unsubscribing and disconnecting…")
    }

    @Test("rssi: the link's RSSI from HCI Read RSSI (the peer answers alpha's -45 dBm) beside the advertising RSSI, text and JSON")
    func rssi() throws {
        let run = try LivePeer.run(["rssi", LivePeer.alpha, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(run.jsonObjects.first)
        #expect(object["type"] as? String == "rssi")
        #expect(object["source"] as? String == "connection")
        #expect(object["rssi"] as? Int == -45)
        #expect(object["connectionRSSI"] as? Int == -45)
        #expect(object["advertisingRSSI"] as? Int == -45)
        let text = try LivePeer.run(["rssi", LivePeer.alpha])
        #expect(text.stdoutLines == ["C1:A0:00:00:00:01 -45 dBm (connection; advertising -45 dBm)"])
    }

    @Test("--btsnoop: the recorded session reads back in tshark with our CaptureFile's packet count and directions")
    func btsnoopRecording() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cbtool-live-\(getpid()).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try LivePeer.run(["read", LivePeer.alpha, "2A19", "--btsnoop", path])
        #expect(run.status == 0, "\(run.stderr)")
        let capture = try CaptureFile.read(path: path)
        #expect(capture.error == nil)
        let ours = capture.records.map { $0.direction.rawValue }
        // The session: HCI Reset and bring-up, scan, connection, discovery, the read, disconnection.
        #expect(ours.count > 40)
        #expect(capture.records.first?.data.first == 0x01)  // an HCI command (H4 type 0x01) opens the session

        let tshark = try TShark.fields(path, ["frame.number", "hci_h4.direction"])
        #expect(tshark.status == 0)
        let rows = tshark.rows
        #expect(rows.map { $0.first } == (1...ours.count).map { String($0) })
        #expect(rows.map { $0.count > 1 ? UInt8($0[1].dropFirst(2), radix: 16) : nil } == ours.map { Optional($0) })

        // And our decoder tells the same session's story: one connection to alpha and the read of 0x0017.
        let story = try ToolRunner.run(["decode", path])
        #expect(story.status == 0)
        #expect(story.stdoutLines.contains { $0.hasPrefix("  #1 handle ") && $0.contains("peer C1:A0:00:00:00:01 (random), we are central") })
        #expect(story.stdoutLines.contains("    characteristic 0x0016 value 0x0017 2A19 Battery Level [read, notify] = 100 %"))
        #expect(story.stdoutLines.contains("    0x0017 2A19 Battery Level: 1 read"))
    }

    @Test("an address nobody advertises: device not found after --timeout, exit 1, one line")
    func unknownAddress() throws {
        let run = try LivePeer.run(["gatt", "C1:A0:00:00:00:99", "--timeout", "1"])
        #expect(run.status == 1)
        #expect(run.stderrLines.last == "cbtool: error: device not found: C1:A0:00:00:00:99 did not advertise within 1 s "
                + "(is it on, in range and advertising? `cbtool scan` lists what is)")
        #expect(run.stdout.isEmpty)
    }

    @Test("attribute errors: a declaration handle, a characteristic that cannot notify, an unknown UUID — exit 1, one line")
    func attributeErrors() throws {
        let declaration = try LivePeer.run(["read", LivePeer.alpha, "0x002A"])
        #expect(declaration.status == 1)
        #expect(declaration.stderrLines.last == "cbtool: error: 0x002A on C1:A0:00:00:00:01 is the declaration of "
                + "0CB10002-7E57-4C0D-A9E5-0123456789AB; its value is at 0x002B")
        let silent = try LivePeer.run(["notify", LivePeer.alpha, "2A38"])
        #expect(silent.status == 1)
        #expect(silent.stderrLines.last == "cbtool: error: 0x001E 2A38 Body Sensor Location can neither notify nor indicate (properties: read)")
        let missing = try LivePeer.run(["read", LivePeer.alpha, "2A6E"])
        #expect(missing.status == 1)
        #expect(missing.stderrLines.last == "cbtool: error: C1:A0:00:00:00:01 has no characteristic or descriptor 2A6E Temperature "
                + "(see `cbtool gatt C1:A0:00:00:00:01`)")
    }

    @Test("bad live arguments: exit 2 with the one-line error and the command's usage, before any radio work", arguments: [
        (["write", "C1:A0:00:00:00:01", "0x0031", "zz"], "cbtool: error: \"zz\" is not hex bytes like 01ff (use --text for text)", "usage: cbtool write"),
        (["notify", "C1:A0:00:00:00:01", "0x0000"], "cbtool: error: \"0x0000\" is not a UUID (2A37, 128-bit with dashes) or a handle (0x000E)", "usage: cbtool notify"),
        (["scan", "--transport"], "cbtool: error: option --transport needs a value (--transport SPEC)", "usage: cbtool"),
        (["rssi", "C1:A0:00:00:00:01", "--transport", "bluetooth"], "cbtool: error: invalid transport \"bluetooth\": unknown kind (expected hciN, user:hciN, tcp:HOST:PORT, serial:DEVICE[@BAUD], replay:PATH or replay-tolerant:PATH)", "usage: cbtool rssi"),
    ])
    func badLiveArguments(_ arguments: [String], _ error: String, _ usage: String) throws {
        let run = try ToolRunner.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderrLines.first == error)
        #expect(run.stderrLines.last?.hasPrefix(usage) == true)
        #expect(run.stdout.isEmpty)
    }

    @Test("a kernel transport on a machine without AF_BLUETOOTH: the no-kernel-support line, exit 1")
    func kernelTransportWithoutBluetooth() throws {
        guard !FileManager.default.fileExists(atPath: "/sys/class/bluetooth") else { return }
        let run = try ToolRunner.run(["scan", "--duration", "1", "--transport", "hci0"])
        #expect(run.status == 1)
        #expect(run.stderrLines.last == "cbtool: error: this kernel has no Bluetooth support (socket(AF_BLUETOOTH) gives "
                + "EAFNOSUPPORT): load the bluetooth modules or use tcp:HOST:PORT or serial:DEVICE")
    }
}
