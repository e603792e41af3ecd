// Every controller's key store under one state directory: what `cbtool bonds` lists and removes from.

import Foundation
import OCBCore

/// The `bonds` directory of a state directory: one ``BondStore`` per local controller (Core v5.4 Vol 3 Part H §3.6).
public struct BondDirectory: Sendable {
    /// The state directory (``StateDirectory/root(environment:)`` when made with nil).
    public let root: URL

    /// The bonds under `root` (the environment's state directory when nil).
    public init(root: URL? = nil) {
        self.root = root ?? StateDirectory.root()
    }

    /// The controllers that have a key store here, in address order (directories whose name is no address are skipped).
    public var controllers: [BluetoothAddress] {
        let bonds = root.appendingPathComponent("bonds", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: bonds.path)) ?? []
        return names.compactMap { BluetoothAddress($0.replacingOccurrences(of: "-", with: ":")) }.sorted { $0.value < $1.value }
    }

    /// The key store of `controller`.
    public func store(_ controller: BluetoothAddress) -> BondStore {
        BondStore(controller: controller, root: root)
    }

    /// Removes the bond of the device known as `address` (its identity address, or the private address it paired
    /// over, ``Bond/knownAddress``) from every controller's store; the files removed. A running host keeps the bond in
    /// memory until it restarts. Throws ``BondStoreError`` when a file cannot be removed; corrupt files of other peers
    /// are left alone.
    public func remove(_ address: BluetoothAddress) throws(BondStoreError) -> [String] {
        var removed: [String] = []
        for controller in controllers {
            let store = store(controller)
            // The file named by the address goes even when it does not read as a bond (a corrupt one is removed too).
            if try store.remove(address) { removed.append(store.path(of: address)) }
            for bond in store.load().bonds where bond.peer == address.description || bond.pairedAddress == address.description {
                guard let identity = BluetoothAddress(bond.peer) else { continue }
                if try store.remove(identity) { removed.append(store.path(of: identity)) }
            }
        }
        return removed
    }
}
