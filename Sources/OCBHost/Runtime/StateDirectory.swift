// Where the project keeps state across processes (bonds, state restoration): one directory, chosen from the environment.

import Foundation

/// The state directory: `$OCB_STATE_DIR`, else `$XDG_STATE_HOME/opencorebluetooth`, else
/// `~/.local/state/opencorebluetooth` (the XDG Base Directory default for state). The key store (``BondStore``) and the
/// CoreBluetooth facade's state restoration keep their files under it.
public enum StateDirectory {
    /// The directory for `environment` (the process's by default).
    public static func root(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let dir = environment["OCB_STATE_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir, isDirectory: true) }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("opencorebluetooth", isDirectory: true)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/state/opencorebluetooth", isDirectory: true)
    }
}
