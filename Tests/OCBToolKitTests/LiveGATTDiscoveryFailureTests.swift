// cbtool gatt when one service's discovery gets a malformed response: the rest of the tree, the failure marked, exit 1.

import Foundation
import PeerSupport
import Testing

@Test("gatt: a malformed response in one service's characteristic discovery marks that part; the rest is printed")
func gattMarksAFailedPartAndPrintsTheRest() throws {
    // A peer of its own: control 07 changes alpha's server for every later connection (Tests/Peer/README.md).
    let peer = try VirtualPeer()
    defer { peer.stop() }
    let transport = ["--transport", "tcp:127.0.0.1:\(peer.port())"]
    let broken = try ToolRunner.run(["write", LivePeer.alpha, "0x004E", "07"] + transport)
    #expect(broken.status == 0, "\(broken.stderr)")

    let run = try ToolRunner.run(["gatt", LivePeer.alpha] + transport)
    #expect(run.status == 1)
    let lines = run.stdoutLines
    // The Tx Power secondary service (0x0024-0x0026) is there, without its characteristic 0x0025 …
    #expect(lines.contains("service 0x0024-0x0026 1804 Tx Power (secondary)"))
    #expect(!lines.contains { $0.hasPrefix("  characteristic 0x0025 ") })
    // … every other service still has its characteristics and values.
    #expect(lines.contains("  characteristic 0x0016 value 0x0017 2A19 Battery Level [read, notify] = 100 %"))
    #expect(lines.contains("  characteristic 0x0022 value 0x0023 0CB10101-7E57-4C0D-A9E5-0123456789AB [read] = 73 65 63 6f 6e 64 61 72 79 (\"secondary\")"))
    // The failure names the service and the PDU: ATT_READ_BY_TYPE_RSP with Length 0 (Core v5.4 Vol 3 Part F §3.4.4.2).
    let marked = lines.filter { $0.hasPrefix("not discovered: ") }
    #expect(marked.count == 1)
    #expect(marked.first?.hasPrefix("not discovered: discovering the characteristics of 1804 Tx Power failed: ") == true)
    #expect(marked.first?.contains("ATT_READ_BY_TYPE_RSP") == true && marked.first?.contains("invalid entry length 0") == true)
    // 27 characteristics less Tx Power Level; 31 values less its value.
    #expect(lines.last == "summary: 8 services (2 secondary), 26 characteristics, 14 descriptors, 30 values read, 2 not readable, 1 part not discovered")
    #expect(run.stderrLines.last == "cbtool: error: 1 part of the database could not be discovered (see \"not discovered:\"); the device's responses were malformed or refused")
}
