// cbtool scan against the virtual peer: the advertisers of Tests/Peer/README.md, in text and JSON lines.

import Foundation
import Testing

/// Every live-command test, one at a time: the peer's controller serves one TCP client at a time.
@Suite("cbtool live commands against the virtual peer", .serialized)
struct LiveCommandTests {}

extension LiveCommandTests {
    /// The last line of `run` about `address`.
    func lastLine(_ run: ToolRun, _ address: String) -> String? {
        run.stdoutLines.last { $0.hasPrefix(address + " ") }
    }

    /// The last JSON advertiser object of `run` about `address`.
    func lastAdvertiser(_ run: ToolRun, _ address: String) -> [String: Any]? {
        run.jsonObjects.last { $0["type"] as? String == "advertiser" && $0["address"] as? String == address }
    }

    @Test("scan: every advertiser once, decoded (names, services, service data, company, iBeacon, Eddystone), then a summary")
    func scanText() throws {
        let run = try LivePeer.run(["scan", "--duration", "1.5"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderrLines.first == "scanning (active) for 1.5 s…")
        let alpha = try #require(lastLine(run, LivePeer.alpha))
        #expect(alpha.hasPrefix("C1:A0:00:00:00:01 (random) -45 dBm \"OCB Alpha\" connectable; "))
        #expect(alpha.contains("; services 180D Heart Rate, 180F Battery Service, 0CB10001-7E57-4C0D-A9E5-0123456789AB; "))
        #expect(alpha.contains("; service data 180F Battery Service: 64; "))
        #expect(alpha.contains("(0xFFFF): 0c b1 01; tx power -8 dBm"))
        let bravo = try #require(lastLine(run, "C1:B0:00:00:00:02"))
        #expect(bravo.hasPrefix("C1:B0:00:00:00:02 (random) -60 dBm \"OCB Bravo\" connectable; "
                                + "services 0CB20001-7E57-4C0D-A9E5-0123456789AB, 180A Device Information, 180F Battery Service; "
                                + "service data 180A Device Information: 01 02; "))
        #expect(bravo.hasSuffix("(0xFFFF): 0c b2 02 b0; tx power 0 dBm"))
        // iBeacon: major 0x0102, minor 0x0304, measured power -59 dBm; Eddystone-URL frame 10 EB 03 "example" 07.
        #expect(lastLine(run, "C1:1B:EA:C0:00:03") == "C1:1B:EA:C0:00:03 (random) -70 dBm non-connectable; Apple, Inc. (0x004C) iBeacon "
                + "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 major 258 minor 772 power -59 dBm")
        #expect(lastLine(run, "C1:ED:D7:00:00:04") == "C1:ED:D7:00:00:04 (random) -75 dBm non-connectable; services FEAA Eddystone; "
                + "Eddystone-URL https://example.com tx -21 dBm")
        #expect(run.stdoutLines.last?.hasPrefix("summary: 4 advertisers (2 connectable), ") == true)
        #expect(run.stdoutLines.last?.hasSuffix(" s (active scan)") == true)
    }

    @Test("scan --json: one advertiser object per report with the peer's values, and a summary object")
    func scanJSON() throws {
        let run = try LivePeer.run(["scan", "--duration", "1.5", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let objects = run.jsonObjects
        #expect(objects.allSatisfy { $0["type"] as? String == "advertiser" || $0["type"] as? String == "summary" })
        let alpha = try #require(lastAdvertiser(run, LivePeer.alpha))
        #expect(alpha["addressType"] as? String == "random")
        #expect(alpha["rssi"] as? Int == -45)
        #expect(alpha["name"] as? String == "OCB Alpha")
        #expect(alpha["connectable"] as? Bool == true)
        #expect(alpha["txPower"] as? Int == -8)
        #expect(alpha["services"] as? [String] == ["180D", "180F", "0CB10001-7E57-4C0D-A9E5-0123456789AB"])
        #expect((alpha["serviceData"] as? [[String: String]]) == [["uuid": "180F", "data": "64"]])
        let manufacturer = try #require((alpha["manufacturerData"] as? [[String: Any]])?.first)
        #expect(manufacturer["company"] as? Int == 0xFFFF)
        #expect(manufacturer["data"] as? String == "0cb101")
        #expect((alpha["time"] as? String)?.hasSuffix("Z") == true)
        let beacon = try #require(lastAdvertiser(run, "C1:1B:EA:C0:00:03")?["iBeacon"] as? [String: Any])
        #expect(beacon["uuid"] as? String == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        #expect(beacon["major"] as? Int == 0x0102)
        #expect(beacon["minor"] as? Int == 0x0304)
        #expect(beacon["measuredPower"] as? Int == -59)
        #expect(lastAdvertiser(run, "C1:ED:D7:00:00:04")?["eddystone"] as? String == "Eddystone-URL https://example.com tx -21 dBm")
        let summary = try #require(objects.last)
        #expect(summary["type"] as? String == "summary")
        #expect(summary["advertisers"] as? Int == 4)
        #expect(summary["connectable"] as? Int == 2)
        #expect(summary["active"] as? Bool == true)
    }

    @Test("scan the controller refuses (0x0C): exit 1 with one line saying why and what to do")
    func scanRefused() throws {
        let peer = try LivePeer.peer()
        try peer.refuse(opcode: 0x2042, status: 0x0C)  // LE Set Extended Scan Enable: the peer's controller is extended
        defer { try? peer.refuse(opcode: 0x2042, status: 0) }
        let run = try LivePeer.run(["scan", "--duration", "3"])
        #expect(run.status == 1)
        #expect(run.stdoutLines.isEmpty, "no summary of a scan that never ran: \(run.stdout)")
        let errors = run.stderrLines.filter { $0.hasPrefix("cbtool: error: ") }
        #expect(errors == ["cbtool: error: scanning did not start: command 0x2042 LE Set Extended Scan Enable failed: 0x0C Command Disallowed: "
                           + "the controller refused to scan; try again, or power-cycle the controller"], "\(run.stderr)")
        #expect(run.stderrLines.count == 2, "the progress line and the error only: \(run.stderr)")
        // --json: the failure is also the one line on stdout, for a script that reads only that.
        let json = try LivePeer.run(["scan", "--duration", "3", "--json"])
        #expect(json.status == 1)
        #expect(json.jsonObjects.count == 1 && json.stdoutLines.count == 1, "\(json.stdout)")
        #expect(json.jsonObjects.first?["type"] as? String == "error")
        #expect(json.jsonObjects.first?["status"] as? Int == 1)
        #expect((json.jsonObjects.first?["message"] as? String)?.hasPrefix("scanning did not start: command 0x2042") == true)
    }

    @Test("scan --passive: no scan requests, so no scan response data (alpha's shortened name, no 128-bit UUID)")
    func scanPassive() throws {
        let run = try LivePeer.run(["scan", "--duration", "1", "--passive"])
        #expect(run.status == 0, "\(run.stderr)")
        let alpha = try #require(lastLine(run, LivePeer.alpha))
        #expect(alpha.hasPrefix("C1:A0:00:00:00:01 (random) -45 dBm \"Alpha\" connectable; services 180D Heart Rate, 180F Battery Service; "))
        #expect(run.stdoutLines.last?.hasSuffix(" s (passive scan)") == true)
    }

    @Test("scan --service 180D --duplicates: only alpha, reported at every advertisement (50 ms interval)")
    func scanServiceDuplicates() throws {
        let run = try LivePeer.run(["scan", "--duration", "1", "--service", "180D", "--duplicates", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let advertisers = run.jsonObjects.filter { $0["type"] as? String == "advertiser" }
        #expect(Set(advertisers.compactMap { $0["address"] as? String }) == [LivePeer.alpha])
        // 1 s at a 50 ms interval: about 20 advertising events; well above one report per device.
        #expect(advertisers.count >= 5)
        let summary = try #require(run.jsonObjects.last)
        #expect(summary["advertisers"] as? Int == 1)
        #expect(summary["reports"] as? Int == advertisers.count)
        #expect(summary["services"] as? [String] == ["180D"])
    }

    /// Ctrl-C is how an open-ended scan (no `--duration`) is stopped: the lines held so far, the summary, exit 0 (as
    /// `tcpdump` or `ping` end); only a second one exits at once, with 130.
    @Test("scan until Ctrl-C: SIGINT ends it with every line held so far and the summary, exit 0")
    func scanInterrupted() throws {
        let run = try ToolRunner.runInterrupted(["scan", "--json", "--transport", LivePeer.transport()]) { text in
            text.contains(LivePeer.alpha)
        }
        #expect(run.status == 0, "\(run.stderr)")
        let objects = run.jsonObjects
        #expect(objects.contains { $0["address"] as? String == LivePeer.alpha })
        let summary = try #require(objects.last)
        #expect(summary["type"] as? String == "summary")
        #expect(summary["reports"] as? Int == objects.count - 1)
    }
}
