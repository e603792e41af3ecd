// The virtual peer shared by the live-command tests, and running cbtool against it (also interrupted with SIGINT).

import Foundation
import PeerSupport

/// One virtual peer (Tests/Peer/peer.py) for every live test of this process, started on first use; it exits with
/// the test process (its stdin closes, it watches its parent).
enum LivePeer {
    private static let started: Result<VirtualPeer, any Error> = Result { try VirtualPeer() }

    /// "tcp:127.0.0.1:PORT" of the peer's host-facing controller; throws when the peer cannot start.
    static func transport() throws -> String {
        "tcp:127.0.0.1:\(try started.get().port())"
    }

    /// The peer itself, for control lines.
    static func peer() throws -> VirtualPeer { try started.get() }

    /// Runs cbtool with `arguments` plus `--transport` of the peer.
    static func run(_ arguments: [String]) throws -> ToolRun {
        try ToolRunner.run(arguments + ["--transport", transport()])
    }

    /// The address of alpha ("OCB Alpha"), Tests/Peer/README.md.
    static let alpha = "C1:A0:00:00:00:01"
}

extension ToolRunner {
    /// Runs cbtool, sends SIGINT once `interruptWhen` is true of the stdout read so far (checked every 50 ms, at most
    /// `within` seconds), and waits (bounded) for it to exit.
    static func runInterrupted(_ arguments: [String], within: Double = 10, interruptWhen: @escaping (String) -> Bool) throws -> ToolRun {
        let process = Process()
        process.executableURL = Paths.cbtool
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let collected = LockedText()
        let finished = DispatchSemaphore(value: 0)
        try process.run()
        // Read on a thread of its own (PipeReader: no dispatch source on the pipe), to its end.
        PipeReader.drain(out.fileHandleForReading, name: "cbtool stdout") { data in
            if data.isEmpty { finished.signal() } else { collected.append(data) }
        }
        let deadline = Date().addingTimeInterval(within)
        while process.isRunning, Date() < deadline, !interruptWhen(collected.text) { usleep(50_000) }
        if process.isRunning { process.interrupt() }
        let exitDeadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < exitDeadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        _ = finished.wait(timeout: .now() + 10)  // the pipe's end follows the exit
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        return ToolRun(status: process.terminationStatus, stdout: collected.text, stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// Text appended from a pipe's handler thread and read from the test's.
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ more: Data) { lock.withLock { data.append(more) } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}

extension ToolRun {
    /// Every stdout line parsed as a JSON object (an unparsable line gives an empty object, so counts still fail).
    var jsonObjects: [[String: Any]] {
        stdoutLines.map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }
    }
}
