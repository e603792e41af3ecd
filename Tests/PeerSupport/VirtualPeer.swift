// Starts, controls and stops the project's virtual Bluetooth peer (Tests/Peer/peer.py) for integration tests.
import Foundation

/// Errors of ``VirtualPeer``.
public enum VirtualPeerError: Error, CustomStringConvertible {
    /// The Python interpreter was not found at the path (set OCB_PYTHON or run scripts/setup).
    case pythonNotFound(String)
    /// The process could not be launched.
    case launchFailed(String)
    /// No `READY` line within the wait; `stderr` holds the end of the peer's log.
    case notReady(seconds: Double, stderr: String)
    /// The `READY` line did not decode.
    case badReadyLine(String)
    /// The peer exited; `stderr` holds the end of its log.
    case exited(status: Int32, stderr: String)
    /// A control line was answered with `ERR ...` or not answered in time.
    case controlFailed(command: String, reply: String)

    public var description: String {
        switch self {
        case .pythonNotFound(let path): "virtual peer: no Python at \(path) (run scripts/setup or set OCB_PYTHON)"
        case .launchFailed(let why): "virtual peer: launch failed: \(why)"
        case .notReady(let seconds, let stderr): "virtual peer: no READY line within \(seconds) s; stderr:\n\(stderr)"
        case .badReadyLine(let line): "virtual peer: undecodable READY line: \(line)"
        case .exited(let status, let stderr): "virtual peer: exited with \(status); stderr:\n\(stderr)"
        case .controlFailed(let command, let reply): "virtual peer: '\(command)' answered '\(reply)'"
        }
    }
}

/// A running virtual peer: a Bumble virtual radio with host-facing H4-over-TCP controllers, two peripherals
/// ("alpha", "bravo") and two beacons ("ibeacon", "eddystone"). See Tests/Peer/README.md for every value it serves.
///
/// The process is started with the project venv's Python (`OCB_PYTHON`, else `<package root>/.venv/bin/python`),
/// and stopped by ``stop()`` or on deinit (stdin closed, SIGTERM, then SIGKILL after 2 s), so no process is left
/// behind when a test fails. The peer also exits by itself when its stdin closes or its parent process dies.
public final class VirtualPeer: @unchecked Sendable {
    /// The decoded `READY` line.
    public private(set) var ready: PeerReady

    private let process: Process
    private let stdinPipe: Pipe
    private let condition = NSCondition()
    private var stdoutBuffer = Data()
    private var lines: [String] = []
    private var stderrTail = Data()
    private var stopped = false

    /// The package root (the folder holding Package.swift), found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Starts the peer and waits for its `READY` line.
    ///
    /// - Parameters:
    ///   - controllers: number of host-facing controllers (each its own TCP port).
    ///   - legacyOnly: indices of controllers without LE extended advertising (legacy commands only).
    ///   - extendedBeacon: pass `--extended-beacon`: a fifth advertiser, "extended" (C1:E7:00:00:00:05), with
    ///     non-connectable extended advertising whose 271 bytes of data reach extended scanners as two reports.
    ///   - databases: pass `--database FILE` for each: a clone of a recorded device (`cbtool decode --export-db`).
    ///   - security: pass `--security`: the peripheral "OCB Charlie" (encryption, Bumble's SMP, a rotating private address).
    ///   - readyTimeout: the longest wait for `READY`, in seconds.
    ///   - verbose: pass `-v` (peer log on its stderr, kept as the error tail).
    /// - Throws: ``VirtualPeerError``.
    public init(controllers: Int = 1, legacyOnly: [Int] = [], extendedBeacon: Bool = false, databases: [String] = [],
                security: Bool = false, readyTimeout: Double = 15, verbose: Bool = false) throws {
        let environment = ProcessInfo.processInfo.environment
        let python = environment["OCB_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
            ?? Self.packageRoot.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else { throw VirtualPeerError.pythonNotFound(python) }
        let script = Self.packageRoot.appendingPathComponent("Tests/Peer/peer.py").path

        var arguments = [script, "--controllers", String(controllers)]
        for index in legacyOnly { arguments += ["--legacy-only", String(index)] }
        if extendedBeacon { arguments.append("--extended-beacon") }
        if security { arguments.append("--security") }
        for database in databases { arguments += ["--database", database] }
        if verbose { arguments.append("-v") }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        var childEnvironment = environment
        childEnvironment["PYTHONUNBUFFERED"] = "1"
        process.environment = childEnvironment
        let stdinPipe = Pipe(), stdoutPipe = Pipe(), stderrPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        self.process = process
        self.stdinPipe = stdinPipe
        self.ready = PeerReady(controllers: [], peers: [], pid: 0)

        let condition = self.condition
        // The readers capture a weak box so the peer can deinit while the pipes are open.
        let box = WeakBox()
        process.terminationHandler = { _ in
            condition.lock(); condition.broadcast(); condition.unlock()
        }
        do {
            try process.run()
        } catch {
            throw VirtualPeerError.launchFailed("\(error)")
        }
        box.peer = self
        // Read on threads of their own once the child runs (PipeReader: no dispatch source on the pipes).
        PipeReader.drain(stdoutPipe.fileHandleForReading, name: "peer stdout") { data in
            box.peer?.received(stdout: data)
            if data.isEmpty { condition.lock(); condition.broadcast(); condition.unlock() }
        }
        PipeReader.drain(stderrPipe.fileHandleForReading, name: "peer stderr") { data in box.peer?.received(stderr: data) }
        let line: String
        do {
            line = try waitForLine(prefix: "READY ", timeout: readyTimeout)
        } catch {
            stop()
            throw error
        }
        do {
            self.ready = try JSONDecoder().decode(PeerReady.self, from: Data(line.dropFirst("READY ".count).utf8))
        } catch {
            stop()
            throw VirtualPeerError.badReadyLine(line)
        }
    }

    deinit { stop() }

    /// The TCP port of host-facing controller `index` (0-based); 0 when there is no such controller.
    public func port(_ index: Int = 0) -> UInt16 {
        ready.controllers.first { $0.index == index }?.port ?? 0
    }

    /// All controller ports in index order.
    public var ports: [UInt16] { ready.controllers.map(\.port) }

    /// The process id of the peer.
    public var pid: Int32 { process.processIdentifier }

    /// Whether the peer process is still running.
    public var isRunning: Bool { process.isRunning }

    /// Sends one control line (see Tests/Peer/README.md) and returns its `OK ...` reply.
    ///
    /// - Throws: ``VirtualPeerError/controlFailed(command:reply:)`` on `ERR ...` or no reply within `timeout` seconds.
    @discardableResult
    public func send(_ command: String, timeout: Double = 5) throws -> String {
        guard process.isRunning else { throw VirtualPeerError.exited(status: -1, stderr: stderrText()) }
        stdinPipe.fileHandleForWriting.write(Data((command + "\n").utf8))
        let reply = try waitForLine(prefix: "", timeout: timeout, command: command)
        guard reply.hasPrefix("OK") else { throw VirtualPeerError.controlFailed(command: command, reply: reply) }
        return reply
    }

    /// Makes controller `controller` (all when nil) silently drop every HCI command with `opcode`.
    public func mute(opcode: UInt16, controller: Int? = nil) throws {
        try send("mute 0x\(String(opcode, radix: 16))" + (controller.map { " \($0)" } ?? ""))
    }

    /// Makes controller `controller` (all when nil) answer every HCI command with `opcode` with `status` (Command
    /// Complete, or Command Status for commands that have one) without running it; status 0 undoes it.
    public func refuse(opcode: UInt16, status: UInt8, controller: Int? = nil) throws {
        try send("refuse 0x\(String(opcode, radix: 16)) 0x\(String(status, radix: 16))" + (controller.map { " \($0)" } ?? ""))
    }

    /// Undoes ``mute(opcode:controller:)``; nil `opcode` unmutes every opcode.
    public func unmute(opcode: UInt16? = nil, controller: Int? = nil) throws {
        let what = opcode.map { "0x\(String($0, radix: 16))" } ?? "all"
        try send("unmute \(what)" + (controller.map { " \($0)" } ?? ""))
    }

    /// Sends `count` advertising reports from distinct advertisers to the host of controller `controller`, as fast as
    /// it reads them (`flood`, Tests/Peer/README.md); returns the seconds the peer took. Throws when the host is not
    /// scanning or the flood does not end within `timeout` seconds.
    @discardableResult
    public func flood(_ count: Int, controller: Int = 0, timeout: Double = 60) throws -> Double {
        let reply = try send("flood \(count) \(controller)", timeout: timeout)
        return Double(reply.split(separator: " ").last ?? "") ?? 0
    }

    /// Makes controller `controller` (all when nil) send a Hardware Error event with `code`.
    public func hardwareError(code: UInt8 = 0x01, controller: Int? = nil) throws {
        try send("hwerror 0x\(String(code, radix: 16))" + (controller.map { " \($0)" } ?? ""))
    }

    /// Closes the TCP connection of controller `controller`'s current host (the host sees end of file).
    public func dropClient(controller: Int = 0) throws {
        try send("drop \(controller)")
    }

    /// Kills the peer at once with SIGKILL (a peer crash mid-connection) and waits for it to end.
    public func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Stops the peer: closes its stdin, SIGTERM, and SIGKILL when still alive after 2 s. Idempotent.
    public func stop() {
        condition.lock()
        let already = stopped
        stopped = true
        condition.unlock()
        if already { return }
        try? stdinPipe.fileHandleForWriting.close()
        guard process.isRunning || process.processIdentifier != 0 else { return }
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        if process.processIdentifier != 0 { process.waitUntilExit() }
    }

    /// The end of the peer's stderr (its log), for failure messages.
    public func stderrText() -> String {
        condition.lock(); defer { condition.unlock() }
        return String(decoding: stderrTail, as: UTF8.self)
    }

    // MARK: - Pipes

    fileprivate func received(stdout data: Data) {
        condition.lock()
        stdoutBuffer.append(data)
        while let newline = stdoutBuffer.firstIndex(of: 0x0A) {
            let lineData = stdoutBuffer[stdoutBuffer.startIndex..<newline]
            lines.append(String(decoding: lineData, as: UTF8.self))
            stdoutBuffer.removeSubrange(stdoutBuffer.startIndex...newline)
        }
        condition.broadcast()
        condition.unlock()
    }

    fileprivate func received(stderr data: Data) {
        condition.lock()
        stderrTail.append(data)
        if stderrTail.count > 16_384 { stderrTail.removeFirst(stderrTail.count - 16_384) }
        condition.unlock()
    }

    private func waitForLine(prefix: String, timeout: Double, command: String? = nil) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = lines.firstIndex(where: { $0.hasPrefix(prefix) }) {
                let line = lines[index]
                lines.removeSubrange(lines.startIndex...index)
                return line
            }
            if !process.isRunning {
                let tail = String(decoding: stderrTail, as: UTF8.self)
                throw VirtualPeerError.exited(status: process.processIdentifier == 0 ? -1 : process.terminationStatus,
                                              stderr: tail)
            }
            if !condition.wait(until: min(deadline, Date().addingTimeInterval(0.2))) && Date() >= deadline {
                let tail = String(decoding: stderrTail, as: UTF8.self)
                if let command { throw VirtualPeerError.controlFailed(command: command, reply: "(no reply)") }
                throw VirtualPeerError.notReady(seconds: timeout, stderr: tail)
            }
        }
    }
}

/// A weak reference the pipe handlers hold, so they never keep the peer alive.
private final class WeakBox: @unchecked Sendable {
    weak var peer: VirtualPeer?
}
