// Without the fuzzer: writes seed corpora from the fixture captures, or replays saved inputs through the targets.

#if !FUZZING
import Foundation
import OCBATT
import OCBHCI
import OCBL2CAP

@main
enum FuzzReplay {
    static let usage = """
        usage: FuzzHarness seeds DIR [FIXTURES]   write DIR/<target>/ seed inputs from FIXTURES/captures (default Fixtures)
               FuzzHarness FILE|DIR...            run saved inputs through the targets in OCB_FUZZ_TARGET (default all)
        """

    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let first = arguments.first else {
            print(usage)
            exit(2)
        }
        if first == "seeds", arguments.count >= 2 {
            try writeSeeds(to: arguments[1], fixtures: arguments.count > 2 ? arguments[2] : "Fixtures")
            return
        }
        let targets = FuzzTarget.selected(ProcessInfo.processInfo.environment["OCB_FUZZ_TARGET"])
        var count = 0
        for path in arguments {
            for file in files(at: path) {
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
                for target in targets { target.run(bytes) }
                count += 1
            }
        }
        print("\(count) input(s) through \(targets.map(\.name).joined(separator: ", ")): no invariant broken")
    }

    /// The file itself, or every regular file under a directory.
    static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }.filter {
            var inner: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &inner) && !inner.boolValue
        }
    }

    /// Distinct advertising payloads, events and ATT PDUs of every capture, and the small captures whole; for
    /// gatt-client each capture's received ATT PDUs after a discovery, and the hand-made sessions.
    static func writeSeeds(to directory: String, fixtures: String) throws {
        var seeds: [String: Set<[UInt8]>] = [:]
        let folder = fixtures + "/captures"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".btsnoop") }.sorted()
        for name in names {
            let path = folder + "/" + name
            let capture = try CaptureFile.read(path: path)
            if let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size < 40_000 {
                seeds["capture", default: []].insert([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            }
            var recombiner = L2CAPRecombiner()
            // h4-stream: a chunking seed byte, then the capture's first 64 packets as one H4 stream.
            seeds["h4-stream", default: []].insert([0x03] + capture.records.prefix(64).flatMap { $0.packet?.h4Bytes ?? [] })
            // l2cap: the capture's first 64 ACL packets in the target's encoding (control byte, then at most 31 bytes).
            var aclSeed: [UInt8] = []
            for record in capture.records.prefix(400) {
                guard let packet = record.packet, packet.type == .acl, let acl = try? HCIACLDataPacket(bytes: packet.bytes) else { continue }
                let data = acl.data.prefix(31)
                aclSeed += [acl.packetBoundary.rawValue | UInt8(data.count) << 3] + data
                if aclSeed.count > 2_000 { break }
            }
            if !aclSeed.isEmpty { seeds["l2cap", default: []].insert(aclSeed) }
            // gatt-client: Exchange MTU and a whole-database discovery, answered by the capture's received ATT PDUs.
            var gattSeed: [UInt8] = [0x07] + GATTClientInput.procedure(0, 517) + GATTClientInput.procedure(6, 0x0001, 0xFFFF)
            for record in capture.records {
                guard let packet = record.packet else { continue }
                if packet.type == .event {
                    seeds["hci-event", default: []].insert(packet.bytes)
                    if case .leMeta(let meta)? = try? HCIEvent(bytes: packet.bytes) {
                        switch meta {
                        case .advertisingReport(let event):
                            event.reports.forEach { seeds["advertising", default: []].insert($0.data); seeds["advertising-view", default: []].insert($0.data) }
                        case .extendedAdvertisingReport(let event):
                            event.reports.forEach { seeds["advertising", default: []].insert($0.data); seeds["advertising-view", default: []].insert($0.data) }
                        default: break
                        }
                    }
                } else if packet.type == .acl, record.direction == .received, let acl = try? HCIACLDataPacket(bytes: packet.bytes) {
                    for case .frame(let frame) in recombiner.receive(acl) where frame.channelID == .attributeProtocol {
                        seeds["att-pdu", default: []].insert(frame.payload)
                        if gattSeed.count + frame.payload.count < 500 { gattSeed += GATTClientInput.pdu(frame.payload) }
                    }
                }
            }
            seeds["gatt-client", default: []].insert(gattSeed)
        }
        GATTClientInput.handMadeSeeds.forEach { seeds["gatt-client", default: []].insert($0) }
        for (target, inputs) in seeds.sorted(by: { $0.key < $1.key }) {
            let targetDirectory = directory + "/" + target
            try FileManager.default.createDirectory(atPath: targetDirectory, withIntermediateDirectories: true)
            for (index, input) in inputs.sorted(by: { $0.lexicographicallyPrecedes($1) }).prefix(2000).enumerated() {
                try Data(input).write(to: URL(fileURLWithPath: targetDirectory + "/seed-\(index)"))
            }
            print("\(target): \(min(inputs.count, 2000)) seed(s) in \(targetDirectory)")
        }
    }
}
#endif
