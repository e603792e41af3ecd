// A parsed cbtool command line: the subcommand, its operands and every option, typed.

import OCBCore

/// How a write's VALUE operand is to be read.
public enum ValueEncoding: Hashable, Sendable {
    /// Hex bytes ("0x01ff", "01 ff", "01:ff").
    case hex
    /// UTF-8 text, as typed.
    case text
}

/// Everything the command line said, parsed and checked (``ArgumentParser/parse(_:environment:)``).
///
/// The transport stays text here: the command checks it with Host's `TransportSpec` (the parser does not depend on
/// Host). Durations are `Duration`s; absent options keep their defaults.
public struct Invocation: Hashable, Sendable {
    /// The subcommand.
    public var command: Subcommand
    /// The operands after the subcommand, in order (their count matches ``Subcommand/operands``).
    public var operands: [String]
    /// `--transport` text: the option, else `$OCB_TRANSPORT`, else "hci0".
    public var transport: String
    /// `--json`: one JSON object per line.
    public var json: Bool = false
    /// `--btsnoop FILE`: record the session here.
    public var btsnoopPath: String?
    /// `--export-db FILE`: where `decode` writes the database the capture reveals.
    public var exportDatabasePath: String?
    /// `--timeout`: connection and request timeout (nil: the command's default).
    public var timeout: Duration?
    /// `--duration`: how long to scan or stream (nil: until interrupted).
    public var duration: Duration?
    /// `--passive`: passive scanning.
    public var passive: Bool = false
    /// `--service UUID` (repeatable): only advertisers of these services.
    public var services: [BluetoothUUID] = []
    /// `--duplicates`: report every advertisement.
    public var duplicates: Bool = false
    /// `--without-response`: Write Command.
    public var withoutResponse: Bool = false
    /// `--hex` / `--text`: how to read a write's VALUE (default hex).
    public var valueEncoding: ValueEncoding = .hex

    /// Makes an invocation with defaults.
    public init(command: Subcommand, operands: [String] = [], transport: String = "hci0") {
        self.command = command
        self.operands = operands
        self.transport = transport
    }

    /// The output mode `--json` selects.
    public var outputMode: OutputMode { json ? .jsonLines : .text }

    /// The operand at `index`, or "" when absent (the parser guarantees the count).
    public func operand(_ index: Int) -> String { operands.indices.contains(index) ? operands[index] : "" }
}
