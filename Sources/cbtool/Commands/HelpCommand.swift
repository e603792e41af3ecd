// `cbtool help [COMMAND]`: what the commands are and how to call them.

import OCBToolKit

/// `cbtool help`: every command with its one-line summary, or one command's usage.
enum HelpCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        if let topic = invocation.operands.first.flatMap(Subcommand.init(rawValue:)) {
            output.emit(text: ["usage: " + topic.usage, "  " + topic.summary],
                        json: ["type": "help", "command": .string(topic.rawValue), "usage": .string(topic.usage), "summary": .string(topic.summary)])
            return
        }
        output.note("usage: cbtool COMMAND [ARGS] [OPTIONS]")
        output.note("")
        for command in Subcommand.allCases {
            output.emit("  " + command.usage, json: ["type": "help", "command": .string(command.rawValue),
                                                     "usage": .string(command.usage), "summary": .string(command.summary)])
            output.note("      " + command.summary)
        }
        output.note("")
        output.note("--transport: hciN (raw HCI socket), user:hciN (exclusive user channel), tcp:HOST:PORT (H4 over TCP),")
        output.note("             serial:DEVICE[@BAUD] (H4 over a serial line), replay:FILE / replay-tolerant:FILE (a capture")
        output.note("             played back, byte for byte / by kind); default $OCB_TRANSPORT, else hci0")
        output.note("--json: one JSON object per line; exit status 0 ok, 1 failure, 2 bad command line")
    }
}
