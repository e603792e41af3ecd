// Runs one cbtool command line: parse, dispatch to the command, turn errors into messages and exit statuses.

import OCBToolKit
import Foundation

/// The tool's entry point, callable from main and from tests.
///
/// Exit statuses: 0 success; 1 a failure a person can act on (`cbtool: error: …` on stderr: no Bluetooth support,
/// missing capabilities, controller busy, device not found, timeout, unreadable file, command not yet available);
/// 2 a bad command line (`cbtool: error: …` then the usage line on stderr). With `--json` a failure after parsing is
/// also one line on stdout: `{"message":"…","status":1,"type":"error"}`.
enum CBTool {
    static func run(arguments: [String], environment: [String: String]) -> Int32 {
        let invocation: Invocation
        do {
            invocation = try ArgumentParser.parse(arguments, environment: environment)
        } catch {
            printError(error.message)
            printError(error.usage)
            return 2
        }
        // Flushed per line (scan and notify are live streams, also when stdout is a pipe); lines a scan holds while
        // more wait (OutputSink.hold) go in one write.
        let output = OutputSink(mode: invocation.outputMode, write: { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }, writeBytes: { bytes in
            FileHandle.standardOutput.write(Data(bytes))  // a batch of held lines (a scan under a flood: up to 256)
        })
        do {
            try dispatch(invocation, output: output)
            return 0
        } catch {
            printError(error.message)
            // --json: the failure is a JSON line too, so a script reading stdout sees why it ended.
            if invocation.outputMode == .jsonLines {
                output.emit(error.message, json: ["type": "error", "message": .string(error.message),
                                                  "status": .integer(error.isUsage ? 2 : 1)])
            }
            if case let .usage(_, usage) = error { printError(usage); return 2 }
            return 1
        }
    }

    /// Runs the command. Every command has the shape `(Invocation, OutputSink) throws(ToolError)`.
    static func dispatch(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        switch invocation.command {
        case .scan: try ScanCommand.run(invocation, output: output)
        case .gatt: try GATTCommand.run(invocation, output: output)
        case .read: try ReadCommand.run(invocation, output: output)
        case .write: try WriteCommand.run(invocation, output: output)
        case .notify: try NotifyCommand.run(invocation, output: output)
        case .rssi: try RSSICommand.run(invocation, output: output)
        case .pair: try PairCommand.run(invocation, output: output)
        case .bonds: try BondsCommand.run(invocation, output: output)
        case .decode: try DecodeCommand.run(invocation, output: output)
        case .controllers: try ControllersCommand.run(invocation, output: output)
        case .help: try HelpCommand.run(invocation, output: output)
        }
    }

    static func printError(_ message: String) {
        let line = TerminalText.escaped(message.hasPrefix("usage:") ? message : "cbtool: error: " + message)
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
