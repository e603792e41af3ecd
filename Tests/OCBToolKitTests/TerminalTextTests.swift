// Names from the air cannot act on the terminal: cbtool escapes control and bidi characters, and drops NUL padding.

import Foundation
import OCBHCI
import OCBToolKit
import Testing

@Suite struct TerminalTextTests {
    @Test func controlsBidiAndBackslashesAreEscapedEverythingElseKept() {
        #expect(TerminalText.escaped("OCB Alpha") == "OCB Alpha")
        #expect(TerminalText.escaped("Ünïcødé 温度計 🌡") == "Ünïcødé 温度計 🌡")
        // OSC 0 (retitle the terminal) and a forged second line.
        #expect(TerminalText.escaped("Evil\u{1B}]0;pwn\u{07}\r\nsummary: 0 advertisers")
                == "Evil\\x1B]0;pwn\\x07\\x0D\\x0Asummary: 0 advertisers")
        #expect(TerminalText.escaped("a\u{00}b\u{7F}c\u{9B}d") == "a\\x00b\\x7Fc\\x9Bd")
        // RIGHT-TO-LEFT OVERRIDE would show "gpj.exe" as "exe.jpg".
        #expect(TerminalText.escaped("x\u{202E}gpj.exe") == "x\\u{202E}gpj.exe")
        #expect(TerminalText.escaped("C:\\x1B") == "C:\\\\x1B", "a literal backslash cannot pass for an escape")
    }

    @Test func theSinkEscapesTextLinesAndLeavesJSONToItsOwnEscaping() {
        let collector = LineCollector()
        collector.sink(.text).emit("name \"Evil\u{1B}[2J\"", json: .string("Evil\u{1B}[2J"))
        #expect(collector.lines == ["name \"Evil\\x1B[2J\""])
        let json = LineCollector()
        json.sink(.jsonLines).emit("x", json: .string("Evil\u{1B}[2J"))
        #expect(json.lines == ["\"Evil\\u001b[2J\""])
    }

    @Test func decodeShowsAHostileNameEscapedWithoutItsNulPadding() throws {
        // LE Advertising Report (Vol 4 Part E §7.7.65.2): ADV_IND from random C1:E5:CA:9E:00:01, Flags 0x06, Complete
        // Local Name "Evil ESC]0;pwn BEL CR LF FAKE" padded with two NULs, RSSI -40.
        let name = Array("Evil\u{1B}]0;pwn\u{07}\r\nFAKE".utf8) + [0, 0]
        let data: [UInt8] = [0x02, 0x01, 0x06, UInt8(name.count + 1), 0x09] + name
        var report: [UInt8] = [0x02, 0x01, 0x00, 0x01, 0x01, 0x00, 0x9E, 0xCA, 0xE5, 0xC1, UInt8(data.count)] + data + [0xD8]
        report = [0x3E, UInt8(report.count)] + report
        let file = BtsnoopWriter.file([CaptureRecord(timestamp: 0, direction: .received, packet: HCIPacket(type: .event, bytes: report))])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-hostile-\(UUID().uuidString).btsnoop")
        try Data(file).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let run = try ToolRunner.run(["decode", path.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("\u{1B}") && !run.stdout.contains("\r") && !run.stdout.contains("\u{07}"))
        #expect(!run.stdoutLines.contains { $0.hasPrefix("FAKE") }, "no forged line")
        let line = try #require(run.stdoutLines.first { $0.contains("Evil") }, "\(run.stdout)")
        #expect(line.contains("Evil\\x1B]0;pwn\\x07\\x0D\\x0AFAKE"), "\(line)")
        #expect(!line.contains("\\x00"), "trailing NULs are padding: \(line)")
    }
}

@Suite struct CutShortCaptureTests {
    @Test func decodeNamesTheRecordCutShortAsTsharkNumbersIt() throws {
        // toycar's last record starts at byte 5898 (24-byte header, 16 data bytes); cut 5 bytes into its data. tshark
        // lists frames 1-148 of that file and says it was cut short in the middle of a packet: frame 149.
        let original = try Data(contentsOf: Paths.captures.appendingPathComponent("toycar-acl-only-read-write.btsnoop"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-cut-\(UUID().uuidString).btsnoop")
        try original.prefix(5898 + 24 + 5).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let run = try ToolRunner.run(["decode", path.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutLines.first?.contains("148 records") == true, "\(run.stdout)")
        #expect(run.stdout.contains("(reading stopped early: record 149 at byte 5898 cut short: needed 16 bytes, 5 available)"), "\(run.stdout)")
    }
}
