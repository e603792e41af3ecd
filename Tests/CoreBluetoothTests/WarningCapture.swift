// Captures the `[CoreBluetooth]` lines a test expects, through one tap on the process's diagnostics sink shared by every test.
@testable import CoreBluetooth
import Foundation

/// The tests' one sink, installed once in front of the process's: it offers each line to every capture registered
/// (``add(_:)``), and a line none of them keeps goes on to the sink it replaced. Captures come and go in any order
/// from tests running in parallel: none replaces or restores another's (a capture restoring "its previous sink" while
/// another was installed after it silently removed the later one, which then caught nothing).
enum DiagnosticsTap {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var takers: [Int: @Sendable (String) -> Bool] = [:]
    nonisolated(unsafe) private static var nextToken = 0
    nonisolated(unsafe) private static var original: (@Sendable (String) -> Void)?

    /// Registers `take`, which returns true to keep a line from the sink behind; the token is for ``remove(_:)``.
    static func add(_ take: @escaping @Sendable (String) -> Bool) -> Int {
        let (token, install) = lock.withLock { () -> (Int, Bool) in
            let token = nextToken
            nextToken += 1
            takers[token] = take
            return (token, token == 0)
        }
        if install {
            let previous = Diagnostics.setSink { line in DiagnosticsTap.offer(line) }
            lock.withLock { original = previous }
        }
        return token
    }

    /// Unregisters the capture of `token`.
    static func remove(_ token: Int) {
        _ = lock.withLock { takers.removeValue(forKey: token) }
    }

    private static func offer(_ line: String) {
        let (current, behind) = lock.withLock { (Array(takers.values), original) }
        var kept = false
        for take in current where take(line) { kept = true }
        if !kept { behind?(line) }
    }
}

/// Collects the `[CoreBluetooth]` lines that contain `marker` (kept out of the test log); other tests log through the
/// same sink, and their lines pass through.
final class WarningCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var captured: [String] = []
    private var token: Int?

    init(marker: String) {
        token = DiagnosticsTap.add { [self] line in
            guard line.contains(marker) else { return false }
            lock.withLock { captured.append(line) }
            return true
        }
    }

    func remove() {
        if let token { DiagnosticsTap.remove(token) }
        token = nil
    }

    var lines: [String] { lock.withLock { captured } }
}
