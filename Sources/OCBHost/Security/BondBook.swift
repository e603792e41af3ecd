// The bonds of the running host in memory: looked up by identity address or by a resolvable private address.

import OCBCore
import OCBSMP

/// The host's bonds (loaded from its ``BondStore`` at power-on) and the resolution of resolvable private addresses
/// with their IRKs (Core v5.4 Vol 6 Part B §1.3.2.3, Vol 3 Part H §2.2.2).
///
/// Bounds: one entry per bond file; the resolution cache holds at most ``resolvedCapacity`` addresses (an RPA lives
/// about 15 minutes; the cache is emptied when full), so a flood of random addresses costs at most one ah per
/// address per IRK and bounded memory. Used on the host's queue only.
struct BondBook {
    /// Bonds by identity address.
    private(set) var bonds: [BluetoothAddress: Bond] = [:]
    /// Resolvable private addresses seen, and the identity each resolved to (nil: none of the IRKs).
    private var resolved: [BluetoothAddress: BluetoothAddress?] = [:]
    /// The most addresses kept in the resolution cache.
    static let resolvedCapacity = 4_096
    /// The resolvable private address each bonded identity was last heard from (one per bond): where a connect goes.
    private var lastPrivateAddress: [BluetoothAddress: BluetoothAddress] = [:]

    /// How many addresses the resolution cache holds (at most ``resolvedCapacity``).
    var resolvedCount: Int { resolved.count }

    /// Bonds whose ``Bond/lastAddress`` changed since ``takeMovedBonds()`` (one per bond at most): to be written.
    private var movedBonds: [BluetoothAddress: Bond] = [:]

    /// The bonds heard from a new private address since the last call, to be saved.
    mutating func takeMovedBonds() -> [Bond] {
        defer { movedBonds.removeAll() }
        return Array(movedBonds.values)
    }

    /// True when some bond has an IRK, so resolvable private addresses are worth resolving.
    private(set) var resolves = false

    /// A book of `bonds` (later ones replace earlier ones with the same identity).
    init(_ bonds: [Bond] = []) {
        for bond in bonds { add(bond) }
    }

    /// Adds or replaces a bond; the resolution cache is emptied (a new IRK may resolve addresses seen before).
    mutating func add(_ bond: Bond) {
        guard let identity = BluetoothAddress(bond.peer) else { return }
        bonds[identity] = bond
        if let last = bond.lastAddress.flatMap(BluetoothAddress.init) { lastPrivateAddress[identity] = last }
        resolved.removeAll()
        resolves = bonds.values.contains { $0.identityResolvingKey != nil }
    }

    /// Replaces a bond with a changed copy of itself (its counter, its last address) without emptying the resolution
    /// cache: the IRK did not change.
    mutating func update(_ bond: Bond) {
        guard let identity = BluetoothAddress(bond.peer), bonds[identity] != nil else { return }
        bonds[identity] = bond
    }

    /// Forgets the bond of `identity`.
    mutating func remove(_ identity: BluetoothAddress) {
        bonds[identity] = nil
        lastPrivateAddress[identity] = nil
        resolved.removeAll()
        resolves = bonds.values.contains { $0.identityResolvingKey != nil }
    }

    /// The address the host reports the device at `peer` by: for a resolvable private address a bond's IRK resolves,
    /// the bond's ``Bond/knownAddress`` (and the address is remembered as where the device is now); nil for any
    /// other address (it is reported as it is).
    mutating func knownPeer(for peer: PeerAddress) -> PeerAddress? {
        guard resolves, peer.type == .random, let identity = identity(of: peer.address), let bond = bonds[identity],
              let known = BluetoothAddress(bond.knownAddress.address) else { return nil }
        lastPrivateAddress[identity] = peer.address
        if bond.lastAddress != peer.address.description {
            // Not in the bond yet: to be written (the bond is updated once it is, ``update(_:)``).
            var moved = bond
            moved.lastAddress = peer.address.description
            movedBonds[identity] = moved
        }
        return PeerAddress(known, type: bond.knownAddress.isRandom ? .random : .public)
    }

    /// Where a connect to `peer` goes: for a bonded device (known by `peer`, or `peer` one of its addresses), the
    /// resolvable private address it was last heard from; else `peer` itself.
    mutating func airAddress(for peer: PeerAddress) -> PeerAddress {
        guard resolves else { return peer }
        guard let identity = bondIdentity(peer.address), let current = lastPrivateAddress[identity] else { return peer }
        return PeerAddress(current, type: .random)
    }

    /// The bond of the device at `address`: its identity address, or a resolvable private address one of the bonds'
    /// IRKs resolves (the result cached).
    mutating func bond(for address: BluetoothAddress) -> Bond? {
        guard let identity = bondIdentity(address) else { return nil }
        return bonds[identity]
    }

    /// The identity of the bond for `address`: its identity address, the address it paired over, or a resolvable
    /// private address one of the IRKs resolves.
    private mutating func bondIdentity(_ address: BluetoothAddress) -> BluetoothAddress? {
        if bonds[address] != nil { return address }
        let text = address.description
        if let paired = bonds.first(where: { $0.value.pairedAddress == text })?.key { return paired }
        return identity(of: address)
    }

    /// The identity address a resolvable private address resolves to with a bond's IRK; nil for other addresses and
    /// for addresses no IRK resolves.
    mutating func identity(of address: BluetoothAddress) -> BluetoothAddress? {
        guard resolves, address.randomSubtype == .resolvablePrivate else { return nil }
        if let cached = resolved[address] { return cached }
        var found: BluetoothAddress?
        for (identity, bond) in bonds {
            guard let irkText = bond.identityResolvingKey, let irk = Hex.bytes(irkText) else { continue }
            if (try? ResolvablePrivateAddress.resolves(address, irk: irk)) == true {
                found = identity
                break
            }
        }
        if resolved.count >= Self.resolvedCapacity { resolved.removeAll() }
        resolved[address] = found
        return found
    }
}
