// `cbtool bonds [remove ADDRESS]`: the bonds kept in the state directory, one per line, or the removal of one.

import OCBCore
import OCBToolKit
import OCBHost

/// `cbtool bonds` and `cbtool bonds remove ADDRESS`.
///
/// Lists every bond under the state directory (`$OCB_STATE_DIR`, else `$XDG_STATE_HOME/opencorebluetooth`, else
/// `~/.local/state/opencorebluetooth`): `0C:B0:00:00:00:01 C1:C3:00:00:00:01 (random) LE Secure Connections,
/// unauthenticated, 16-octet key, IRK, created 2026-12-02T06:00:15Z /path/C1-C3-00-00-00-01.json`. JSON:
/// `{"type":"bond","controller":…,"peer":…,"peerAddressType":…,"secureConnections":…,"authenticated":…,"keySize":…,
/// "identityResolvingKey":true|false,"signatureKey":true|false,"pairedAddress":…|null,"created":…,"path":…}`; keys are
/// never printed. A file that is not a bond is an error line naming it (exit 1, the other bonds listed). `remove
/// ADDRESS` deletes the device's bond (by identity address or the address it paired over) from every controller's
/// store; a process already running keeps it until it restarts. No such bond: exit 1.
enum BondsCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        let directory = BondDirectory()
        switch invocation.operands.first {
        case nil:
            try list(directory, output: output)
        case "remove":
            guard invocation.operands.count == 2, let address = BluetoothAddress(invocation.operand(1)) else {
                throw .usage("bonds remove needs a device address like C1:C3:00:00:00:01", usage: "usage: " + invocation.command.usage)
            }
            let removed: [String]
            do { removed = try directory.remove(address) } catch { throw .failure("\(error)") }
            guard !removed.isEmpty else { throw .failure("no bond with \(address) under \(directory.root.path)/bonds") }
            for path in removed {
                output.emit("removed the bond of \(address): \(path)", json: ["type": "removed", "peer": .string(address.description), "path": .string(path)])
            }
        case let other?:
            throw .usage("unexpected argument \"\(other)\" for bonds (only \"remove ADDRESS\")", usage: "usage: " + invocation.command.usage)
        }
    }

    private static func list(_ directory: BondDirectory, output: OutputSink) throws(ToolError) {
        var problems: [BondStoreError] = []
        var count = 0
        for controller in directory.controllers {
            let store = directory.store(controller)
            let (bonds, found) = store.load()
            problems += found
            for bond in bonds {
                count += 1
                let path = BluetoothAddress(bond.peer).map { store.path(of: $0) } ?? store.directory.path
                let kind = [bond.secureConnections ? "LE Secure Connections" : "legacy pairing",
                            bond.authenticated ? "authenticated" : "unauthenticated", "\(bond.keySize)-octet key"]
                    + (bond.identityResolvingKey == nil ? [] : ["IRK"]) + (bond.signatureKey == nil ? [] : ["CSRK"])
                    + (bond.pairedAddress.map { ["paired over \($0)"] } ?? [])
                output.emit("\(controller) \(bond.peer) (\(bond.peerAddressType)) \(kind.joined(separator: ", ")), created \(bond.created) \(path)",
                            json: ["type": "bond", "controller": .string(controller.description), "peer": .string(bond.peer),
                                   "peerAddressType": .string(bond.peerAddressType), "secureConnections": .bool(bond.secureConnections),
                                   "authenticated": .bool(bond.authenticated), "keySize": .integer(bond.keySize),
                                   "identityResolvingKey": .bool(bond.identityResolvingKey != nil), "signatureKey": .bool(bond.signatureKey != nil),
                                   "pairedAddress": bond.pairedAddress.map { .string($0) } ?? .null, "created": .string(bond.created),
                                   "path": .string(path)])
            }
        }
        if count == 0 && problems.isEmpty { output.note("no bonds under \(directory.root.path)/bonds") }
        guard problems.isEmpty else {
            throw .failure(problems.map(\.description).joined(separator: "; "))
        }
    }
}
