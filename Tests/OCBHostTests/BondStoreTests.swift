// The key store: files per controller and peer, mode 0600, atomic replacement, corrupt files named and never hiding others.
import Foundation
import Glibc
import OCBCore
@testable import OCBHost
import Testing

@Suite("bond store")
struct BondStoreTests {
    private let controller = BluetoothAddress(value: 0x0CB0_0000_0001)
    private let alpha = BluetoothAddress(value: 0xC1A0_0000_0001)
    private let bravo = BluetoothAddress(value: 0xC1B0_0000_0002)

    private func root() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("bonds-\(UUID().uuidString)", isDirectory: true)
    }

    private func bond(_ peer: BluetoothAddress, key: String = "69867911 69d7cd23 980522b5 94750a38") -> Bond {
        // The LTK of the f5 sample (Core v5.4 Vol 3 Part H Appendix D.3), an IRK of the ah sample (D.7).
        Bond(peer: peer.description, peerAddressType: "random", longTermKey: key.replacingOccurrences(of: " ", with: ""),
             authenticated: false, secureConnections: true, identityResolvingKey: "ec0234a357c8ad05341010a60a397d9b",
             created: "2026-12-02T03:00:00.000Z")
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test("a bond is written as DIR/bonds/CONTROLLER/PEER.json, mode 0600 in a 0700 directory, and read back")
    func roundTrip() throws {
        let root = root()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = BondStore(controller: controller, root: root)
        try store.save(bond(alpha))
        let path = store.path(of: alpha)
        #expect(path == root.path + "/bonds/0C-B0-00-00-00-01/C1-A0-00-00-00-01.json")
        #expect(mode(path) == 0o600)
        #expect(mode(store.directory.path) == 0o700)
        #expect(try store.bond(of: alpha) == bond(alpha))
        #expect(store.load().bonds == [bond(alpha)])
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path) == ["C1-A0-00-00-00-01.json"], "no temporary file left")
        // Replaced whole: the second key wins.
        try store.save(bond(alpha, key: "2965f176a1084a02fd3f6a20ce636e20"))
        #expect(try store.bond(of: alpha)?.longTermKey == "2965f176a1084a02fd3f6a20ce636e20")
        #expect(try store.bond(of: bravo) == nil)
    }

    @Test("a corrupt bond is named with its path and reason, and the other bonds are still read")
    func corruptFileKeepsTheOthers() throws {
        let root = root()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = BondStore(controller: controller, root: root)
        try store.save(bond(alpha))
        try store.save(bond(bravo))
        try Data("{\"peer\": \"C1:B0:00:00:00:02\", \"longTerm".utf8).write(to: URL(fileURLWithPath: store.path(of: bravo)))
        let (bonds, problems) = store.load()
        #expect(bonds == [bond(alpha)])
        #expect(problems == [.corrupt(path: store.path(of: bravo), reason: "not a bond's JSON")])
        #expect(problems.first?.description == "the bond \(store.path(of: bravo)) is corrupt (not a bond's JSON): remove it and pair again")
        #expect(throws: BondStoreError.corrupt(path: store.path(of: bravo), reason: "not a bond's JSON")) { try store.bond(of: bravo) }
        // A well-formed JSON with a malformed key is corrupt too, and says which field.
        var short = bond(bravo)
        short.longTermKey = String(short.longTermKey.dropLast())
        try JSONEncoder().encode(short).write(to: URL(fileURLWithPath: store.path(of: bravo)))
        #expect(store.load().problems == [.corrupt(path: store.path(of: bravo), reason: "longTermKey is not 32 hex digits")])
        #expect(throws: BondStoreError.writeFailed(path: store.path(of: bravo), reason: "longTermKey is not 32 hex digits")) { try store.save(short) }
    }

    @Test("remove: true once, then false; a store that cannot be made is a write failure naming the file")
    func removeAndUnwritable() throws {
        let root = root()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = BondStore(controller: controller, root: root)
        try store.save(bond(alpha))
        #expect(try store.remove(alpha))
        #expect(try !store.remove(alpha))
        #expect(store.load().bonds.isEmpty)
        // A regular file where the bonds directory should be.
        let blocked = root.appendingPathComponent("blocked", isDirectory: true)
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
        try Data().write(to: blocked.appendingPathComponent("bonds"))
        let unwritable = BondStore(controller: controller, root: blocked)
        do {
            try unwritable.save(bond(alpha))
            Issue.record("saved into a file")
        } catch {
            guard case .writeFailed(let path, _) = error else { Issue.record("\(error)"); return }
            #expect(path == unwritable.path(of: alpha))
        }
    }
}
