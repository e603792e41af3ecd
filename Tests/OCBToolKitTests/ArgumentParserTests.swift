// The argument parser: option placement and forms, defaults, operands, and what it rejects.

import OCBCore
import OCBToolKit
import Testing

@Suite("argument parser")
struct ArgumentParserTests {
    @Test("options before and after the command, --name=value, repeated --service")
    func forms() throws {
        let parsed = try ArgumentParser.parse(["--json", "scan", "--duration=2.5s", "--service", "180D", "--service=180F",
                                               "--passive", "--duplicates", "--transport", "tcp:localhost:6402"])
        #expect(parsed.command == .scan)
        #expect(parsed.json)
        #expect(parsed.outputMode == .jsonLines)
        #expect(parsed.duration == .milliseconds(2500))
        #expect(parsed.services == [BluetoothUUID(0x180D), BluetoothUUID(0x180F)])
        #expect(parsed.passive && parsed.duplicates)
        #expect(parsed.transport == "tcp:localhost:6402")
    }

    @Test("transport default: $OCB_TRANSPORT, else hci0; the option wins")
    func transportDefault() throws {
        #expect(try ArgumentParser.parse(["scan"]).transport == "hci0")
        #expect(try ArgumentParser.parse(["scan"], environment: ["OCB_TRANSPORT": "user:hci1"]).transport == "user:hci1")
        #expect(try ArgumentParser.parse(["scan", "--transport", "hci2"], environment: ["OCB_TRANSPORT": "user:hci1"]).transport == "hci2")
    }

    @Test("write: operands, --without-response, --text")
    func write() throws {
        let parsed = try ArgumentParser.parse(["write", "C4:7C:8D:6A:3F:21", "0x0010", "hello", "--text", "--without-response"])
        #expect(parsed.operands == ["C4:7C:8D:6A:3F:21", "0x0010", "hello"])
        #expect(parsed.valueEncoding == .text && parsed.withoutResponse)
        #expect(AttributeTarget(parsed.operand(1)) == .handle(0x0010))
        #expect(WriteValue.bytes(parsed.operand(2), encoding: .text) == [0x68, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(WriteValue.bytes("01:ff", encoding: .hex) == [0x01, 0xFF])
    }

    @Test("UUID|HANDLE: 0x prefix is a handle, anything else a UUID; 0x0000 is no handle")
    func targets() {
        #expect(AttributeTarget("0x000E") == .handle(14))
        #expect(AttributeTarget("2A37") == .uuid(BluetoothUUID(0x2A37)))
        #expect(AttributeTarget("6E400002-B5A3-F393-E0A9-E50E24DCCA9E") == BluetoothUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E").map { .uuid($0) })
        #expect(AttributeTarget("0x0000") == nil)
        #expect(AttributeTarget("0x12345") == nil)
        #expect(AttributeTarget("battery") == nil)
    }

    @Test("--help anywhere gives help; no command at all is a usage error with the general usage")
    func help() throws {
        #expect(try ArgumentParser.parse(["--help"]).command == .help)
        #expect(try ArgumentParser.parse(["gatt", "--help"]) == Invocation(command: .help, operands: ["gatt"]))
        #expect(try ArgumentParser.parse(["help", "write"]).operands == ["write"])
        for arguments in [[], ["--json"]] {
            #expect(throws: UsageError("no command given (cbtool help lists them)", usage: ArgumentParser.usage)) {
                try ArgumentParser.parse(arguments)
            }
        }
    }

    @Test("a malformed option after a known command shows that command's usage, else the general one")
    func optionErrorUsage() {
        #expect(throws: UsageError("unknown option \"--frobnicate\"", usage: "usage: " + Subcommand.scan.usage)) {
            try ArgumentParser.parse(["scan", "--frobnicate"])
        }
        #expect(throws: UsageError("unknown option \"--frobnicate\"", usage: "usage: " + Subcommand.scan.usage)) {
            try ArgumentParser.parse(["--frobnicate", "scan"])
        }
        #expect(throws: UsageError("option --timeout needs a value (--timeout SECONDS)", usage: "usage: " + Subcommand.rssi.usage)) {
            try ArgumentParser.parse(["rssi", "C4:7C:8D:6A:3F:21", "--timeout"])
        }
        #expect(throws: UsageError("unknown option \"--frobnicate\"", usage: ArgumentParser.usage)) {
            try ArgumentParser.parse(["--frobnicate"])
        }
    }

    @Test("usage lines name each option once; --hex and --text as one alternative")
    func usageLines() {
        #expect(Subcommand.write.usage == "cbtool write ADDRESS UUID|HANDLE VALUE [--without-response] [--hex|--text] "
                + "[--transport SPEC] [--timeout SECONDS] [--btsnoop FILE] [--json]")
        for command in Subcommand.allCases {
            let options = command.usage.split(separator: " ").filter { $0.hasPrefix("[--") }
            #expect(Set(options).count == options.count, "\(command.usage)")
        }
    }

    @Test("rejections name what is wrong", arguments: [
        (["scan", "extra"], "unexpected argument \"extra\" for scan"),
        (["write", "C4:7C:8D:6A:3F:21", "2A06"], "write needs VALUE"),
        (["write", "C4:7C:8D:6A:3F:21", "2A06", "zz"], "\"zz\" is not hex bytes like 01ff (use --text for text)"),
        (["write", "C4:7C:8D:6A:3F:21", "2A06", "01", "--hex", "--text"], "--hex and --text cannot be used together"),
        (["scan", "--timeout"], "option --timeout needs a value (--timeout SECONDS)"),
        (["scan", "--json=yes"], "option --json takes no value"),
        (["scan", "--service", "heart"], "--service \"heart\" is not a UUID (180D, 0000180D-0000-1000-8000-00805F9B34FB)"),
        (["decode", "a", "--without-response"], "option --without-response does not apply to decode"),
        (["scan", "-x"], "unknown option \"-x\""),
        (["help", "nothing"], "unknown command \"nothing\""),
    ])
    func rejections(_ arguments: [String], _ message: String) {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(arguments) }
        do {
            _ = try ArgumentParser.parse(arguments)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test("durations: seconds, s, ms, m; nothing negative or unbounded")
    func durations() {
        #expect(DurationText.parse("10") == .seconds(10))
        #expect(DurationText.parse("500ms") == .milliseconds(500))
        #expect(DurationText.parse("1m") == .seconds(60))
        #expect(DurationText.parse("-1") == nil)
        #expect(DurationText.parse("1e9") == nil)
        #expect(DurationText.parse("") == nil)
        #expect(DurationText.parse("100000") == nil)
    }
}
