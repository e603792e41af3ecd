// cbtool pair and cbtool bonds against Bumble's SMP on the virtual peer's secure peripheral ("OCB Charlie", --security).

import Foundation
import PeerSupport
import Testing

/// A peer with `--security` for these tests only (the other live tests' peer has no Charlie).
enum SecurePeer {
    private static let started: Result<VirtualPeer, any Error> = Result { try VirtualPeer(security: true) }
    static func peer() throws -> VirtualPeer { try started.get() }
    static func transport() throws -> String { "tcp:127.0.0.1:\(try started.get().port())" }
    /// Charlie's current resolvable private address (from READY; `rotate` changes it).
    static func charlie() throws -> String {
        try #require(try peer().ready.peers.first { $0.name == "charlie" }?.address)
    }
}

@Suite(.serialized) struct LivePairTests {
    /// A fresh state directory for one test.
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-pair-\(UUID().uuidString)").path

    func cbtool(_ arguments: [String], live: Bool = true) throws -> ToolRun {
        try ToolRunner.run(arguments + (live ? ["--transport", try SecurePeer.transport()] : []), environment: ["OCB_STATE_DIR": state])
    }

    @Test("pair: Just Works with LE Secure Connections, the bond listed by `bonds` (no key printed), a second pair re-encrypts with it, `bonds remove` deletes it")
    func pairListRemove() throws {
        try SecurePeer.peer().send("pairing sc")
        let address = try SecurePeer.charlie()
        let paired = try cbtool(["pair", address])
        #expect(paired.status == 0, "\(paired.stderr)")
        #expect(paired.stdoutLines == ["\(address) paired: encrypted, unauthenticated (Just Works), LE Secure Connections, 16-octet key, bonded"])
        #expect(paired.stderrLines == ["scanning for \(address)…", "connecting to \(address)…", "pairing…", "disconnecting…"])

        let path = "\(state)/bonds/0C-B0-00-00-00-01/C1-C3-00-00-00-01.json"
        let listed = try cbtool(["bonds"], live: false)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdoutLines.count == 1)
        #expect(listed.stdoutLines.first?.hasPrefix("0C:B0:00:00:00:01 C1:C3:00:00:00:01 (random) LE Secure Connections, unauthenticated, 16-octet key, IRK, CSRK, paired over \(address), created ") == true,
                "\(listed.stdoutLines)")
        #expect(listed.stdoutLines.first?.hasSuffix(" \(path)") == true)
        let key = try #require((try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])?["longTermKey"] as? String)
        #expect(!listed.stdout.contains(key), "keys are never printed")
        let json = try cbtool(["bonds", "--json"], live: false).jsonObjects
        #expect(json.first?["peer"] as? String == "C1:C3:00:00:00:01" && json.first?["identityResolvingKey"] as? Bool == true
                && json.first?["pairedAddress"] as? String == address && json.first?["path"] as? String == path)

        // The identity address reaches the device too (it never advertises from it).
        let byIdentity = try cbtool(["read", "C1:C3:00:00:00:01", "0CB30002-7E57-4C0D-A9E5-0123456789AB"])
        #expect(byIdentity.status == 0 && byIdentity.stdout.contains("(\"encrypted secret\")"), "\(byIdentity.stderr)")

        let again = try cbtool(["pair", address, "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.jsonObjects.first?["bonded"] as? Bool == true && again.jsonObjects.first?["level"] as? Int == 2)

        let removed = try cbtool(["bonds", "remove", "C1:C3:00:00:00:01"], live: false)
        #expect(removed.status == 0 && removed.stdoutLines == ["removed the bond of C1:C3:00:00:00:01: \(path)"], "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
        let none = try cbtool(["bonds", "remove", "C1:C3:00:00:00:01"], live: false)
        #expect(none.status == 1 && none.stderrLines == ["cbtool: error: no bond with C1:C3:00:00:00:01 under \(state)/bonds"])
    }

    @Test("pair refused by the peer: exit 1 with one error line saying so and what to do")
    func pairRefused() throws {
        try SecurePeer.peer().send("pairing refuse")
        defer { _ = try? SecurePeer.peer().send("pairing sc") }
        let address = try SecurePeer.charlie()
        let run = try cbtool(["pair", address])
        #expect(run.status == 1)
        #expect(run.stderrLines.last == "cbtool: error: pairing with \(address) failed: the peer on connection 0x1 refused pairing "
                + "(Pairing Failed: 0x05 Pairing Not Supported): put it in pairing mode, or check whether it pairs with this host at all",
                "\(run.stderrLines)")
        #expect(!FileManager.default.fileExists(atPath: "\(state)/bonds/0C-B0-00-00-00-01/C1-C3-00-00-00-01.json"))
    }

    @Test("bonds with a corrupt file: the good bond listed, one error line naming the corrupt file, exit 1")
    func bondsWithACorruptFile() throws {
        try SecurePeer.peer().send("pairing sc")
        #expect(try cbtool(["pair", try SecurePeer.charlie()]).status == 0)
        let corrupt = "\(state)/bonds/0C-B0-00-00-00-01/AA-BB-CC-DD-EE-FF.json"
        try Data("{ not a bond".utf8).write(to: URL(fileURLWithPath: corrupt))
        let run = try cbtool(["bonds"], live: false)
        #expect(run.status == 1)
        #expect(run.stdoutLines.count == 1 && run.stdoutLines.first?.contains("C1:C3:00:00:00:01") == true)
        #expect(run.stderrLines == ["cbtool: error: the bond \(corrupt) is corrupt (not a bond's JSON): remove it and pair again"])
        let removed = try cbtool(["bonds", "remove", "AA:BB:CC:DD:EE:FF"], live: false)
        #expect(removed.status == 0 && removed.stdoutLines == ["removed the bond of AA:BB:CC:DD:EE:FF: \(corrupt)"], "a corrupt bond is removed too")
    }

    @Test("bonds with no state: a note, exit 0; bad operands: exit 2")
    func bondsEmptyAndUsage() throws {
        let empty = try cbtool(["bonds"], live: false)
        #expect(empty.status == 0 && empty.stderrLines.isEmpty)
        #expect(empty.stdoutLines == ["no bonds under \(state)/bonds"], "\(empty.stdoutLines)")
        #expect(try cbtool(["bonds", "remove"], live: false).status == 2)
        #expect(try cbtool(["bonds", "forget", "C1:C3:00:00:00:01"], live: false).status == 2)
    }
}
