// The built cbtool binary: exit statuses and one-line errors, decode output in text and JSON lines.

import Foundation
import Testing

@Suite("cbtool executable")
struct CommandLineTests {
    let lock = Paths.captures.appendingPathComponent("lock-legacy-adv-discovery-indications.btsnoop").path

    @Test("decode prints the story and exits 0")
    func decodeText() throws {
        let run = try ToolRunner.run(["decode", lock])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdoutLines.contains("connections (2):"))
        // Counts from tshark (Fixtures/expected/decode/lock-….json) and SOURCES.md: 9 advertisers, 16 indications, 4 writes.
        #expect(run.stdoutLines.last == "summary: 9 advertisers, 2 connections, 3 services, 5 characteristics, 5 descriptors, "
                + "0 reads, 4 writes, 0 notifications, 16 indications")
    }

    @Test("decode --json writes one JSON object per line, ending with the summary")
    func decodeJSON() throws {
        let run = try ToolRunner.run(["decode", "--json", lock])
        #expect(run.status == 0)
        var types: [String] = []
        for line in run.stdoutLines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            types.append(object?["type"] as? String ?? "?")
        }
        #expect(types.first == "capture")
        // ISO 8601 like scan --json; tshark's frame.time_epoch of the first and last records: 1552223479.707800, 1552224446.997905.
        let capture = try JSONSerialization.jsonObject(with: Data((run.stdoutLines.first ?? "").utf8)) as? [String: Any]
        #expect(capture?["start"] as? String == "2019-03-10T13:11:19.707Z")
        #expect(capture?["end"] as? String == "2019-03-10T13:27:26.997Z")
        #expect(types.filter { $0 == "advertiser" }.count == 9)
        #expect(types.filter { $0 == "connection" }.count == 2)
        #expect(types.filter { $0 == "service" }.count == 3)
        #expect(types.filter { $0 == "characteristic" }.count == 5)
        #expect(types.last == "summary")
        let summary = try JSONSerialization.jsonObject(with: Data((run.stdoutLines.last ?? "").utf8)) as? [String: Any]
        #expect(summary?["indications"] as? Int == 16)
    }

    @Test("an unknown command: one-line error, usage, exit 2")
    func unknownCommand() throws {
        let run = try ToolRunner.run(["scna"])
        #expect(run.status == 2)
        #expect(run.stderrLines.first == "cbtool: error: unknown command \"scna\"")
        #expect(run.stderrLines.count == 2)
        #expect(run.stderrLines.last?.hasPrefix("usage: cbtool") == true)
    }

    @Test("bad arguments: exit 2 with what is wrong and the command's usage", arguments: [
        (["read", "C4:7C:8D:6A:3F:21"], "cbtool: error: read needs UUID|HANDLE", "usage: cbtool read ADDRESS UUID|HANDLE"),
        (["gatt", "not-an-address"], "cbtool: error: \"not-an-address\" is not a device address like 12:34:56:78:9A:BC", "usage: cbtool gatt ADDRESS"),
        (["scan", "--duration", "soon"], "cbtool: error: --duration \"soon\" is not a duration (seconds, e.g. 10, 2.5s, 500ms, 1m)", "usage: cbtool scan"),
        (["gatt", "C4:7C:8D:6A:3F:21", "--passive"], "cbtool: error: option --passive does not apply to gatt", "usage: cbtool gatt"),
        (["scan", "--frobnicate"], "cbtool: error: unknown option \"--frobnicate\"", "usage: cbtool scan [--duration SECONDS]"),
        ([], "cbtool: error: no command given (cbtool help lists them)", "usage: cbtool COMMAND"),
    ])
    func badArguments(_ arguments: [String], _ error: String, _ usage: String) throws {
        let run = try ToolRunner.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderrLines.first == error)
        #expect(run.stderrLines.last?.hasPrefix(usage) == true)
        #expect(run.stdout.isEmpty)
    }

    @Test("a transport spec without a port: TransportSpec's one-line error, exit 2")
    func missingPort() throws {
        let run = try ToolRunner.run(["scan", "--transport", "tcp:nowhere"])
        #expect(run.status == 2)
        #expect(run.stderrLines.first == "cbtool: error: invalid transport \"tcp:nowhere\": missing :PORT "
                + "(expected hciN, user:hciN, tcp:HOST:PORT, serial:DEVICE[@BAUD], replay:PATH or replay-tolerant:PATH)")
    }

    @Test("cbtool gatt against a phone's recording (replay-tolerant): the band's database and battery level, exit 0")
    func gattFromARecording() throws {
        let path = Paths.captures.appendingPathComponent("wristband-read-blob-acl-fragments-smp.btsnoop").path
        let run = try ToolRunner.run(["gatt", "42:C9:6B:FA:1A:AD", "--transport", "replay-tolerant:" + path])
        #expect(run.status == 0, "\(run.stderrLines)")
        // tshark reads the same in the capture: 0x0012 Battery Level, value 0x37 (Fixtures/expected/decode).
        #expect(run.stdout.contains("  characteristic 0x0011 value 0x0012 2A19 Battery Level [read, notify] = 55 %"))
        #expect(run.stdout.contains("service 0x0014-0x001F 21C50462-67CB-63A3-5C4C-82B5B9939AEB (primary)"))
    }

    @Test("cbtool scan against a capture that is not one: one line naming the file, exit 1")
    func replayOfAFileThatIsNotACapture() throws {
        let run = try ToolRunner.run(["scan", "--duration", "1", "--transport", "replay:/etc/hostname"])
        #expect(run.status == 1)
        #expect(run.stderrLines.last?.contains("cannot replay /etc/hostname") == true, "\(run.stderrLines)")
    }

    @Test("a strict replay of another stack's capture: the mismatch at its first packet, named, and exit 1 at once")
    func strictReplayOfAForeignCapture() throws {
        let path = Paths.captures.appendingPathComponent("wristband-read-blob-acl-fragments-smp.btsnoop").path
        let run = try ToolRunner.run(["scan", "--duration", "1", "--transport", "replay:" + path])
        #expect(run.status == 1)
        // The phone's first packet is its vendor command 0xFD57; this stack starts with HCI Reset (0x0C03).
        #expect(run.stderrLines.contains { $0.hasPrefix("[CoreBluetooth] WARNING: replay: the stack's packet 1 differs from record 1 of the recording at byte 1: recorded command 0xFD57") },
                "\(run.stderrLines)")
        #expect(run.stderrLines.last?.hasPrefix("cbtool: error: the replay of \(path) ended before the controller came up") == true)
        let directory = try ToolRunner.run(["scan", "--duration", "1", "--transport", "replay:" + Paths.captures.path])
        #expect(directory.stderrLines.last == "cbtool: error: cannot replay \(Paths.captures.path): it is a directory")
    }

    @Test("OCB_TRANSPORT is the default transport and is checked the same way")
    func environmentTransport() throws {
        let run = try ToolRunner.run(["rssi", "C4:7C:8D:6A:3F:21"], environment: ["OCB_TRANSPORT": "bogus"])
        #expect(run.status == 2)
        #expect(run.stderrLines.first?.hasPrefix("cbtool: error: invalid transport \"bogus\"") == true)
    }

    @Test("a transport nobody listens on: one-line error, exit 1")
    func refusedTransport() throws {
        // Port 1 on the loopback: nothing listens there on a test machine, so connect fails with ECONNREFUSED.
        let run = try ToolRunner.run(["gatt", "C4:7C:8D:6A:3F:21", "--transport", "tcp:127.0.0.1:1"])
        #expect(run.status == 1)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderrLines.first?.hasPrefix("cbtool: error: connect to tcp:127.0.0.1:1 failed: Connection refused") == true)
    }

    @Test("controllers: the list, or the one-line no-Bluetooth error on a kernel without it")
    func controllers() throws {
        let run = try ToolRunner.run(["controllers"])
        if FileManager.default.fileExists(atPath: "/sys/class/bluetooth") {
            #expect(run.status == 0)
            for line in run.stdoutLines where !line.hasPrefix("no controllers") {
                #expect(line.range(of: #"^hci[0-9]+ ([0-9A-F]{2}:){5}[0-9A-F]{2} (up|down)$"#, options: .regularExpression) != nil)
            }
        } else {
            #expect(run.status == 1)
            // No "use tcp:HOST:PORT" advice: controllers takes no --transport.
            #expect(run.stderrLines == ["cbtool: error: no Bluetooth controllers: this kernel has no Bluetooth support "
                                        + "(socket(AF_BLUETOOTH) gives EAFNOSUPPORT; load the bluetooth modules)"])
        }
    }

    @Test("decode of an unreadable or empty file: one line, the path once, the reason (strerror), exit 1", arguments: [
        ("/nonexistent/capture.btsnoop", "cannot decode /nonexistent/capture.btsnoop: No such file or directory"),
        ("/", "cannot decode /: Is a directory"),
        ("/dev/null", "cannot decode /dev/null: empty file: not a btsnoop, pcap or pcapng capture"),
    ])
    func decodeUnreadableFile(_ path: String, _ message: String) throws {
        let run = try ToolRunner.run(["decode", path])
        #expect(run.status == 1)
        #expect(run.stderrLines == ["cbtool: error: " + message])
        #expect(run.stdout.isEmpty)
    }

    @Test("help lists every command and exits 0")
    func help() throws {
        let run = try ToolRunner.run(["help"])
        #expect(run.status == 0)
        for command in ["scan", "gatt", "read", "write", "notify", "rssi", "decode", "controllers"] {
            #expect(run.stdoutLines.contains { $0.hasPrefix("  cbtool \(command)") })
        }
    }
}
