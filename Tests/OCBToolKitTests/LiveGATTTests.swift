// cbtool gatt, read and write against the virtual peer: alpha's database and values of Tests/Peer/README.md.

import Foundation
import Testing

extension LiveCommandTests {
    @Test("gatt: alpha's whole database as a tree, secondary services and includes, values decoded, refused reads listed")
    func gattText() throws {
        let run = try LivePeer.run(["gatt", LivePeer.alpha])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderrLines == ["scanning for C1:A0:00:00:00:01…", "connecting to C1:A0:00:00:00:01…", "discovering services…",
                                    "discovering characteristics…", "reading values…",
                                    // 0x000C needs authentication: the read starts pairing, which alpha refuses (as iOS would try).
                                    "[CoreBluetooth] WARNING: the peer on connection 0x1 refused pairing (Pairing Failed: 0x05 Pairing Not Supported): put it in pairing mode, or check whether it pairs with this host at all",
                                    "disconnecting…"])
        let lines = run.stdoutLines
        #expect(lines.first == "C1:A0:00:00:00:01 (random) \"OCB Alpha\" -45 dBm")
        for expected in [
            "service 0x0001-0x0005 1800 Generic Access (primary)",
            "  characteristic 0x0002 value 0x0003 2A00 Device Name [read] = \"OCB Alpha\"",
            "  characteristic 0x0004 value 0x0005 2A01 Appearance [read] = Heart Rate Sensor (0x0340)",
            "  characteristic 0x000B value 0x000C 2A29 Manufacturer Name String [read] = \"OpenCoreBluetooth\"",
            "  characteristic 0x0016 value 0x0017 2A19 Battery Level [read, notify] = 100 %",
            "    descriptor 0x0018 2902 Client Characteristic Configuration = notifications off, indications off",
            "  characteristic 0x001A value 0x001B 2A37 Heart Rate Measurement [notify]",
            "  characteristic 0x001D value 0x001E 2A38 Body Sensor Location [read] = Chest",
            "  characteristic 0x001F value 0x0020 2A39 Heart Rate Control Point [write]",
            "service 0x0021-0x0023 0CB10100-7E57-4C0D-A9E5-0123456789AB (secondary)",
            "  characteristic 0x0022 value 0x0023 0CB10101-7E57-4C0D-A9E5-0123456789AB [read] = 73 65 63 6f 6e 64 61 72 79 (\"secondary\")",
            "service 0x0024-0x0026 1804 Tx Power (secondary)",
            "  characteristic 0x0025 value 0x0026 2A07 Tx Power Level [read] = f8",
            "service 0x0027-0x004E 0CB10001-7E57-4C0D-A9E5-0123456789AB (primary)",
            "  include 0x0028 → 0x0021-0x0023 0CB10100-7E57-4C0D-A9E5-0123456789AB",
            "  include 0x0029 → 0x0024-0x0026 1804 Tx Power",
            "  characteristic 0x002A value 0x002B 0CB10002-7E57-4C0D-A9E5-0123456789AB [read] = \"Hello, OpenCoreBluetooth\"",
            "    descriptor 0x002C 2901 Characteristic User Descriptor = \"Static read value\"",
            "    descriptor 0x002D 2904 Characteristic Presentation Format = format utf8s, exponent 0",
            "    descriptor 0x0035 2900 Characteristic Extended Properties = 03 00",
            "    descriptor 0x003A 2903 Server Characteristic Configuration = 00 00",
            "  characteristic 0x0047 value 0x0048 0CB1000B-7E57-4C0D-A9E5-0123456789AB [read] = 72 65 61 64 2d 6f 6e 6c 79 (\"read-only\")",
            "not readable: reading 0x004A 0CB1000C-7E57-4C0D-A9E5-0123456789AB failed: ATT error 0x05 Insufficient Authentication",
            "not readable: reading 0x004C 0CB1000D-7E57-4C0D-A9E5-0123456789AB failed: ATT error 0x80 Application Error 0x80",
        ] {
            #expect(lines.contains(expected), "missing: \(expected)")
        }
        // 512-byte value (byte i = i & 0xFF), read with Read Blob: shown cut after 32 bytes with its length.
        #expect(lines.contains { $0.hasPrefix("  characteristic 0x002E value 0x002F 0CB10003-7E57-4C0D-A9E5-0123456789AB [read] = 00 01 02")
            && $0.hasSuffix(" 1e 1f … (512 bytes)") })
        // 8 services (2 secondary), 27 characteristics, 14 descriptors; 17 readable characteristics + 14 descriptors read.
        #expect(lines.last == "summary: 8 services (2 secondary), 27 characteristics, 14 descriptors, 31 values read, 2 not readable")
    }

    @Test("gatt --json: a device object, 8 service and 27 characteristic objects, a summary with the refused reads")
    func gattJSON() throws {
        let run = try LivePeer.run(["gatt", LivePeer.alpha, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let objects = run.jsonObjects
        #expect(objects.first?["type"] as? String == "device")
        #expect(objects.first?["name"] as? String == "OCB Alpha")
        #expect(objects.filter { $0["type"] as? String == "service" }.count == 8)
        let characteristics = objects.filter { $0["type"] as? String == "characteristic" }
        #expect(characteristics.count == 27)
        #expect(characteristics.allSatisfy { $0["address"] as? String == LivePeer.alpha })
        let battery = try #require(characteristics.first { $0["uuid"] as? String == "2A19" })
        #expect(battery["valueHandle"] as? Int == 0x0017)
        #expect(battery["value"] as? String == "64")
        #expect(battery["decoded"] as? String == "100 %")
        #expect(battery["properties"] as? [String] == ["read", "notify"])
        #expect((battery["descriptors"] as? [[String: Any]])?.first?["handle"] as? Int == 0x0018)
        let long = try #require(characteristics.first { $0["valueHandle"] as? Int == 0x002F })
        #expect(long["value"] as? String == (0..<512).map { String(format: "%02x", $0 & 0xFF) }.joined())
        let summary = try #require(objects.last)
        #expect(summary["type"] as? String == "summary")
        #expect(summary["valuesRead"] as? Int == 31)
        #expect((summary["readErrors"] as? [[String: Any]])?.compactMap { $0["handle"] as? Int } == [0x004A, 0x004C])
    }

    @Test("read: by UUID, by handle, a descriptor, with the Presentation Format, text and JSON")
    func read() throws {
        let battery = try LivePeer.run(["read", LivePeer.alpha, "2A19"])
        #expect(battery.status == 0, "\(battery.stderr)")
        #expect(battery.stdoutLines == ["0x0017 2A19 Battery Level = 100 %"])

        let description = try LivePeer.run(["read", LivePeer.alpha, "2901"])
        #expect(description.stdoutLines == ["0x002C 2901 Characteristic User Descriptor = \"Static read value\""])

        // 0CB10002 has a Presentation Format (utf8s) descriptor: decoded as a string although its UUID is custom.
        let hello = try LivePeer.run(["read", LivePeer.alpha, "0x002B", "--json"])
        #expect(hello.status == 0, "\(hello.stderr)")
        let object = try #require(hello.jsonObjects.first)
        #expect(object["type"] as? String == "value")
        #expect(object["handle"] as? Int == 0x002B)
        #expect(object["uuid"] as? String == "0CB10002-7E57-4C0D-A9E5-0123456789AB")
        #expect(object["value"] as? String == Array("Hello, OpenCoreBluetooth".utf8).map { String(format: "%02x", $0) }.joined())
        #expect(object["decoded"] as? String == "\"Hello, OpenCoreBluetooth\"")
    }

    @Test("write: with response and read back, text without response, a refused write, then the value restored")
    func write() throws {
        let request = try LivePeer.run(["write", LivePeer.alpha, "0x0031", "0a0b"])
        #expect(request.status == 0, "\(request.stderr)")
        #expect(request.stdoutLines == ["wrote 2 bytes to 0x0031 0CB10004-7E57-4C0D-A9E5-0123456789AB (write request)"])
        #expect(try LivePeer.run(["read", LivePeer.alpha, "0x0031", "--json"]).jsonObjects.first?["value"] as? String == "0a0b")

        let command = try LivePeer.run(["write", LivePeer.alpha, "0CB10004-7E57-4C0D-A9E5-0123456789AB", "ok", "--text", "--without-response", "--json"])
        #expect(command.status == 0, "\(command.stderr)")
        #expect(command.jsonObjects.first?["withResponse"] as? Bool == false)
        #expect(command.jsonObjects.first?["value"] as? String == "6f6b")
        #expect(try LivePeer.run(["read", LivePeer.alpha, "0x0031"]).stdoutLines == ["0x0031 0CB10004-7E57-4C0D-A9E5-0123456789AB = 6f 6b (\"ok\")"])

        // Heart Rate Control Point accepts only 01; anything else is answered with ATT error 0x80.
        let refused = try LivePeer.run(["write", LivePeer.alpha, "2A39", "02"])
        #expect(refused.status == 1)
        #expect(refused.stderrLines.last == "cbtool: error: writing 0x0020 2A39 Heart Rate Control Point failed: ATT error 0x80 Application Error 0x80")
        #expect(refused.stdout.isEmpty)

        #expect(try LivePeer.run(["write", LivePeer.alpha, "0x0031", "00"]).status == 0)
    }

    /// ibeacon (C1:1B:EA:C0:00:03) sends ADV_NONCONN_IND only (Tests/Peer/README.md): the commands that connect say so
    /// after the scan instead of waiting for the connect timeout ("timeout: connecting … took longer than 10 s").
    @Test("gatt, read, write, notify, rssi on a non-connectable advertiser: fail at once, one line, exit 1", arguments: [
        ["gatt", "C1:1B:EA:C0:00:03"], ["read", "C1:1B:EA:C0:00:03", "2A19"], ["write", "C1:1B:EA:C0:00:03", "2A39", "01"],
        ["notify", "C1:1B:EA:C0:00:03", "2A37"], ["rssi", "C1:1B:EA:C0:00:03"],
    ])
    func nonConnectable(_ arguments: [String]) throws {
        let run = try LivePeer.run(arguments)
        #expect(run.status == 1)
        #expect(run.stderrLines == ["scanning for C1:1B:EA:C0:00:03…", "cbtool: error: C1:1B:EA:C0:00:03 advertises as "
                                    + "non-connectable (ADV_NONCONN_IND or ADV_SCAN_IND): it cannot be connected"])
        #expect(run.stdout.isEmpty)
    }
}
