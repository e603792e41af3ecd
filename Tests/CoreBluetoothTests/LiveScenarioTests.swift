// Integration: every central and peripheral delegate method against the virtual peer's "OCB Alpha", values and errors.
@testable import CoreBluetooth
import Foundation
import PeerSupport
import Testing

/// The integration tests; serialized, they share one virtual peer (one controller each where they need their own).
@Suite(.serialized) struct LiveSuite {
    @Test func everyDelegateMethodAgainstThePeer() throws {
        let central = LiveCentral(transport: try LivePeer.transport(0))
        let recorder = central.recorder
        Self.scanAll(central)
        let alpha = try #require(central.queue.sync { recorder.discovered.last { $0.0.name == "OCB Alpha" }?.0 })
        // The peer's controller lists the extended scan and create-connection commands (every controller this
        // process brings up does: none of the suites here asks the peer for a legacy-only one).
        #expect(CBCentralManager.supports(.extendedScanAndConnect))

        // Deprecated retrieval callbacks (iOS 5-6) beside the current methods.
        #expect(central.manager.retrievePeripherals(withIdentifiers: [alpha.identifier]).first === alpha)
        #expect(central.request("retrieved ") { central.manager.deprecated.retrieveOld([alpha.identifier]) } == "retrieved 1")

        // Connect: MTU exchanged (517 offered and served): a Write Command could carry 514 bytes, an attribute value
        // is at most 512 (Core v5.4 Vol 3 Part F §3.2.9).
        #expect(central.request("connect") { central.manager.connect(alpha, options: nil) } == "connect")
        #expect(alpha.state == .connected)
        #expect(alpha.maximumWriteValueLength(for: .withoutResponse) == 512)
        #expect(alpha.maximumWriteValueLength(for: .withResponse) == 512)
        #expect(central.request("retrievedConnected ") { central.manager.deprecated.retrieveConnectedOld() } == "retrievedConnected 1")

        // Services (primary only, in handle order), included services, characteristics, descriptors.
        #expect(central.request("services ") { alpha.discoverServices(nil) }
                == "services [\"1800\", \"1801\", \"180A\", \"180F\", \"180D\", \"\(alphaUUID("0001"))\"]")
        let test = try #require(alpha.service(alphaUUID("0001")))
        #expect(central.request("included ") { alpha.discoverIncludedServices(nil, for: test) }
                == "included \(alphaUUID("0001")) [\"\(alphaUUID("0100"))\", \"1804\"]")
        #expect(test.includedServices?.first?.isPrimary == false)
        for service in alpha.services ?? [] {
            #expect(central.request("characteristics \(service.uuid.uuidString)") { alpha.discoverCharacteristics(nil, for: service) } != nil)
        }
        #expect(test.characteristics?.map(\.uuid.uuidString) == ["0002", "0003", "0004", "0005", "0006", "0007", "0008", "0009",
                                                                  "000A", "000B", "000C", "000D", "000E"].map(alphaUUID))
        let hello = try #require(alpha.characteristic(alphaUUID("0002")))
        #expect(central.request("descriptors ") { alpha.discoverDescriptors(for: hello) } == "descriptors \(alphaUUID("0002")) [\"2901\", \"2904\"]")
        let userDescription = try #require(hello.descriptors?.first)
        #expect(central.request("descriptorValue ") { alpha.readValue(for: userDescription) } == "descriptorValue 2901 Static read value")

        // Reads: the GAP name (also peripheralDidUpdateName when it differs), a plain value, a 512-byte long read.
        let deviceName = try #require(alpha.characteristic("2A00"))
        #expect(central.request("value 2A00") { alpha.readValue(for: deviceName) } == "value 2A00 \(Array("OCB Alpha".utf8))")
        #expect(central.request("value \(hello.uuid.uuidString)") { alpha.readValue(for: hello) }
                == "value \(hello.uuid.uuidString) \(Array("Hello, OpenCoreBluetooth".utf8))")
        let long = try #require(alpha.characteristic(alphaUUID("0003")))
        central.request("value \(long.uuid.uuidString)") { alpha.readValue(for: long) }
        #expect(long.value == Data((0..<512).map { UInt8($0 & 0xFF) }), "Read Blob continued to all 512 bytes")

        // Write with response, read back.
        let writable = try #require(alpha.characteristic(alphaUUID("0004")))
        #expect(central.request("wrote ") { alpha.writeValue(Data([0x0C, 0xB1, 0x07]), for: writable, type: .withResponse) }
                == "wrote \(writable.uuid.uuidString)")
        #expect(central.request("value ") { alpha.readValue(for: writable) } == "value \(writable.uuid.uuidString) [12, 177, 7]")

        // A writable descriptor: write, then read back.
        let reliable = try #require(alpha.characteristic(alphaUUID("0005")))
        central.request("descriptors ") { alpha.discoverDescriptors(for: reliable) }
        let writableDescription = try #require(reliable.descriptors?.first { $0.uuid == CBUUID(string: "2901") })
        #expect(central.request("wroteDescriptor ") { alpha.writeValue(Data("Renamed target".utf8), for: writableDescription) } == "wroteDescriptor 2901")
        #expect(central.request("descriptorValue ") { alpha.readValue(for: writableDescription) } == "descriptorValue 2901 Renamed target")

        // ATT errors on air keep their code (CBATTErrorDomain); property checks answer locally with iOS's codes.
        func error(of entry: String?) -> String? { entry?.components(separatedBy: " error=").dropFirst().first }
        let authentication = try #require(alpha.characteristic(alphaUUID("000C")))
        #expect(error(of: central.request("value ") { alpha.readValue(for: authentication) }) == "ATT.5")
        #expect(error(of: central.request("wrote ") { alpha.writeValue(Data([1]), for: authentication, type: .withResponse) }) == "ATT.5")
        let application = try #require(alpha.characteristic(alphaUUID("000D")))
        #expect(error(of: central.request("value ") { alpha.readValue(for: application) }) == "ATT.128")
        #expect(error(of: central.request("wrote ") { alpha.writeValue(Data([1]), for: application, type: .withResponse) }) == "ATT.128")
        let writeOnly = try #require(alpha.characteristic(alphaUUID("000A")))
        #expect(error(of: central.request("value ") { alpha.readValue(for: writeOnly) }) == "ATT.2", "not readable: Read Not Permitted")
        let readOnly = try #require(alpha.characteristic(alphaUUID("000B")))
        #expect(error(of: central.request("wrote ") { alpha.writeValue(Data([1]), for: readOnly, type: .withResponse) }) == "ATT.3",
                "not writable: Write Not Permitted")
        #expect(error(of: central.request("notifying ") { alpha.setNotifyValue(true, for: hello) }) == "ATT.6",
                "neither notify nor indicate: Request Not Supported")
        let controlPoint = try #require(alpha.characteristic("2A39"))
        #expect(error(of: central.request("wrote ") { alpha.writeValue(Data([0x02]), for: controlPoint, type: .withResponse) }) == "ATT.128")

        // Notifications (CCCD found by the backend: descriptors not discovered) arrive in order, then off.
        let notifyBurst = try #require(alpha.characteristic(alphaUUID("0007")))
        let burstControl = try #require(alpha.characteristic(alphaUUID("0009")))
        #expect(central.request("notifying ") { alpha.setNotifyValue(true, for: notifyBurst) } == "notifying \(notifyBurst.uuid.uuidString) true")
        #expect(notifyBurst.isNotifying)
        var mark = recorder.log.count
        central.request("wrote ") { alpha.writeValue(Data([0x01, 0x10, 0x00]), for: burstControl, type: .withResponse) }
        let burstPrefix = "value \(notifyBurst.uuid.uuidString) "
        let expected = (0..<16).map { "\(burstPrefix)\([UInt8($0), 0, 16, 0])" }
        _ = poll(within: 5) { central.entries(from: mark).filter { $0.hasPrefix(burstPrefix) }.count >= 16 }
        #expect(central.entries(from: mark).filter { $0.hasPrefix(burstPrefix) } == expected, "16 notifications, seq 0...15 in order")
        #expect(central.request("notifying ") { alpha.setNotifyValue(false, for: notifyBurst) } == "notifying \(notifyBurst.uuid.uuidString) false")
        // Indications likewise (confirmed by the host).
        let indicateBurst = try #require(alpha.characteristic(alphaUUID("0008")))
        #expect(central.request("notifying ") { alpha.setNotifyValue(true, for: indicateBurst) } == "notifying \(indicateBurst.uuid.uuidString) true")
        mark = recorder.log.count
        central.request("wrote ") { alpha.writeValue(Data([0x02, 0x03, 0x00]), for: burstControl, type: .withResponse) }
        let indicationPrefix = "value \(indicateBurst.uuid.uuidString) "
        _ = poll(within: 5) { central.entries(from: mark).filter { $0.hasPrefix(indicationPrefix) }.count >= 3 }
        #expect(central.entries(from: mark).filter { $0.hasPrefix(indicationPrefix) } == (0..<3).map { "\(indicationPrefix)\([UInt8($0), 0, 3, 0])" })

        // RSSI of the connection (HCI Read RSSI, Core v5.4 Vol 4 Part E §7.5.4: -127...20 dBm), answered by the peer.
        let rssi = try #require(central.request("rssi ") { alpha.readRSSI() })
        #expect(!rssi.contains("error="), "\(rssi)")
        #expect(Int(rssi.dropFirst(5)).map { (-127...20).contains($0) } == true, "\(rssi)")

        // The GAP name changes (peer control 04): the next read of 0x2A00 reports peripheralDidUpdateName.
        let control = try #require(alpha.characteristic(alphaUUID("000E")))
        central.request("wrote ") { alpha.writeValue(Data([0x04]) + Data("Alpha Prime".utf8), for: control, type: .withResponse) }
        mark = recorder.log.count
        central.request("value 2A00") { alpha.readValue(for: deviceName) }
        #expect(central.entries(from: mark).prefix(2) == ["name Alpha Prime", "value 2A00 \(Array("Alpha Prime".utf8))"])
        #expect(alpha.name == "Alpha Prime")

        // Service Changed (control 02 adds the dynamic service): didModifyServices, then rediscovery finds it;
        // a second toggle removes it and reports it invalidated.
        #expect(central.request("modified ") { alpha.writeValue(Data([0x02]), for: control, type: .withResponse) } == "modified []")
        central.request("services ") { alpha.discoverServices(nil) }
        let dynamic = try #require(alpha.service("0CB10200-7E57-4C0D-A9E5-0123456789AB"))
        #expect(central.request("modified ") { alpha.writeValue(Data([0x02]), for: control, type: .withResponse) }
                == "modified [\"0CB10200-7E57-4C0D-A9E5-0123456789AB\"]")
        #expect(dynamic.peripheral == nil || alpha.service("0CB10200-7E57-4C0D-A9E5-0123456789AB") == nil)

        // Writes without response until the controller's buffers are full; peripheralIsReady follows.
        let everything = try #require(alpha.characteristic(alphaUUID("0006")))
        mark = recorder.log.count
        for index in 0..<40 { alpha.writeValue(Data(repeating: UInt8(index), count: 512), for: everything, type: .withoutResponse) }
        #expect(central.wait(from: mark) { $0 == "ready" } == "ready", "27-byte × 64 ACL buffers fill with 40 × 512 bytes")
        #expect(central.request("value ") { alpha.readValue(for: everything) } == "value \(everything.uuid.uuidString) \([UInt8](repeating: 39, count: 512))",
                "the last write arrived whole, after the others (requests answer in order)")

        // Restore the peer's values (control 06), then the peer disconnects (control 01): CBError.peripheralDisconnected.
        central.request("wrote ") { alpha.writeValue(Data([0x06]), for: control, type: .withResponse) }
        mark = recorder.log.count
        alpha.writeValue(Data([0x01]), for: control, type: .withResponse)
        alpha.readValue(for: hello)
        #expect(central.wait(from: mark) { $0.hasPrefix("disconnect") } == "disconnect error=CB.7")
        #expect(alpha.state == .disconnected && alpha.services == nil)
        #expect(central.entries(from: mark).first == "wrote \(control.uuid.uuidString)")
        #expect(central.entries(from: mark).contains { $0.hasPrefix("value \(hello.uuid.uuidString)") }, "the queued read was answered too")

        // Connect again, then cancel: didDisconnectPeripheral with a nil error.
        #expect(central.request("connect") { central.manager.connect(alpha, options: nil) } == "connect")
        #expect(central.request("disconnect") { central.manager.cancelPeripheralConnection(alpha) } == "disconnect")
        #expect(alpha.state == .disconnected)
        #expect(recorder.offQueue == 0, "every callback ran on the manager's queue")
    }

    @Test func scanTheControllerRefusesReportsDidFailToScan() throws {
        // The controller answers LE Set Extended Scan Enable (the peer's controllers list the extended commands) with
        // 0x0C Command Disallowed: isScanning turns false and the Linux
        // addition didFailToScanWithError says why; a scan after the refusal ends works.
        let peer = try LivePeer.shared()
        let central = LiveCentral(transport: try LivePeer.transport(1), options: [CBCentralManagerOptionShowPowerAlertKey: false])
        #expect(central.wait { $0.hasPrefix("state ") } == "state poweredOn")
        try peer.refuse(opcode: 0x2042, status: 0x0C, controller: 1)
        defer { try? peer.refuse(opcode: 0x2042, status: 0, controller: 1) }
        let failed = central.request("failToScan") { central.manager.scanForPeripherals(withServices: nil) }
        #expect(failed == "failToScan scanning did not start: command 0x2042 LE Set Extended Scan Enable failed: 0x0C Command Disallowed: "
                + "the controller refused to scan; try again, or power-cycle the controller error=CB.0")
        #expect(central.queue.sync { central.manager.isScanning } == false)
        try peer.refuse(opcode: 0x2042, status: 0, controller: 1)
        #expect(central.request("discover OCB Alpha") { central.manager.scanForPeripherals(withServices: nil) } != nil)
        #expect(central.manager.isScanning)
        central.manager.stopScan()
    }

    @Test func silentControllerIsResetAndReinitialised() throws {
        // The controller drops LE Set Extended Scan Enable without an answer: after the 2 s command timeout the host
        // resets and re-initialises it (HCI Reset, Vol 4 Part E §7.3.2), the app sees .resetting then .poweredOn,
        // and a new scan (once the controller answers again) finds the peripherals.
        let peer = try LivePeer.shared()
        let central = LiveCentral(transport: try LivePeer.transport(1), options: [CBCentralManagerOptionShowPowerAlertKey: false])
        #expect(central.wait { $0.hasPrefix("state ") } == "state poweredOn")
        try peer.mute(opcode: 0x2042, controller: 1)
        defer { try? peer.unmute(controller: 1) }
        let mark = central.recorder.log.count
        central.manager.scanForPeripherals(withServices: nil)
        #expect(central.wait(from: mark, within: 5) { $0 == "state resetting" } != nil, "\(central.entries(from: mark))")
        #expect(central.entries(from: mark).first?.hasPrefix("failToScan scanning did not start: command 0x2042 LE Set Extended Scan Enable timed out") == true,
                "\(central.entries(from: mark))")
        #expect(central.manager.isScanning == false)
        try peer.unmute(controller: 1)
        #expect(central.wait(from: mark, within: 5) { $0 == "state poweredOn" } != nil, "\(central.entries(from: mark))")
        #expect(central.request("discover OCB Alpha") { central.manager.scanForPeripherals(withServices: nil) } != nil)
        central.manager.stopScan()
    }

    @Test func connectionThatFailsReportsDidFailToConnect() throws {
        // The controller stops answering LE (Extended) Create Connection: the host's 2 s command timeout fails the
        // attempt (status 0x22 LMP/LL Response Timeout) → didFailToConnect with CBError.connectionFailed.
        let peer = try LivePeer.shared()
        let central = LiveCentral(transport: try LivePeer.transport(1))
        #expect(central.wait { $0.hasPrefix("state ") } == "state poweredOn")
        central.request("discover OCB Alpha", within: 5) { central.manager.scanForPeripherals(withServices: [CBUUID(string: "180D")]) }
        central.manager.stopScan()
        let alpha = try #require(central.queue.sync { central.recorder.discovered.last { $0.0.name == "OCB Alpha" }?.0 })
        try peer.mute(opcode: 0x200D, controller: 1)
        try peer.mute(opcode: 0x2043, controller: 1)
        defer { try? peer.unmute(controller: 1) }
        #expect(central.request("failToConnect", within: 6) { central.manager.connect(alpha) } == "failToConnect error=CB.10",
                "\(central.entries(from: 0))")
        #expect(alpha.state == .disconnected)
    }
}
