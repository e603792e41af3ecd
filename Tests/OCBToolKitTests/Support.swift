// Test helpers: the package root, fixture paths, and running the built cbtool executable.

import Foundation

enum Paths {
    /// The package root (three levels up from this file).
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static var captures: URL { root.appendingPathComponent("Fixtures/captures") }
    static var expected: URL { root.appendingPathComponent("Fixtures/expected/decode") }

    static let captureNames = [
        "bottle-legacy-conn-complete-adv-reports", "escooter-ext-adv-nonlegacy-acl-fragments",
        "lock-legacy-adv-discovery-indications", "scooter-ext-adv-mtu517-indications",
        "toy-legacy-conn-cycles-notify-heavy", "toycar-acl-only-read-write",
        "treadmill-legacy-adv-notifications", "wristband-read-blob-acl-fragments-smp",
    ]

    /// The debug cbtool binary `swift build` (scripts/test) makes before the tests run.
    static var cbtool: URL { root.appendingPathComponent(".build/debug/cbtool") }
}

/// What one run of the cbtool executable gave.
struct ToolRun {
    var status: Int32
    var stdout: String
    var stderr: String

    var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }
    /// The lines on stderr, but the one notice a loaded machine may add to any live command: a host behind its reads
    /// while it waits for an answer (a connect's, a command's) skips the advertising reports in its way and says so
    /// once (ReportSheddingTests checks that notice where it is the point).
    var stderrLines: [String] {
        stderr.split(separator: "\n").map(String.init).filter { !$0.contains("advertising reports dropped unread while an answer waited") }
    }
}

enum ToolRunner {
    /// Runs the built cbtool with `arguments` and `environment` (OCB_TRANSPORT removed unless given); throws when the
    /// binary is missing (build it first: `swift build`).
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ToolRun {
        guard FileManager.default.isExecutableFile(atPath: Paths.cbtool.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: Paths.cbtool.path])
        }
        let process = Process()
        process.executableURL = Paths.cbtool
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["OCB_TRANSPORT"] = nil
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolRun(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// tshark, the independent decoder captures are checked against (scripts/setup installs it).
enum TShark {
    /// Runs `tshark -r path [-Y filter] -T fields -e …` and returns one row of fields per frame (tab-separated, empty
    /// fields kept) and tshark's exit status.
    static func fields(_ path: String, filter: String? = nil, _ names: [String]) throws -> (rows: [[String]], status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tshark", "-r", path] + (filter.map { ["-Y", $0] } ?? []) + ["-T", "fields"] + names.flatMap { ["-e", $0] }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) },
                process.terminationStatus)
    }
}
