// The kernel's key events and key-loading commands (doc/mgmt-api.txt), and a bond turned into the key the kernel takes.
import OCBCore
@testable import OCBHost
import Testing

@Suite struct ManagementKeyTests {
    static let peer = BluetoothAddress(value: 0xC0FF_EE00_0001)
    /// The f5 sample LTK of Core v5.4 Vol 3 Part H Appendix D.3, most significant octet first.
    static let ltk: [UInt8] = [0x69, 0x86, 0x79, 0x11, 0x69, 0xD7, 0xCD, 0x23, 0x98, 0x05, 0x22, 0xB5, 0x94, 0x75, 0x0A, 0x38]

    @Test("New Long Term Key: store hint, address (LSB first), LE Random, unauthenticated P-256, Master 0, 16 octets, EDIV/Rand 0, the key")
    func newLongTermKey() throws {
        let body: [UInt8] = [0x01, 0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0, 0x02, 0x02, 0x00, 0x10, 0x00, 0x00] + [UInt8](repeating: 0, count: 8)
            + Self.ltk.reversed()
        let event = try ManagementEvent(bytes: [0x0A, 0x00, 0x00, 0x00, UInt8(body.count), 0x00] + body)
        let key = ManagementLongTermKey(address: Self.peer, addressType: 0x02, keyType: 0x02, initiator: 0, encryptionSize: 16,
                                        ediv: 0, rand: 0, value: Self.ltk.reversed())
        #expect(event == ManagementEvent(index: 0, kind: .newLongTermKey(storeHint: true, key)))
        #expect(key.isSecureConnections && !key.isAuthenticated)
        #expect(body.count == 37, "Store_Hint (1) and the 36-byte key")
    }

    @Test("Authentication Failed and New Identity Resolving Key decode; a key cut short names the event")
    func otherKeyEvents() throws {
        #expect(try ManagementEvent(bytes: [0x11, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0, 0x02, 0x05]).kind
                == .authenticationFailed(Self.peer, addressType: 0x02, status: ManagementStatus(rawValue: 0x05)))
        let irk: [UInt8] = [0xEC, 0x02, 0x34, 0xA3, 0x57, 0xC8, 0xAD, 0x05, 0x34, 0x10, 0x10, 0xA6, 0x0A, 0x39, 0x7D, 0x9B]
        let body: [UInt8] = [0x01, 0xAA, 0xFB, 0x0D, 0x94, 0x81, 0x70, 0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0, 0x02] + irk.reversed()
        let event = try ManagementEvent(bytes: [0x18, 0x00, 0x00, 0x00, UInt8(body.count), 0x00] + body)
        #expect(event.kind == .newIdentityResolvingKey(storeHint: true, randomAddress: BluetoothAddress(value: 0x7081_940D_FBAA),
                                                       ManagementIdentityResolvingKey(address: Self.peer, addressType: 0x02, value: irk.reversed())))
        #expect(throws: ManagementEventError.self) { try ManagementEvent(bytes: [0x0A, 0x00, 0x00, 0x00, 0x05, 0x00, 0x01, 0x01, 0x00, 0x00, 0xEE]) }
    }

    @Test("a Secure Connections bond becomes Load Long Term Keys with type 0x02, Master 0; a legacy one with its EDIV and Rand, Master 1")
    func bondToLoadCommand() throws {
        let sc = Bond(peer: "C0:FF:EE:00:00:01", peerAddressType: "random", longTermKey: Hex.string(Self.ltk), authenticated: false,
                      secureConnections: true, identityResolvingKey: "ec0234a357c8ad05341010a60a397d9b", created: "2026-12-02T00:00:00Z")
        let legacy = Bond(peer: "00:1B:DC:00:00:02", peerAddressType: "public", longTermKey: Hex.string(Self.ltk), ediv: 0x1234,
                          rand: "0102030405060708", keySize: 16, authenticated: true, secureConnections: false, created: "2026-12-02T00:00:00Z")
        let keys = [try #require(KernelHost.managementKey(sc)), try #require(KernelHost.managementKey(legacy))]
        let command = ManagementCommand.loadLongTermKeys(index: 0, keys)
        #expect(command.bytes.prefix(8) == [0x13, 0x00, 0x00, 0x00, 74, 0x00, 0x02, 0x00], "opcode, index 0, 2 + 2 × 36 bytes, Key_Count 2")
        let first = Array(command.bytes[8..<44]), second = Array(command.bytes[44..<80])
        #expect(first == [0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0, 0x02, 0x02, 0x00, 0x10, 0x00, 0x00] + [UInt8](repeating: 0, count: 8) + Self.ltk.reversed())
        #expect(second == [0x02, 0x00, 0x00, 0xDC, 0x1B, 0x00, 0x01, 0x01, 0x01, 0x10, 0x34, 0x12, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01]
                + Self.ltk.reversed(), "LE Public, authenticated legacy, Master 1, EDIV 0x1234 and Rand 0x0102030405060708 little-endian")
        let irks = ManagementCommand.loadIdentityResolvingKeys(index: 0, [try #require(KernelHost.managementIdentityKey(sc))])
        #expect(irks.bytes == [0x30, 0x00, 0x00, 0x00, 25, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0, 0x02]
                + [0x9B, 0x7D, 0x39, 0x0A, 0xA6, 0x10, 0x10, 0x34, 0x05, 0xAD, 0xC8, 0x57, 0xA3, 0x34, 0x02, 0xEC])
        #expect(KernelHost.managementIdentityKey(legacy) == nil)
    }

    @Test("bluetoothd is looked for in /proc; OCB_BLUETOOTHD overrides")
    func bluetoothDaemon() {
        #expect(BluetoothDaemon.isRunning(environment: ["OCB_BLUETOOTHD": "1"]))
        #expect(!BluetoothDaemon.isRunning(environment: ["OCB_BLUETOOTHD": "0"]))
        #expect(!BluetoothDaemon.isRunning(environment: [:]), "this machine runs no bluetoothd")
    }
}
