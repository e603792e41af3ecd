// The state file that carries a central manager's peripherals and scan across processes (state restoration).
internal import OCBCore
internal import OCBHost
import Foundation

/// What a manager with a restore identifier keeps on disk, as JSON.
///
/// Shape: `{"peripherals":[{"identifier":"UUID","address":"AA:BB:CC:DD:EE:FF","addressType":1,"name":"x"}],
/// "scanServices":["180D"],"isScanning":true,"allowDuplicates":false,"solicitedServices":["1812"]}`.
struct RestorationRecord: Codable, Equatable {
    /// A connected or pending peripheral.
    struct Peripheral: Codable, Equatable {
        var identifier: UUID
        var address: BluetoothAddress
        var addressType: UInt8
        var name: String?
    }
    var peripherals: [Peripheral] = []
    var isScanning = false
    var scanServices: [BluetoothUUID]?
    var allowDuplicates: Bool?
    var solicitedServices: [BluetoothUUID]?
}

/// Reads and writes ``RestorationRecord`` files.
///
/// Location: `$OCB_STATE_DIR/<identifier>.json`, else `$XDG_STATE_HOME/opencorebluetooth/<identifier>.json`,
/// else `~/.local/state/opencorebluetooth/<identifier>.json`. The identifier is app text: characters other than
/// letters, digits, `.`, `-`, `_` become `_` so it cannot leave the directory.
struct RestorationStore: Sendable {
    /// The file.
    let url: URL

    /// The store for `identifier` under `directory`.
    init(identifier: String, directory: URL) {
        let safe = String(identifier.unicodeScalars.map { scalar -> Character in
            let allowed = (scalar.properties.isAlphabetic && scalar.isASCII) || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar)
            return allowed ? Character(scalar) : "_"
        })
        let name = safe.isEmpty || safe.hasPrefix(".") ? "_" + safe : safe
        url = directory.appendingPathComponent(name + ".json")
    }

    /// The default directory from the environment (see the type's note).
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StateDirectory.root(environment: environment)
    }

    /// The saved record; nil when there is none or it is unreadable (a corrupt file is ignored, with a warning).
    func load() -> RestorationRecord? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        do {
            return try JSONDecoder().decode(RestorationRecord.self, from: data)
        } catch {
            Diagnostics.warning("ignoring unreadable restoration state \(url.path): \(error)")
            return nil
        }
    }

    /// Saves the record atomically; failures are logged, not thrown (restoration is best effort).
    func save(_ record: RestorationRecord) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try encoder.encode(record).write(to: url, options: .atomic)
        } catch {
            Diagnostics.warning("cannot save restoration state \(url.path): \(error)")
        }
    }
}
