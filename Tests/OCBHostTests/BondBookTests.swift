// The bonds in memory: a resolvable private address resolved with a bond's IRK, the address a device is known by, connects.
import OCBCore
@testable import OCBHost
import OCBSMP
import Testing

@Suite("bond book")
struct BondBookTests {
    /// The IRK of Core v5.4 Vol 3 Part H Appendix D.7; prand 0x708194 gives hash 0x0DFBAA, so 70:81:94:0D:FB:AA is a
    /// resolvable private address of this IRK.
    static let irk = "ec0234a357c8ad05341010a60a397d9b"
    static let rpa = PeerAddress(BluetoothAddress(value: 0x7081_940D_FBAA), type: .random)
    static let identity = BluetoothAddress(value: 0xC1C3_0000_0001)

    func bond(pairedAddress: String? = nil, irk: String? = BondBookTests.irk) -> Bond {
        Bond(peer: Self.identity.description, peerAddressType: "random", longTermKey: "69867911" + "69d7cd23" + "980522b5" + "94750a38",
             authenticated: false, secureConnections: true, identityResolvingKey: irk, created: "2026-12-02T00:00:00Z",
             pairedAddress: pairedAddress)
    }

    @Test("the Appendix D.7 address resolves to the bond's identity; one bit off does not; a static address is never resolved")
    func resolution() {
        var book = BondBook([bond()])
        #expect(book.identity(of: Self.rpa.address) == Self.identity)
        #expect(book.bond(for: Self.rpa.address)?.peer == "C1:C3:00:00:00:01")
        #expect(book.identity(of: BluetoothAddress(value: 0x7081_940D_FBAB)) == nil, "a hash that does not match")
        #expect(book.identity(of: BluetoothAddress(value: 0xF081_940D_FBAA)) == nil, "top bits 0b11: a static address")
        #expect(book.bond(for: Self.identity) != nil, "the identity address itself")
    }

    @Test("a device that paired over a private address is known by it: discoveries from any of its addresses, connects to the newest")
    func knownAddressAndConnects() {
        var book = BondBook([bond(pairedAddress: "40:00:00:00:00:01")])
        #expect(book.knownPeer(for: Self.rpa) == PeerAddress(BluetoothAddress(value: 0x4000_0000_0001), type: .random))
        #expect(book.airAddress(for: PeerAddress(BluetoothAddress(value: 0x4000_0000_0001), type: .random)) == Self.rpa,
                "a connect goes to where the device was last heard, not to the address it paired over")
        #expect(book.airAddress(for: PeerAddress(Self.identity, type: .random)) == Self.rpa)
        let stranger = PeerAddress(BluetoothAddress(value: 0xC0FF_EE00_0001), type: .random)
        #expect(book.knownPeer(for: stranger) == nil && book.airAddress(for: stranger) == stranger)
    }

    @Test("a device bonded over its identity address is known by it; without any IRK nothing is resolved")
    func identityKnownAndNoIRK() {
        var book = BondBook([bond()])
        #expect(book.knownPeer(for: Self.rpa) == PeerAddress(Self.identity, type: .random))
        var withoutIRK = BondBook([bond(irk: nil)])
        #expect(!withoutIRK.resolves && withoutIRK.knownPeer(for: Self.rpa) == nil)
        book.remove(Self.identity)
        #expect(!book.resolves && book.knownPeer(for: Self.rpa) == nil)
    }

    @Test("the resolution cache is bounded: a flood of private addresses keeps at most its capacity")
    func boundedCache() {
        var book = BondBook([bond()])
        for index in 0..<(BondBook.resolvedCapacity + 10) {
            _ = book.identity(of: BluetoothAddress(value: 0x4000_0000_0000 | UInt64(index)))
        }
        #expect(book.resolvedCount <= BondBook.resolvedCapacity)
        #expect(book.identity(of: Self.rpa.address) == Self.identity, "still resolves after the cache was emptied")
    }
}

@Suite("identity addresses")
struct IdentityAddressTests {
    @Test("public and random static addresses are identities; resolvable, non-resolvable, all-zero and all-one random parts are not (Core v5.4 Vol 6 Part B §1.3)")
    func identities() {
        func random(_ value: UInt64) -> SMPAddressProbe { SMPAddressProbe(isRandom: true, value: value) }
        #expect(HostController.isIdentityAddress(.init(isRandom: false, address: BluetoothAddress(value: 0x001B_DC00_0002))))
        #expect(!HostController.isIdentityAddress(.init(isRandom: false, address: .zero)))
        #expect(HostController.isIdentityAddress(random(0xC1C3_0000_0001).address))
        #expect(!HostController.isIdentityAddress(random(0x7081_940D_FBAA).address), "resolvable private (0b01)")
        #expect(!HostController.isIdentityAddress(random(0x0000_0000_0001).address), "non-resolvable private (0b00)")
        #expect(!HostController.isIdentityAddress(random(0xC000_0000_0000).address), "static with an all-zero random part")
        #expect(!HostController.isIdentityAddress(random(0xFFFF_FFFF_FFFF).address), "static with an all-one random part")
    }
}

/// A random address by value, as SMP takes it.
struct SMPAddressProbe {
    let address: SMPAddress
    init(isRandom: Bool, value: UInt64) { address = SMPAddress(isRandom: isRandom, address: BluetoothAddress(value: value)) }
}
