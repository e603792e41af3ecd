// Apple-style console warnings ("[CoreBluetooth] API MISUSE: ...") written to standard error.
import Foundation

/// Writes CoreBluetooth's console messages.
///
/// Apple logs misuse (commands while not powered on, a request on a disconnected peripheral, a malformed UUID
/// string) instead of failing; so does this module, on standard error, as `[CoreBluetooth] API MISUSE: <text>`.
enum Diagnostics {
    private static let sinkLock = StateLock()
    nonisolated(unsafe) private static var sink: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Replaces where lines go (tests); returns the previous sink.
    @discardableResult
    static func setSink(_ newSink: @escaping @Sendable (String) -> Void) -> @Sendable (String) -> Void {
        sinkLock.run {
            let old = sink
            sink = newSink
            return old
        }
    }

    /// Logs an API misuse: `[CoreBluetooth] API MISUSE: <message>`.
    static func misuse(_ message: String) {
        emit("[CoreBluetooth] API MISUSE: \(message)")
    }

    /// Logs a warning: `[CoreBluetooth] WARNING: <message>`.
    static func warning(_ message: String) {
        emit("[CoreBluetooth] WARNING: \(message)")
    }

    /// True when `OCB_DEBUG` is "1": the host's diagnostics (dropped packets, L2CAP and ATT oddities, security steps)
    /// are logged too, as `[CoreBluetooth] DEBUG: <text>`. Read once.
    static let debugEnabled = ProcessInfo.processInfo.environment["OCB_DEBUG"] == "1"

    /// Logs a host diagnostic when ``debugEnabled``: `[CoreBluetooth] DEBUG: <message>`.
    static func debug(_ message: String) {
        if debugEnabled { emit("[CoreBluetooth] DEBUG: \(message)") }
    }

    private static func emit(_ line: String) {
        let current = sinkLock.run { sink }
        current(line)
    }
}
