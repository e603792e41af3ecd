// Third-party captures replayed tolerantly through the CoreBluetooth API: the app discovers the database the capture reveals.
@testable import CoreBluetooth
import Foundation
import Testing

@Suite(.serialized) struct TolerantReplayTests {
    /// The tshark-derived expectations of a capture (Fixtures/expected/decode, scripts/fixtures/decode_expectations.py).
    struct Expected {
        var peers: [String]
        var services: [String]
        var characteristics: [String]
        var descriptors: [String]

        init(capture: String) throws {
            let url = ReplayTests.root.appendingPathComponent("Fixtures/expected/decode/\(capture).json")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            func list(_ key: String) -> [[String: Any]] { json[key] as? [[String: Any]] ?? [] }
            peers = list("connections").compactMap { $0["peer"] as? String }
            services = list("services").compactMap { $0["uuid"] as? String }
            characteristics = list("characteristics").compactMap { entry in
                guard let uuid = entry["uuid"] as? String, let properties = entry["properties"] as? Int,
                      let handle = entry["valueHandle"] as? Int else { return nil }
                return "\(handle) \(uuid) \(properties)"
            }
            descriptors = list("descriptors").compactMap { $0["uuid"] as? String }
        }
    }

    @Test("a capture of another stack replays tolerantly: scan, connect, whole discovery reach the database tshark reads in it",
          arguments: ["bottle-legacy-conn-complete-adv-reports", "escooter-ext-adv-nonlegacy-acl-fragments",
                      "lock-legacy-adv-discovery-indications",
                      "scooter-ext-adv-mtu517-indications", "toy-legacy-conn-cycles-notify-heavy",
                      "treadmill-legacy-adv-notifications", "wristband-read-blob-acl-fragments-smp"])
    func captureReplaysTolerantly(_ capture: String) throws {
        // The toy's database changes between its 12 connections (tshark reads two versions of 0x180F and of the Device
        // Name): the replay reaches the first version, every part of which is in the union tshark lists.
        let oneVersion = capture != "toy-legacy-conn-cycles-notify-heavy"
        let expected = try Expected(capture: capture)
        let path = ReplayTests.root.appendingPathComponent("Fixtures/captures/\(capture).btsnoop").path
        let central = LiveCentral(transport: "replay-tolerant:" + path)
        #expect(central.wait(within: 5) { $0 == "state poweredOn" } != nil, "bring-up: \(central.recorder.log)")
        central.manager.scanForPeripherals(withServices: nil, options: nil)
        // The peer the capture connected to, as the app finds it: the first of the capture's connected peers that advertises.
        let peers = expected.peers.filter { $0 != "00:00:00:00:00:00" }
        func advertised() -> CBPeripheral? {
            central.queue.sync { central.recorder.discovered.first { entry in peers.contains { $0 == entry.0.address } }?.0 }
        }
        _ = poll(within: 5) { advertised() != nil }
        let peripheral = try #require(advertised(), "one of the capture's peers \(peers) advertises in it; discovered: \(central.queue.sync { central.recorder.discovered.prefix(8).map { $0.0.address ?? "?" } }), log \(central.recorder.log.prefix(4))")
        central.manager.stopScan()
        #expect(central.request("connect") { central.manager.connect(peripheral, options: nil) } == "connect")
        #expect(central.request("services ") { peripheral.discoverServices(nil) } != nil)
        for service in peripheral.services ?? [] {
            central.request("characteristics \(service.uuid.uuidString)") { peripheral.discoverCharacteristics(nil, for: service) }
        }
        let characteristics = (peripheral.services ?? []).flatMap { $0.characteristics ?? [] }
        for characteristic in characteristics {
            central.request("descriptors \(characteristic.uuid.uuidString)") { peripheral.discoverDescriptors(for: characteristic) }
        }
        let services = (peripheral.services ?? []).map(\.uuid.uuidString)
        let found = characteristics.map { "\($0.valueAttributeHandle) \($0.uuid.uuidString) \($0.properties.rawValue)" }
        let descriptors = characteristics.flatMap { $0.descriptors ?? [] }.map(\.uuid.uuidString)
        if oneVersion {
            #expect(services == expected.services)
            #expect(found == expected.characteristics)
            #expect(descriptors == expected.descriptors)
        } else {
            #expect(!services.isEmpty && services.allSatisfy(expected.services.contains), "\(services)")
            #expect(!found.isEmpty && found.allSatisfy(expected.characteristics.contains), "\(found)")
            #expect(descriptors.allSatisfy(expected.descriptors.contains), "\(descriptors)")
        }
        central.request("disconnect") { central.manager.cancelPeripheralConnection(peripheral) }
    }

    @Test("a tolerant replay says what it answered by default: one [CoreBluetooth] line per kind, naming the command")
    func tolerantReplayNamesWhatItMadeUp() throws {
        let lines = WarningCapture(marker: "replay (tolerant)")
        defer { lines.remove() }
        let path = ReplayTests.root.appendingPathComponent("Fixtures/captures/wristband-read-blob-acl-fragments-smp.btsnoop").path
        let central = LiveCentral(transport: "replay-tolerant:" + path)
        #expect(central.wait(within: 5) { $0 == "state poweredOn" } != nil)
        central.manager.scanForPeripherals(withServices: nil, options: nil)
        #expect(central.wait(within: 5) { $0.hasPrefix("discover Pokemon GO Plus") } != nil)
        // The phone never sent this stack's extended scan commands (it scanned with the legacy ones).
        #expect(poll(within: 2) { lines.lines.contains { $0.contains("command 0x2041 LE Set Extended Scan Parameters: answered as a plain controller would") } },
                "\(lines.lines)")
        #expect(Set(lines.lines).count == lines.lines.count, "each kind once")
        central.manager.stopScan()
    }
}
