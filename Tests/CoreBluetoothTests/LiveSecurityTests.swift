// Pairing, bonding and encryption through the CoreBluetooth API against Bumble's SMP on the virtual peer ("OCB Charlie").
@testable import CoreBluetooth
import Foundation
import OCBHCI
import PeerSupport
import Testing

/// The security peer: one host-facing controller (0C:B0:00:00:00:01) and "OCB Charlie" (`--security`): a
/// characteristic needing encryption (0CB30002, "encrypted secret"), one needing authentication (0CB30003), a counter
/// whose CCCD needs encryption (0CB30004), identity C1:C3:00:00:00:01 behind resolvable private addresses.
enum SecurityPeer {
    nonisolated(unsafe) private static var started: Result<VirtualPeer, any Error>?
    private static let lock = NSLock()

    static func shared() throws -> VirtualPeer {
        try lock.withLock {
            if started == nil { started = Result { try VirtualPeer(controllers: 1, security: true) } }
            return try started!.get()
        }
    }

    static var transport: String { get throws { "tcp:127.0.0.1:\(try shared().port(0))" } }
    static var charlie: PeerReady.Peer { get throws { try #require(try shared().ready.peers.first { $0.name == "charlie" }) } }
}

func charlieUUID(_ short: String) -> String { "0CB3\(short)-7E57-4C0D-A9E5-0123456789AB" }

/// What a btsnoop recording of a session shows of security: SMP PDUs by code, LE Enable Encryption commands and the
/// peer addresses of LE Create Connection (Core v5.4 Vol 4 Part E §7.8.24, §7.8.12; Vol 3 Part H §3.3).
struct SecurityWire {
    var smpCodes: [UInt8] = []
    var enableEncryption = 0
    var connectAddresses: [String] = []
    var opcodes: [UInt16] = []

    init(path: String) throws {
        let capture = try CaptureFile.read(path: path)
        for record in capture.records {
            guard let packet = record.packet else { continue }
            let bytes = packet.bytes
            switch packet.type {
            case .command where bytes.count >= 3:
                let opcode = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
                opcodes.append(opcode)
                if opcode == 0x2019 { enableEncryption += 1 }
                // Peer_Address: parameter offset 6 in LE Create Connection, 3 in LE Extended Create Connection (§7.8.66).
                let offset = opcode == 0x200D ? 6 : opcode == 0x2043 ? 3 : nil
                if let offset, bytes.count >= 3 + offset + 6 {
                    connectAddresses.append(bytes[(3 + offset)..<(3 + offset + 6)].reversed().map { String(format: "%02X", $0) }.joined(separator: ":"))
                }
            case .acl where bytes.count >= 9:
                let cid = UInt16(bytes[6]) | UInt16(bytes[7]) << 8
                if cid == 0x0006, bytes[1] & 0x30 != 0x10 { smpCodes.append(bytes[8]) }
            default:
                break
            }
        }
    }

    /// Pairing Requests sent (code 0x01).
    var pairingRequests: Int { smpCodes.filter { $0 == 0x01 }.count }
}

@Suite(.serialized) struct LiveSecuritySuite {
    /// A fresh state directory (no bonds).
    static func stateDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-security-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A manager on the security peer keeping its bonds under `directory`, recording to `btsnoop`.
    static func central(_ directory: URL, btsnoop: String) throws -> LiveCentral {
        LiveCentral(transport: try SecurityPeer.transport, options: [CBCentralManagerOptionStateDirectoryKey: directory.path,
                                                                    CBCentralManagerOptionBtsnoopPathKey: btsnoop])
    }

    /// Scans until "OCB Charlie" is discovered; the peripheral.
    static func discoverCharlie(_ central: LiveCentral) throws -> CBPeripheral {
        #expect(central.wait { $0.hasPrefix("state ") } == "state poweredOn")
        let mark = central.recorder.log.count
        central.manager.scanForPeripherals(withServices: nil, options: nil)
        central.wait(from: mark) { $0.hasPrefix("discover OCB Charlie") }
        central.manager.stopScan()
        return try #require(central.queue.sync { central.recorder.discovered.last { $0.0.name == "OCB Charlie" }?.0 })
    }

    /// Connects and discovers Charlie's service and characteristics.
    static func connect(_ central: LiveCentral, _ charlie: CBPeripheral) throws {
        #expect(central.request("connect") { central.manager.connect(charlie, options: nil) } == "connect")
        #expect(central.request("services ") { charlie.discoverServices([CBUUID(string: charlieUUID("0001"))]) } != nil)
        let service = try #require(charlie.service(charlieUUID("0001")))
        #expect(central.request("characteristics ") { charlie.discoverCharacteristics(nil, for: service) } != nil)
    }

    /// Reads a characteristic of Charlie; the logged line.
    static func read(_ central: LiveCentral, _ charlie: CBPeripheral, _ short: String, within seconds: Double = 10) throws -> String? {
        let characteristic = try #require(charlie.characteristic(charlieUUID(short)))
        return central.request("value \(charlieUUID(short))", within: seconds) { charlie.readValue(for: characteristic) }
    }

    /// Disconnects and waits for it.
    static func disconnect(_ central: LiveCentral, _ charlie: CBPeripheral) {
        #expect(central.request("disconnect") { central.manager.cancelPeripheralConnection(charlie) } == "disconnect")
    }

    /// The bond file of Charlie for controller 0C:B0:00:00:00:01 under `directory`, decoded.
    static func bond(_ directory: URL) throws -> [String: Any] {
        let path = directory.appendingPathComponent("bonds/0C-B0-00-00-00-01/C1-C3-00-00-00-01.json").path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "keys are secrets: mode 0600")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    static let encryptedSecret = "[\(Array("encrypted secret".utf8).map(String.init).joined(separator: ", "))]"

    @Test("a read that needs encryption pairs (Secure Connections, Just Works) and is retried: the app gets the value; the bond is stored with the peer's IRK and identity")
    func readNeedingEncryptionPairsAndRetries() throws {
        let peer = try SecurityPeer.shared()
        try peer.send("pairing sc")
        let directory = Self.stateDirectory(), btsnoop = directory.appendingPathComponent("session.btsnoop").path
        var central: LiveCentral? = try Self.central(directory, btsnoop: btsnoop)
        let charlie = try Self.discoverCharlie(central!)
        try Self.connect(central!, charlie)
        #expect(try Self.read(central!, charlie, "0002") == "value \(charlieUUID("0002")) \(Self.encryptedSecret)")
        Self.disconnect(central!, charlie)
        central = nil

        let wire = try SecurityWire(path: btsnoop)
        #expect(wire.pairingRequests == 1 && wire.enableEncryption == 1)
        #expect(wire.smpCodes.first == 0x01 && wire.smpCodes.contains(0x0C) && wire.smpCodes.contains(0x0D),
                "Pairing Request, Public Key and DHKey Check: LE Secure Connections (\(wire.smpCodes))")
        let bond = try Self.bond(directory)
        let ready = try SecurityPeer.charlie
        #expect(bond["peer"] as? String == "C1:C3:00:00:00:01" && bond["peerAddressType"] as? String == "random")
        #expect(bond["identityResolvingKey"] as? String == ready.irk, "the IRK Charlie distributed")
        #expect(bond["secureConnections"] as? Bool == true && bond["authenticated"] as? Bool == false && bond["keySize"] as? Int == 16)
        #expect((bond["longTermKey"] as? String)?.count == 32 && bond["ediv"] as? Int == 0 && bond["rand"] as? String == "0000000000000000")
    }

    @Test("bonded: a new manager finds the peer with retrievePeripherals, re-encrypts from the store without pairing (a corrupt bond file beside it named in a warning, not in the way); after the peer rotates its private address it keeps its identifier and is reached at the new address")
    func bondSurvivesRestartAndRotation() throws {
        let peer = try SecurityPeer.shared()
        try peer.send("pairing sc")
        let directory = Self.stateDirectory()
        var first: LiveCentral? = try Self.central(directory, btsnoop: directory.appendingPathComponent("first.btsnoop").path)
        let charlie = try Self.discoverCharlie(first!)
        let identifier = charlie.identifier
        try Self.connect(first!, charlie)
        #expect(try Self.read(first!, charlie, "0002") == "value \(charlieUUID("0002")) \(Self.encryptedSecret)")
        Self.disconnect(first!, charlie)
        first = nil

        // A corrupt bond of another peer in the same store.
        let corrupt = directory.appendingPathComponent("bonds/0C-B0-00-00-00-01/D0-00-00-00-00-01.json")
        try Data("{ not a bond".utf8).write(to: corrupt)
        let warnings = WarningCapture(marker: corrupt.path)
        defer { warnings.remove() }

        // "A restart": a new manager, nothing of the first in memory.
        let btsnoop = directory.appendingPathComponent("second.btsnoop").path
        var second: LiveCentral? = try Self.central(directory, btsnoop: btsnoop)
        #expect(second!.wait { $0.hasPrefix("state ") } == "state poweredOn")
        #expect(poll(within: 2) { !warnings.lines.isEmpty })
        #expect(warnings.lines.first?.contains("is corrupt") == true, "\(warnings.lines)")
        let retrieved = second!.manager.retrievePeripherals(withIdentifiers: [identifier])
        let again = try #require(retrieved.first, "the bonded peer is known before any scan")
        #expect(again.identifier == identifier)
        try Self.connect(second!, again)
        #expect(try Self.read(second!, again, "0002") == "value \(charlieUUID("0002")) \(Self.encryptedSecret)")
        Self.disconnect(second!, again)

        // The peer rotates its resolvable private address.
        let rotated = try peer.send("rotate").split(separator: " ").last.map(String.init) ?? ""
        #expect(rotated != (try SecurityPeer.charlie).address && rotated.count == 17, "a new address: \(rotated)")
        let mark = second!.recorder.log.count
        second!.manager.scanForPeripherals(withServices: nil, options: nil)
        second!.wait(from: mark) { $0.hasPrefix("discover OCB Charlie") }
        second!.manager.stopScan()
        let seen = try #require(second!.queue.sync { second!.recorder.discovered.last { $0.0.name == "OCB Charlie" }?.0 })
        #expect(seen.identifier == identifier, "one identifier across the rotation")
        #expect(seen === again, "the same CBPeripheral object")
        try Self.connect(second!, seen)
        #expect(try Self.read(second!, seen, "0002") == "value \(charlieUUID("0002")) \(Self.encryptedSecret)")
        Self.disconnect(second!, seen)
        second = nil

        let wire = try SecurityWire(path: btsnoop)
        #expect(wire.pairingRequests == 0, "re-encrypted from the store, never paired again (\(wire.smpCodes))")
        #expect(wire.enableEncryption == 2, "one LE Enable Encryption per connection")
        #expect(wire.connectAddresses.last == rotated, "the second connect went to the address the peer uses now: \(wire.connectAddresses) \(wire.opcodes.map { String($0, radix: 16) })")

        // A third process (the state directory given as a URL this time): retrieve and connect without a scan; the
        // bond kept where the device was last heard, so the connect goes to its current address.
        let third = LiveCentral(transport: try SecurityPeer.transport, options: [CBCentralManagerOptionStateDirectoryKey: directory])
        #expect(third.wait { $0.hasPrefix("state ") } == "state poweredOn")
        let known = try #require(third.manager.retrievePeripherals(withIdentifiers: [identifier]).first)
        #expect(known.identityAddress == "C1:C3:00:00:00:01")
        try Self.connect(third, known)
        #expect(try Self.read(third, known, "0002") == "value \(charlieUUID("0002")) \(Self.encryptedSecret)")
        Self.disconnect(third, known)
    }

    @Test("legacy pairing (the peer without Secure Connections): the value, a bond with the LTK, EDIV and Rand the peer distributed, and a re-encryption with them")
    func legacyPairing() throws {
        let peer = try SecurityPeer.shared()
        try peer.send("pairing legacy")
        defer { _ = try? peer.send("pairing sc") }
        let directory = Self.stateDirectory(), btsnoop = directory.appendingPathComponent("legacy.btsnoop").path
        var central: LiveCentral? = try Self.central(directory, btsnoop: btsnoop)
        let charlie = try Self.discoverCharlie(central!)
        try Self.connect(central!, charlie)
        #expect(try Self.read(central!, charlie, "0002") == "value \(charlieUUID("0002")) \(Self.encryptedSecret)")
        Self.disconnect(central!, charlie)
        let bond = try Self.bond(directory)
        #expect(bond["secureConnections"] as? Bool == false)
        #expect((bond["longTermKey"] as? String)?.count == 32 && bond["ediv"] as? Int != nil && (bond["rand"] as? String)?.count == 16,
                "the LTK the peer distributed, with its EDIV and Rand (Bumble's are 0)")
        let wire = try SecurityWire(path: btsnoop)
        #expect(wire.pairingRequests == 1 && !wire.smpCodes.contains(0x0C), "no public keys in legacy pairing (\(wire.smpCodes))")
        #expect(wire.smpCodes.contains(0x06) && wire.smpCodes.contains(0x07), "the peer distributed its LTK, EDIV and Rand")

        // Reconnect: the distributed LTK with its EDIV and Rand encrypts the link.
        try Self.connect(central!, charlie)
        #expect(try Self.read(central!, charlie, "0002") == "value \(charlieUUID("0002")) \(Self.encryptedSecret)")
        Self.disconnect(central!, charlie)
        central = nil
        let after = try SecurityWire(path: btsnoop)
        #expect(after.pairingRequests == 1 && after.enableEncryption == 2)
    }

    @Test("a peer that refuses pairing: the app gets the ATT error on its read (CBATTError.insufficientEncryption), no bond")
    func refusedPairingGivesTheATTError() throws {
        let peer = try SecurityPeer.shared()
        try peer.send("pairing refuse")
        defer { _ = try? peer.send("pairing sc") }
        let directory = Self.stateDirectory(), btsnoop = directory.appendingPathComponent("refused.btsnoop").path
        var central: LiveCentral? = try Self.central(directory, btsnoop: btsnoop)
        let charlie = try Self.discoverCharlie(central!)
        try Self.connect(central!, charlie)
        #expect(try Self.read(central!, charlie, "0002") == "value \(charlieUUID("0002")) nil error=ATT.15")
        let error = try #require(central!.recorder.errors.last as? CBATTError)
        #expect(error.code == .insufficientEncryption)
        #expect(try Self.read(central!, charlie, "0005") == "value \(charlieUUID("0005")) [111, 112, 101, 110]", "the link goes on")
        Self.disconnect(central!, charlie)
        central = nil
        let wire = try SecurityWire(path: btsnoop)
        #expect(wire.smpCodes == [0x01, 0x05], "Pairing Request, then the peer's Pairing Failed")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("bonds/0C-B0-00-00-00-01/C1-C3-00-00-00-01.json").path))
    }

    @Test("a characteristic that needs authentication: Just Works pairs, encrypts, and the retried read still gets 0x05, which reaches the app; the link stays encrypted for the others")
    func authenticationIsBeyondJustWorks() throws {
        let peer = try SecurityPeer.shared()
        try peer.send("pairing sc")
        let directory = Self.stateDirectory(), btsnoop = directory.appendingPathComponent("mitm.btsnoop").path
        var central: LiveCentral? = try Self.central(directory, btsnoop: btsnoop)
        let charlie = try Self.discoverCharlie(central!)
        try Self.connect(central!, charlie)
        #expect(try Self.read(central!, charlie, "0003") == "value \(charlieUUID("0003")) nil error=ATT.5")
        #expect((central!.recorder.errors.last as? CBATTError)?.code == .insufficientAuthentication)
        #expect(try Self.read(central!, charlie, "0002") == "value \(charlieUUID("0002")) \(Self.encryptedSecret)")
        Self.disconnect(central!, charlie)
        central = nil
        let wire = try SecurityWire(path: btsnoop)
        #expect(wire.pairingRequests == 1, "paired once for both reads")
    }

    @Test("notifications behind a CCCD that needs encryption: setNotifyValue pairs, the CCCD write is retried, values arrive")
    func notifyBehindAnEncryptedCCCD() throws {
        let peer = try SecurityPeer.shared()
        try peer.send("pairing sc")
        let directory = Self.stateDirectory()
        var central: LiveCentral? = try Self.central(directory, btsnoop: directory.appendingPathComponent("notify.btsnoop").path)
        let charlie = try Self.discoverCharlie(central!)
        try Self.connect(central!, charlie)
        let counter = try #require(charlie.characteristic(charlieUUID("0004")))
        #expect(central!.request("notifying \(charlieUUID("0004"))", within: 10) { charlie.setNotifyValue(true, for: counter) }
                == "notifying \(charlieUUID("0004")) true")
        let mark = central!.recorder.log.count
        #expect(poll(within: 3) { central!.entries(from: mark).filter { $0.hasPrefix("value \(charlieUUID("0004"))") }.count >= 3 })
        Self.disconnect(central!, charlie)
        central = nil
    }

    @Test("the peer forgot the bond: re-encryption fails (PIN or Key Missing), the app gets the ATT error and a warning saying to remove the bond and pair again")
    func peerForgotTheBond() throws {
        let peer = try SecurityPeer.shared()
        try peer.send("pairing sc")
        let directory = Self.stateDirectory()
        var central: LiveCentral? = try Self.central(directory, btsnoop: directory.appendingPathComponent("forgot.btsnoop").path)
        let charlie = try Self.discoverCharlie(central!)
        try Self.connect(central!, charlie)
        #expect(try Self.read(central!, charlie, "0002") == "value \(charlieUUID("0002")) \(Self.encryptedSecret)")
        Self.disconnect(central!, charlie)
        try peer.send("forget")
        let warnings = WarningCapture(marker: "PIN or Key Missing")
        defer { warnings.remove() }
        try Self.connect(central!, charlie)
        #expect(try Self.read(central!, charlie, "0002") == "value \(charlieUUID("0002")) nil error=ATT.15")
        #expect(poll(within: 2) { !warnings.lines.isEmpty })
        #expect(warnings.lines.first?.contains("remove the bond and pair again") == true, "\(warnings.lines)")
        Self.disconnect(central!, charlie)
        central = nil
    }
}

/// A pairing delegate that answers as a user would, logging what it was asked.
final class PairingAnswers: CBPairingDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var log: [String] = []
    let passkey: UInt32?
    let accepts: Bool
    /// Called with a passkey this side displays (the user typing it on the peripheral).
    let typed: (@Sendable (UInt32) -> Void)?

    init(passkey: UInt32? = nil, accepts: Bool = true, typed: (@Sendable (UInt32) -> Void)? = nil) {
        self.passkey = passkey
        self.accepts = accepts
        self.typed = typed
    }

    var asked: [String] { lock.withLock { log } }

    func centralManager(_ central: CBCentralManager, peripheral: CBPeripheral, needsPasskey reply: @escaping @Sendable (UInt32?) -> Void) {
        lock.withLock { log.append("passkey") }
        reply(passkey)
    }

    func centralManager(_ central: CBCentralManager, peripheral: CBPeripheral, displayPasskey passkey: UInt32) {
        lock.withLock { log.append("display") }
        typed?(passkey)
    }

    func centralManager(_ central: CBCentralManager, peripheral: CBPeripheral, confirmNumber number: UInt32,
                        reply: @escaping @Sendable (Bool) -> Void) {
        lock.withLock { log.append(String(format: "confirm %06d", number)) }
        reply(accepts)
    }
}

extension LiveSecuritySuite {
    static let authenticatedSecret = "[\(Array("authenticated secret".utf8).map(String.init).joined(separator: ", "))]"

    /// Reads Charlie's 0CB30003 (needs an authenticated key) with `answers` as the pairing delegate, charlie pairing in `mode`.
    func readAuthenticated(mode: String, answers: PairingAnswers) throws -> (line: String?, directory: URL) {
        let peer = try SecurityPeer.shared()
        try peer.send("pairing \(mode)")
        let directory = Self.stateDirectory()
        var central: LiveCentral? = try Self.central(directory, btsnoop: directory.appendingPathComponent("mitm.btsnoop").path)
        central!.manager.pairingDelegate = answers
        let charlie = try Self.discoverCharlie(central!)
        try Self.connect(central!, charlie)
        let line = try Self.read(central!, charlie, "0003", within: 15)
        Self.disconnect(central!, charlie)
        central = nil
        return (line, directory)
    }

    @Test("Passkey Entry (Secure Connections): the pairing delegate is asked for the passkey charlie shows, the key is authenticated, the read that needs it succeeds")
    func passkeyEntry() throws {
        defer { _ = try? SecurityPeer.shared().send("pairing sc") }
        let answers = PairingAnswers(passkey: 123456)
        let (line, directory) = try readAuthenticated(mode: "passkey", answers: answers)
        #expect(line == "value \(charlieUUID("0003")) \(Self.authenticatedSecret)")
        #expect(answers.asked == ["passkey"])
        let bond = try Self.bond(directory)
        #expect(bond["authenticated"] as? Bool == true && bond["secureConnections"] as? Bool == true)
    }

    @Test("Passkey Entry with a wrong passkey: the confirm values do not match, the app gets CBATTError.insufficientAuthentication, no bond")
    func passkeyEntryWrong() throws {
        defer { _ = try? SecurityPeer.shared().send("pairing sc") }
        let (line, directory) = try readAuthenticated(mode: "passkey", answers: PairingAnswers(passkey: 654321))
        #expect(line == "value \(charlieUUID("0003")) nil error=ATT.5")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("bonds/0C-B0-00-00-00-01/C1-C3-00-00-00-01.json").path))
    }

    @Test("Passkey Entry in legacy pairing: the passkey is the TK; an authenticated legacy bond")
    func passkeyEntryLegacy() throws {
        defer { _ = try? SecurityPeer.shared().send("pairing sc") }
        let answers = PairingAnswers(passkey: 123456)
        let (line, directory) = try readAuthenticated(mode: "passkey-legacy", answers: answers)
        #expect(line == "value \(charlieUUID("0003")) \(Self.authenticatedSecret)")
        #expect(answers.asked == ["passkey"])
        let bond = try Self.bond(directory)
        #expect(bond["authenticated"] as? Bool == true && bond["secureConnections"] as? Bool == false)
    }

    @Test("Numeric Comparison: the delegate gets the six digits charlie shows (g2), says yes, the read succeeds; saying no fails it")
    func numericComparison() throws {
        defer { _ = try? SecurityPeer.shared().send("pairing sc") }
        let answers = PairingAnswers()
        let (line, _) = try readAuthenticated(mode: "numeric", answers: answers)
        #expect(line == "value \(charlieUUID("0003")) \(Self.authenticatedSecret)")
        let shown = try SecurityPeer.shared().send("last-number").split(separator: " ").last.map(String.init) ?? ""
        #expect(answers.asked == ["confirm \(shown)"], "the same number on both sides")
        let refused = try readAuthenticated(mode: "numeric", answers: PairingAnswers(accepts: false))
        #expect(refused.line == "value \(charlieUUID("0003")) nil error=ATT.5")
    }
}

extension LiveSecuritySuite {
    @Test("Signed Write Without Response: bonding gave charlie this host's CSRK; on a later, unencrypted link a write to a characteristic with only Authenticated Signed Writes goes signed, charlie verifies its MAC, the SignCounter grows, also across a restart")
    func signedWrites() throws {
        let peer = try SecurityPeer.shared()
        try peer.send("pairing sc")
        let directory = Self.stateDirectory(), btsnoop = directory.appendingPathComponent("signed.btsnoop").path
        var central: LiveCentral? = try Self.central(directory, btsnoop: btsnoop)
        let charlie = try Self.discoverCharlie(central!)
        try Self.connect(central!, charlie)
        #expect(try Self.read(central!, charlie, "0002") == "value \(charlieUUID("0002")) \(Self.encryptedSecret)")
        Self.disconnect(central!, charlie)
        #expect(try Self.bond(directory)["localSignatureKey"] as? String != nil, "this host gave charlie a CSRK")

        func writeSigned(_ central: LiveCentral, _ peripheral: CBPeripheral, _ text: String) throws {
            let characteristic = try #require(peripheral.characteristic(charlieUUID("0006")))
            #expect(characteristic.properties == [.read, .authenticatedSignedWrites])
            peripheral.writeValue(Data(text.utf8), for: characteristic, type: .withoutResponse)
            #expect(try Self.read(central, peripheral, "0006") == "value \(charlieUUID("0006")) \(Array(text.utf8))")
        }
        try Self.connect(central!, charlie)
        #expect(!charlie.isEncrypted, "a bonded link is not encrypted until something asks")
        try writeSigned(central!, charlie, "signed one")
        try writeSigned(central!, charlie, "signed two")
        Self.disconnect(central!, charlie)
        central = nil

        var second: LiveCentral? = try Self.central(directory, btsnoop: directory.appendingPathComponent("signed2.btsnoop").path)
        let again = try Self.discoverCharlie(second!)
        try Self.connect(second!, again)
        try writeSigned(second!, again, "after a restart")
        Self.disconnect(second!, again)
        second = nil

        let log = try peer.send("signed-log")
        #expect(log.hasSuffix(" 0:ok 1:ok 2:ok"), "charlie verified three signatures, counters 0, 1, 2: \(log)")
        #expect(try Self.bond(directory)["localSignCounter"] as? Int == 3)
        let wire = try SecurityWire(path: btsnoop)
        #expect(wire.smpCodes.contains(0x0A), "Signing Information went both ways (\(wire.smpCodes))")
    }
}

extension LiveSecuritySuite {
    @Test("Passkey Entry with this side showing the passkey (charlie KeyboardOnly, Secure Connections and legacy): the delegate is shown a six-digit passkey, charlie's user types it, the authenticated read succeeds")
    func passkeyDisplayedHere() throws {
        defer { _ = try? SecurityPeer.shared().send("pairing sc") }
        for mode in ["keyboard", "keyboard-legacy"] {
            let peer = try SecurityPeer.shared()
            let answers = PairingAnswers(typed: { passkey in
                // The user reads it here and types it on the peripheral.
                DispatchQueue.global().async { _ = try? peer.send("type-passkey \(passkey)") }
            })
            let (line, directory) = try readAuthenticated(mode: mode, answers: answers)
            #expect(line == "value \(charlieUUID("0003")) \(Self.authenticatedSecret)", "\(mode)")
            #expect(answers.asked == ["display"], "\(mode)")
            let bond = try Self.bond(directory)
            #expect(bond["authenticated"] as? Bool == true && bond["secureConnections"] as? Bool == (mode == "keyboard"), "\(mode)")
        }
    }
}

extension LiveSecuritySuite {
    @Test("a bonded device that rotated while no process listened: a retrieve-and-connect waits at its old address, and the app's scan hearing it at the new one sends the connect there (cancel, then a new create)")
    func connectFollowsARotationHeardLater() throws {
        let peer = try SecurityPeer.shared()
        try peer.send("pairing sc")
        let directory = Self.stateDirectory()
        var first: LiveCentral? = try Self.central(directory, btsnoop: directory.appendingPathComponent("first.btsnoop").path)
        let charlie = try Self.discoverCharlie(first!)
        let identifier = charlie.identifier
        try Self.connect(first!, charlie)
        #expect(try Self.read(first!, charlie, "0002") == "value \(charlieUUID("0002")) \(Self.encryptedSecret)")
        Self.disconnect(first!, charlie)
        first = nil

        let rotated = try peer.send("rotate").split(separator: " ").last.map(String.init) ?? ""
        let btsnoop = directory.appendingPathComponent("second.btsnoop").path
        let second = try Self.central(directory, btsnoop: btsnoop)
        #expect(second.wait { $0.hasPrefix("state ") } == "state poweredOn")
        let known = try #require(second.manager.retrievePeripherals(withIdentifiers: [identifier]).first)
        let mark = second.recorder.log.count
        second.manager.connect(known, options: nil)
        #expect(second.wait(from: mark, within: 1) { $0 == "connect" } == nil, "its old address is silent")
        second.manager.scanForPeripherals(withServices: nil, options: nil)
        #expect(second.wait(from: mark, within: 8) { $0 == "connect" } == "connect", "connected once the scan heard it")
        second.manager.stopScan()
        #expect(central(second, reads: known))
        Self.disconnect(second, known)
        let wire = try SecurityWire(path: btsnoop)
        #expect(wire.connectAddresses.last == rotated && wire.connectAddresses.count >= 2,
                "first the old address, then the new one: \(wire.connectAddresses)")
    }

    /// Discovers Charlie's service and reads 0CB30002 on an already connected peripheral.
    private func central(_ central: LiveCentral, reads peripheral: CBPeripheral) -> Bool {
        guard central.request("services ", { peripheral.discoverServices([CBUUID(string: charlieUUID("0001"))]) }) != nil,
              let service = peripheral.service(charlieUUID("0001")),
              central.request("characteristics ", { peripheral.discoverCharacteristics(nil, for: service) }) != nil,
              let line = try? Self.read(central, peripheral, "0002") else { return false }
        return line == "value \(charlieUUID("0002")) \(Self.encryptedSecret)"
    }
}
