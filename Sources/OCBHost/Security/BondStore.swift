// The key store: one file per bonded peer under a directory per local controller, written atomically with mode 0600.

import Foundation
import Glibc
import OCBCore

/// Why the key store could not read or write a bond; each names the file.
public enum BondStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file exists but cannot be read (permissions, I/O): the path and the system's reason.
    case unreadable(path: String, reason: String)
    /// The file is not a bond (not JSON of ``Bond``, or a field is malformed): the path and what is wrong.
    case corrupt(path: String, reason: String)
    /// The bond could not be written or removed: the path and the system's reason.
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "cannot read the bond \(path): \(reason)"
        case let .corrupt(path, reason): "the bond \(path) is corrupt (\(reason)): remove it and pair again"
        case let .writeFailed(path, reason): "cannot write the bond \(path): \(reason)"
        }
    }
}

/// The bonds of one local controller (Core v5.4 Vol 3 Part H §3.6: the keys a bond keeps).
///
/// Location: `DIRECTORY/bonds/CONTROLLER/PEER.json`, DIRECTORY the ``StateDirectory`` (`$OCB_STATE_DIR`, else
/// `$XDG_STATE_HOME/opencorebluetooth`, else `~/.local/state/opencorebluetooth`, as the restoration state);
/// CONTROLLER and PEER are addresses with `-` for `:` ("0C-B0-00-00-00-01"). Directories are made mode 0700, files
/// 0600 (keys are secrets). A bond is written to a temporary file in the same directory, flushed, then renamed over
/// the old one, so a crash leaves the old bond or the new one, never half of one. One file per peer: a corrupt or
/// unreadable file is reported with its path and never hides the other bonds. Bound: one file per bonded peer.
public struct BondStore: Sendable {
    /// The directory of this controller's bonds.
    public let directory: URL

    /// The store of `controller`'s bonds under `root` (``StateDirectory/root(environment:)`` when nil).
    public init(controller: BluetoothAddress, root: URL? = nil) {
        directory = (root ?? StateDirectory.root()).appendingPathComponent("bonds", isDirectory: true)
            .appendingPathComponent(Self.fileName(controller), isDirectory: true)
    }

    private static func fileName(_ address: BluetoothAddress) -> String {
        address.description.replacingOccurrences(of: ":", with: "-")
    }

    /// The file of `peer`'s bond.
    public func path(of peer: BluetoothAddress) -> String {
        directory.appendingPathComponent(Self.fileName(peer) + ".json").path
    }

    /// Every bond that reads well, in file-name order, and a problem for each file that does not (a missing
    /// directory is no bond and no problem).
    public func load() -> (bonds: [Bond], problems: [BondStoreError]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return ([], []) }
        var bonds: [Bond] = [], problems: [BondStoreError] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = directory.appendingPathComponent(name).path
            switch Self.read(path) {
            case .success(let bond): bonds.append(bond)
            case .failure(let problem): problems.append(problem)
            }
        }
        return (bonds, problems)
    }

    /// `peer`'s bond; nil when there is none. Throws ``BondStoreError`` for an unreadable or corrupt file.
    public func bond(of peer: BluetoothAddress) throws(BondStoreError) -> Bond? {
        let path = path(of: peer)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try Self.read(path).get()
    }

    private static func read(_ path: String) -> Result<Bond, BondStoreError> {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            return .failure(.unreadable(path: path, reason: (error as NSError).localizedDescription))
        }
        let bond: Bond
        do { bond = try JSONDecoder().decode(Bond.self, from: data) } catch {
            return .failure(.corrupt(path: path, reason: "not a bond's JSON"))
        }
        if let problem = bond.problem { return .failure(.corrupt(path: path, reason: problem)) }
        return .success(bond)
    }

    /// Writes `bond` (replacing the peer's old one) atomically, mode 0600. Throws ``BondStoreError/writeFailed(path:reason:)``
    /// (also for a malformed bond, which is never written).
    public func save(_ bond: Bond) throws(BondStoreError) {
        guard let peer = BluetoothAddress(bond.peer) else { throw .writeFailed(path: directory.path, reason: "peer \"\(bond.peer)\" is not an address") }
        let path = path(of: peer)
        if let problem = bond.problem { throw .writeFailed(path: path, reason: problem) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .writeFailed(path: path, reason: (error as NSError).localizedDescription)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let bytes: [UInt8]
        do { bytes = [UInt8](try encoder.encode(bond)) } catch { throw .writeFailed(path: path, reason: "cannot encode") }
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw .writeFailed(path: path, reason: reason)
            }
            written += count
        }
        let synced = fsync(descriptor) == 0
        let syncError = errno
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(synced ? errno : syncError))
            unlink(temporary)
            throw .writeFailed(path: path, reason: reason)
        }
        // The rename itself made durable (a SignCounter that came back smaller after a power loss would be reused).
        let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Removes `peer`'s bond; true when there was one. Throws ``BondStoreError/writeFailed(path:reason:)``.
    @discardableResult
    public func remove(_ peer: BluetoothAddress) throws(BondStoreError) -> Bool {
        let path = path(of: peer)
        guard unlink(path) == 0 else {
            if errno == ENOENT { return false }
            throw .writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
        return true
    }
}
