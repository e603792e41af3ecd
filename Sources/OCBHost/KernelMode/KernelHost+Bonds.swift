// Kernel mode without bluetoothd: the keys the kernel reports after pairing are kept as bonds and loaded back at start.

import Foundation
import OCBCore
import OCBHCI

extension KernelHost {
    /// The most IRKs kept while their LTK has not come (one pairing's worth; more are dropped, oldest first).
    static let pendingKeyLimit = 16

    /// At power-on: when bluetoothd runs it keeps the keys (in /var/lib/bluetooth) and loads them, so this host does
    /// nothing; otherwise it reads its ``BondStore`` for the controller and loads the keys into the kernel (Load Long
    /// Term Keys 0x0013, Load Identity Resolving Keys 0x0030, mgmt-api.txt), so a bond survives a restart of this
    /// process or of the machine. Emits ``HostEvent/bonds(_:)``. A file that cannot be read is a notice naming it.
    func loadKernelBonds(controller: BluetoothAddress) {
        guard !BluetoothDaemon.isRunning() else {
            kernelBonds = nil
            emit(.diagnostic("bluetoothd runs: it keeps the bonds of hci\(controllerIndex) and gives them to the kernel"))
            return
        }
        let store = BondStore(controller: controller, root: stateDirectory)
        kernelBonds = store
        // What bluetoothd would set: pairings bond, use LE Secure Connections, and are Just Works (no agent here).
        for (what, command) in [("NoInputNoOutput", ManagementCommand.setIOCapability(index: controllerIndex, 0x03)),
                                ("bondable", .setBondable(index: controllerIndex, true)),
                                ("Secure Connections", .setSecureConnections(index: controllerIndex, 0x01))] {
            managementCommand(command) { [weak self] result in
                guard case .success((let status, _)) = result, status != .success else { return }
                self?.emit(.diagnostic("the kernel did not set \(what) for hci\(self?.controllerIndex ?? 0) (\(status))"))
            }
        }
        let (bonds, problems) = store.load()
        kernelBondBook = BondBook(bonds)
        for problem in problems { emit(.notice("key store: \(problem)")) }
        emit(.bonds(bonds))
        // Load IRKs even when there are none: it turns on the kernel's private-address resolution, without which it
        // does not ask a peer for its IRK when pairing (HCI_RPA_RESOLVING).
        let irks = bonds.compactMap(Self.managementIdentityKey)
        managementCommand(.loadIdentityResolvingKeys(index: controllerIndex, irks)) { [weak self] result in
            self?.loaded("Identity Resolving Keys", irks.count, result)
        }
        guard !bonds.isEmpty else { return }
        let keys = bonds.compactMap(Self.managementKey)
        managementCommand(.loadLongTermKeys(index: controllerIndex, keys)) { [weak self] result in
            self?.loaded("Long Term Keys", keys.count, result)
        }
    }

    /// The kernel's pairing asks user space to confirm (Just Works and Numeric Comparison, mgmt-api.txt): without
    /// bluetoothd no agent answers, so this host says yes for a link whose security it is raising (it has no display to
    /// compare a number on: NoInputNoOutput, Just Works), and no to a Numeric Comparison (Confirm_Hint 0). Others'
    /// pairings are left alone.
    func userConfirmationRequested(_ address: BluetoothAddress, addressType: UInt8, confirmHint: UInt8) {
        guard kernelBonds != nil, links.values.contains(where: { link($0, isDevice: address) && $0.security.cancelWait != nil }) else { return }
        // Hint 0 is Numeric Comparison: a number to compare, which this host cannot show; yes would claim MITM protection.
        let command: ManagementCommand = confirmHint == 0x01
            ? .userConfirmationReply(index: controllerIndex, address: address, addressType: addressType)
            : .userConfirmationNegativeReply(index: controllerIndex, address: address, addressType: addressType)
        managementCommand(command) { [weak self] result in
            if case .success((let status, _)) = result, status != .success {
                self?.emit(.notice("the kernel refused the confirmation of pairing with \(address) (\(status))"))
            }
        }
    }

    private func loaded(_ what: String, _ count: Int, _ result: Result<(ManagementStatus, [UInt8]), HostError>) {
        switch result {
        case .success((.success, _)):
            emit(.diagnostic("loaded \(count) bond\(count == 1 ? "" : "s")' \(what) into the kernel for hci\(controllerIndex)"))
        case .success((let status, _)):
            emit(.notice("the kernel refused the bonds' \(what) (\(status)): bonded devices pair again; loading keys needs CAP_NET_ADMIN"))
        case .failure(let error):
            emit(.notice("the bonds' \(what) could not be loaded into the kernel (\(error)): bonded devices pair again"))
        }
    }

    /// A key the kernel reported (New Long Term Key 0x000A, New Identity Resolving Key 0x0018). Kept only with the
    /// store hint set (the pairing bonded) and only when this host keeps the bonds (no bluetoothd).
    func kernelKeyReported(longTermKey key: ManagementLongTermKey? = nil, identityResolvingKey irk: ManagementIdentityResolvingKey? = nil,
                           randomAddress: BluetoothAddress? = nil, storeHint: Bool) {
        guard storeHint, let store = kernelBonds else { return }
        if let irk {
            if pendingIdentityKeys.count >= Self.pendingKeyLimit { pendingIdentityKeys.removeAll(); pairedOver.removeAll() }
            pendingIdentityKeys[irk.address] = irk
            if let randomAddress, randomAddress.randomSubtype == .resolvablePrivate { pairedOver[irk.address] = randomAddress }
            guard var bond = try? store.bond(of: irk.address) else { return }  // the LTK comes next and takes it
            bond.identityResolvingKey = Hex.string(irk.value.reversed())
            save(bond, in: store)
            return
        }
        // A legacy key this side distributed (Master 0) is of no use to a central; Secure Connections keys are both sides'.
        guard let key, key.isSecureConnections || key.initiator == 1 else { return }
        let irk = pendingIdentityKeys.removeValue(forKey: key.address)
        let paired = pairedOver[key.address]
        let signing = pendingSigningKeys.removeValue(forKey: key.address)
        let randBytes = (0..<8).map { UInt8(truncatingIfNeeded: key.rand >> (8 * (7 - UInt64($0)))) }
        var bond = Bond(peer: key.address.description, peerAddressType: key.addressType == 0x01 ? "public" : "random",
                        longTermKey: Hex.string(key.value.reversed()), ediv: key.ediv, rand: Hex.string(randBytes),
                        keySize: Int(key.encryptionSize), authenticated: key.isAuthenticated,
                        secureConnections: key.isSecureConnections,
                        identityResolvingKey: (irk?.value.reversed()).map { Hex.string($0) } ?? (try? store.bond(of: key.address))?.identityResolvingKey,
                        created: ISO8601DateFormatter().string(from: Date()),
                        pairedAddress: (try? store.bond(of: key.address))??.pairedAddress ?? paired?.description)
        if let signing {
            bond.localSignatureKey = Hex.string(signing.reversed())
            bond.localSignCounter = 0
        }
        save(bond, in: store)
        pairedOver[key.address] = nil
    }

    /// This side's CSRK the kernel distributed in pairing (New Signature Resolving Key, local): kept with the bond (made
    /// by the LTK that follows, or already there) to sign this host's writes; at most ``pendingKeyLimit`` wait.
    func kernelSigningKeyReported(_ address: BluetoothAddress, value: [UInt8], storeHint: Bool) {
        guard storeHint, let store = kernelBonds, value.count == 16 else { return }
        if var bond = try? store.bond(of: address) {
            bond.localSignatureKey = Hex.string(value.reversed())
            bond.localSignCounter = 0
            return save(bond, in: store)
        }
        if pendingSigningKeys.count >= Self.pendingKeyLimit { pendingSigningKeys.removeAll() }
        pendingSigningKeys[address] = value
    }

    /// Gives the link's GATT client a signer when this host keeps a bond with this side's CSRK (signed writes on a link
    /// that is not encrypted, Vol 3 Part G §4.9.2); each signature takes the bond's next SignCounter, saved first.
    func attachKernelSigner(_ handle: ConnectionHandle) {
        guard kernelBonds != nil, let link = links[handle], let bond = kernelBondBook.bond(for: link.info.peer.address),
              bond.localSignatureKey != nil else { return }
        let identity = bond.peer
        link.att.client.signer = { [weak self] message in self?.kernelSign(message, identity: identity) ?? [] }
    }

    private func kernelSign(_ message: [UInt8], identity: String) -> [UInt8] {
        guard let store = kernelBonds, let address = BluetoothAddress(identity),
              let (signature, bond) = kernelBondBook.bonds[address]?.signing(message) else { return [] }
        kernelBondBook.update(bond)
        do throws(BondStoreError) { try store.save(bond) } catch {
            emit(.notice("key store: \(error); the signed write is not sent (its counter could not be kept)"))
            return []
        }
        return signature
    }

    private func save(_ bond: Bond, in store: BondStore) {
        do throws(BondStoreError) {
            try store.save(bond)
            emit(.diagnostic("kept the kernel's keys of \(bond.peer) (\(BluetoothAddress(bond.peer).map { store.path(of: $0) } ?? ""))"))
            emit(.bonds(store.load().bonds))
            kernelBondBook.add(bond)
            if let address = BluetoothAddress(bond.peer) { keysKept(for: address) }
        } catch {
            emit(.notice("key store: \(error); the kernel keeps the key until the controller restarts"))
        }
    }

    /// A bond's LTK as Load Long Term Keys takes it; nil for a malformed bond.
    static func managementKey(_ bond: Bond) -> ManagementLongTermKey? {
        guard let address = BluetoothAddress(bond.peer), let value = Hex.bytes(bond.longTermKey), let rand = Hex.bytes(bond.rand) else { return nil }
        let type: UInt8 = bond.secureConnections ? (bond.authenticated ? 0x03 : 0x02) : (bond.authenticated ? 0x01 : 0x00)
        return ManagementLongTermKey(address: address, addressType: bond.peerAddressType == "public" ? 0x01 : 0x02, keyType: type,
                                     initiator: bond.secureConnections ? 0 : 1, encryptionSize: UInt8(clamping: bond.keySize),
                                     ediv: bond.ediv, rand: rand.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }, value: value.reversed())
    }

    /// A bond's IRK as Load Identity Resolving Keys takes it; nil without one.
    static func managementIdentityKey(_ bond: Bond) -> ManagementIdentityResolvingKey? {
        guard let address = BluetoothAddress(bond.peer), let text = bond.identityResolvingKey, let value = Hex.bytes(text) else { return nil }
        return ManagementIdentityResolvingKey(address: address, addressType: bond.peerAddressType == "public" ? 0x01 : 0x02, value: value.reversed())
    }
}

/// Whether BlueZ's daemon runs on this machine (it then owns pairing agents and the bonds in /var/lib/bluetooth).
enum BluetoothDaemon {
    /// True when a process named `bluetoothd` is in /proc (its `comm`); `$OCB_BLUETOOTHD` "0" or "1" overrides, for tests.
    static func isRunning(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if let forced = environment["OCB_BLUETOOTHD"], forced == "0" || forced == "1" { return forced == "1" }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries where entry.first?.isNumber == true {
            guard let comm = try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8) else { continue }
            if comm.trimmingCharacters(in: .whitespacesAndNewlines) == "bluetoothd" { return true }
        }
        return false
    }
}
