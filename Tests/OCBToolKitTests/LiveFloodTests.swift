// cbtool scan through a flood of distinct advertisers from the peer: each one listed with its own data, or counted as dropped.

import Foundation
import Testing

extension LiveCommandTests {
    @Test("scan during a flood of 20,000 advertisers: each listed once with its own data or counted in dropped, exit 0")
    func scanThroughAFlood() throws {
        let peer = try LivePeer.peer()
        let count = 20_000
        // The flood starts once the scan runs (alpha listed), while cbtool scans for 8 s.
        let flooded = LockedText()
        let run = try ToolRunner.runInterrupted(["scan", "--duration", "8", "--json", "--transport", LivePeer.transport()],
                                                within: 30) { output in
            if flooded.text.isEmpty, output.contains(LivePeer.alpha) {
                flooded.append(Data("started".utf8))
                DispatchQueue.global().async {
                    let seconds = (try? peer.flood(count)).map { "\($0)" } ?? "failed"
                    flooded.append(Data(" \(seconds)".utf8))
                }
            }
            return false  // never interrupted: the scan runs its 8 s
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!flooded.text.hasSuffix("failed"), "the peer's flood: \(flooded.text)")
        // Advertiser i is D0:00:ii:ii:ii:ii with manufacturer data FFFF + i as 4 bytes little-endian (Tests/Peer/README.md).
        var seen = Set<Int>()
        for object in run.jsonObjects where (object["address"] as? String)?.hasPrefix("D0:00:") == true {
            let address = try #require(object["address"] as? String)
            let index = try #require(Int(address.dropFirst(6).replacingOccurrences(of: ":", with: ""), radix: 16))
            let data = try #require((object["manufacturerData"] as? [[String: Any]])?.first?["data"] as? String)
            let bytes = [index & 0xFF, index >> 8 & 0xFF, index >> 16 & 0xFF, index >> 24 & 0xFF]
            #expect(data == bytes.map { String(format: "%02x", $0) }.joined(), "\(address) carries its own data")
            #expect(object["rssi"] as? Int == -70)
            #expect(seen.insert(index).inserted, "\(address) listed once")
        }
        #expect(seen.allSatisfy { (0..<count).contains($0) })
        let summary = try #require(run.jsonObjects.last)
        #expect(summary["type"] as? String == "summary")
        let dropped = try #require(summary["dropped"] as? Int)
        #expect(seen.count + dropped >= count, "every advertiser listed or counted as dropped: \(seen.count) + \(dropped)")
        #expect(summary["advertisers"] as? Int == seen.count + 4, "the flood's and the peer's four")
    }
}
