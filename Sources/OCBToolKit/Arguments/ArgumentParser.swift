// Turns cbtool's argument list into an Invocation, or a UsageError naming what is wrong.

import OCBCore

/// cbtool's small command-line parser: `cbtool [OPTIONS] COMMAND OPERANDS [OPTIONS]`.
///
/// Options may come before or after the command: `--name VALUE`, `--name=VALUE`, flags as `--name`; `-h` is `--help`;
/// `--` ends options. Each command accepts the global options (``OptionName/global``) and its own
/// (``Subcommand/specificOptions``); anything else is a ``UsageError`` (with that command's usage line when the command
/// is known), as are a missing or extra operand, a bad duration or UUID, `--hex` with `--text`, and no command at all.
/// `--help` anywhere gives the `help` command.
public enum ArgumentParser {
    /// The general usage line.
    public static let usage = "usage: cbtool COMMAND [ARGS] [--transport SPEC] [--json] (commands: "
        + Subcommand.allCases.map(\.rawValue).joined(separator: ", ") + "; cbtool help COMMAND for more)"

    /// Parses `arguments` (without the program name). `environment` supplies `OCB_TRANSPORT`.
    /// Throws ``UsageError``.
    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> Invocation {
        var options: [(OptionName, String?)] = []
        var words: [String] = []
        var index = 0
        var optionsEnded = false
        // The first malformed option, thrown once the command (and so the usage line to show) is known.
        var badOption: String?
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                words.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            if argument == "-h" { options.append((.help, nil)); continue }
            guard argument.hasPrefix("--") else {
                badOption = badOption ?? "unknown option \"\(argument)\""
                continue
            }
            let body = argument.dropFirst(2)
            let name: Substring
            var value: String?
            if let equals = body.firstIndex(of: "=") {
                name = body[..<equals]
                value = String(body[body.index(after: equals)...])
            } else {
                name = body
            }
            guard let option = OptionName(rawValue: String(name)) else {
                badOption = badOption ?? "unknown option \"--\(name)\""
                continue
            }
            if option.takesValue, value == nil {
                guard index < arguments.count else {
                    badOption = badOption ?? "option --\(option.rawValue) needs a value (\(option.synopsis))"
                    continue
                }
                value = arguments[index]
                index += 1
            } else if !option.takesValue, value != nil {
                badOption = badOption ?? "option --\(option.rawValue) takes no value"
                continue
            }
            options.append((option, value))
        }
        if let badOption {
            let command = words.first.flatMap(Subcommand.init(rawValue:))
            throw UsageError(badOption, usage: command.map { "usage: " + $0.usage } ?? usage)
        }

        if words.isEmpty, !options.contains(where: { $0.0 == .help }) {
            throw UsageError("no command given (cbtool help lists them)", usage: usage)
        }
        if options.contains(where: { $0.0 == .help }) {
            let topic = words.first.flatMap(Subcommand.init(rawValue:))
            let operands = words.first == Subcommand.help.rawValue ? Array(words.dropFirst().prefix(1)) : (topic.map { [$0.rawValue] } ?? [])
            var invocation = Invocation(command: .help, operands: operands)
            invocation.json = options.contains { $0.0 == .json }
            return invocation
        }
        guard let command = Subcommand(rawValue: words[0]) else {
            throw UsageError("unknown command \"\(words[0])\"", usage: usage)
        }
        let operands = Array(words.dropFirst())
        try checkOperands(operands, of: command)

        var invocation = Invocation(command: command, operands: operands,
                                    transport: environment["OCB_TRANSPORT"].flatMap { $0.isEmpty ? nil : $0 } ?? "hci0")
        for (option, value) in options {
            guard OptionName.global.contains(option) || command.specificOptions.contains(option) else {
                throw UsageError("option --\(option.rawValue) does not apply to \(command.rawValue)", usage: "usage: " + command.usage)
            }
            try apply(option, value ?? "", to: &invocation)
        }
        if options.contains(where: { $0.0 == .hex }), options.contains(where: { $0.0 == .text }) {
            throw UsageError("--hex and --text cannot be used together", usage: "usage: " + command.usage)
        }
        try checkOperandValues(invocation)
        return invocation
    }

    private static func checkOperands(_ operands: [String], of command: Subcommand) throws(UsageError) {
        let required = command.operands.filter { !$0.hasPrefix("[") }
        let usage = "usage: " + command.usage
        if operands.count < required.count {
            throw UsageError("\(command.rawValue) needs \(required[operands.count...].joined(separator: " "))", usage: usage)
        }
        if operands.count > command.operands.count {
            throw UsageError("unexpected argument \"\(operands[command.operands.count])\" for \(command.rawValue)", usage: usage)
        }
        if command == .help, let topic = operands.first, Subcommand(rawValue: topic) == nil {
            throw UsageError("unknown command \"\(topic)\"", usage: ArgumentParser.usage)
        }
    }

    private static func checkOperandValues(_ invocation: Invocation) throws(UsageError) {
        let usage = "usage: " + invocation.command.usage
        for (name, value) in zip(invocation.command.operands, invocation.operands) {
            switch name {
            case "ADDRESS":
                guard BluetoothAddress(value) != nil else {
                    throw UsageError("\"\(value)\" is not a device address like 12:34:56:78:9A:BC", usage: usage)
                }
            case "UUID|HANDLE":
                guard AttributeTarget(value) != nil else {
                    throw UsageError("\"\(value)\" is not a UUID (2A37, 128-bit with dashes) or a handle (0x000E)", usage: usage)
                }
            case "VALUE":
                guard WriteValue.bytes(value, encoding: invocation.valueEncoding) != nil else {
                    throw UsageError("\"\(value)\" is not hex bytes like 01ff (use --text for text)", usage: usage)
                }
            default: break
            }
        }
    }

    private static func apply(_ option: OptionName, _ value: String, to invocation: inout Invocation) throws(UsageError) {
        let usage = "usage: " + invocation.command.usage
        switch option {
        case .transport:
            guard !value.isEmpty else { throw UsageError("--transport needs a value like hci0 or tcp:HOST:PORT", usage: usage) }
            invocation.transport = value
        case .json: invocation.json = true
        case .btsnoop:
            guard !value.isEmpty else { throw UsageError("--btsnoop needs a file name", usage: usage) }
            invocation.btsnoopPath = value
        case .exportDB:
            guard !value.isEmpty else { throw UsageError("--export-db needs a file name", usage: usage) }
            invocation.exportDatabasePath = value
        case .timeout, .duration:
            guard let duration = DurationText.parse(value) else {
                throw UsageError("--\(option.rawValue) \"\(value)\" is not a duration (seconds, e.g. 10, 2.5s, 500ms, 1m)", usage: usage)
            }
            if option == .timeout { invocation.timeout = duration } else { invocation.duration = duration }
        case .passive: invocation.passive = true
        case .service:
            guard let uuid = BluetoothUUID(value) else {
                throw UsageError("--service \"\(value)\" is not a UUID (180D, 0000180D-0000-1000-8000-00805F9B34FB)", usage: usage)
            }
            invocation.services.append(uuid)
        case .duplicates: invocation.duplicates = true
        case .withoutResponse: invocation.withoutResponse = true
        case .hex: invocation.valueEncoding = .hex
        case .text: invocation.valueEncoding = .text
        case .help: break
        }
    }
}
