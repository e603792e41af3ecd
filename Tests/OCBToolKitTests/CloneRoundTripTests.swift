// Clone a recorded device: decode --export-db, serve the file from the virtual peer, read it back through cbtool gatt.
import Foundation
import OCBGATT
import OCBToolKit
import PeerSupport
import Testing

@Suite(.serialized) struct CloneRoundTripTests {
    private static func object(_ line: Substring) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    @Test("export a capture's database, serve it as a clone, and cbtool gatt (CoreBluetooth) discovers the same database and reads the same values",
          arguments: ["wristband-read-blob-acl-fragments-smp", "treadmill-legacy-adv-notifications"])
    func roundTrip(_ capture: String) throws {
        let export = FileManager.default.temporaryDirectory.appendingPathComponent("clone-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: export) }
        let decode = try ToolRunner.run(["decode", Paths.captures.appendingPathComponent("\(capture).btsnoop").path, "--export-db", export])
        #expect(decode.status == 0, "\(decode.stderrLines)")
        let database = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: export))) as? [String: Any])
        #expect(database["format"] as? String == "opencorebluetooth-gatt-database")
        let peerInfo = try #require(database["peer"] as? [String: Any])
        let address = try #require(peerInfo["address"] as? String)
        let services = try #require(database["services"] as? [[String: Any]])
        #expect(!services.isEmpty)

        let peer = try VirtualPeer(controllers: 1, databases: [export])
        defer { peer.stop() }
        let gatt = try ToolRunner.run(["gatt", address, "--transport", "tcp:127.0.0.1:\(peer.port(0))", "--json", "--timeout", "10"])
        #expect(gatt.status == 0, "\(gatt.stderrLines) \(peer.stderrText())")
        let lines = gatt.stdout.split(separator: "\n").compactMap(Self.object)
        let servedServices = lines.filter { $0["type"] as? String == "service" }
        let servedCharacteristics = lines.filter { $0["type"] as? String == "characteristic" }

        // Services: the recorded handles, UUIDs and kinds.
        func serviceKey(_ s: [String: Any]) -> String { "\(s["start"] ?? "") \(s["end"] ?? "") \(s["uuid"] ?? "") \(s["primary"] ?? "")" }
        #expect(servedServices.map(serviceKey) == services.map(serviceKey))
        // Characteristics: handles, UUIDs, properties (cbtool names them), and each value the capture showed.
        let recorded = services.flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }
        #expect(servedCharacteristics.count == recorded.count)
        for (served, original) in zip(servedCharacteristics, recorded) {
            #expect(served["handle"] as? Int == original["handle"] as? Int)
            #expect(served["valueHandle"] as? Int == original["valueHandle"] as? Int)
            #expect(served["uuid"] as? String == original["uuid"] as? String)
            let properties = GATTCharacteristicProperties(rawValue: UInt8(truncatingIfNeeded: original["properties"] as? Int ?? 0))
            #expect(served["properties"] as? [String] == properties.names, "\(original)")
            if let value = original["value"] as? String, properties.contains(.read) {
                #expect(served["value"] as? String == value, "the value of \(original["uuid"] ?? "")")
            }
            let servedDescriptors = (served["descriptors"] as? [[String: Any]] ?? []).map { "\($0["handle"] ?? "") \($0["uuid"] ?? "")" }
            let recordedDescriptors = (original["descriptors"] as? [[String: Any]] ?? []).map { "\($0["handle"] ?? "") \($0["uuid"] ?? "")" }
            #expect(servedDescriptors == recordedDescriptors, "the descriptors of \(original["uuid"] ?? "")")
        }
    }

    @Test("decode --export-db to a file that cannot be written: one line naming it, exit 1")
    func exportToAnUnwritablePlace() throws {
        let run = try ToolRunner.run(["decode", Paths.captures.appendingPathComponent("wristband-read-blob-acl-fragments-smp.btsnoop").path,
                                      "--export-db", "/nonexistent-directory/clone.json"])
        #expect(run.status == 1)
        #expect(run.stderrLines.last?.hasPrefix("cbtool: error: cannot write /nonexistent-directory/clone.json: ") == true, "\(run.stderrLines)")
    }
}
