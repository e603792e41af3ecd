// Seeded fuzz tests of the capture story decoder and renderer over mutated real captures and hostile timestamps.

import Foundation
import Testing
import OCBCore
import OCBHCI
@testable import OCBToolKit
import FuzzSupport

@Suite struct CaptureStoryFuzzTests {
    /// Tells the story of a capture in both output modes: every JSON line parses, the record count is the capture's.
    static func tell(_ capture: CaptureFile) {
        let story = CaptureStoryDecoder.story(of: capture)
        #expect(story.recordCount == capture.records.count)
        var text: [String] = []
        StoryRenderer.emit(story, name: "fuzz", to: OutputSink(mode: .text) { text.append($0) })
        #expect(!text.isEmpty)
        var json: [String] = []
        StoryRenderer.emit(story, name: "fuzz", to: OutputSink(mode: .jsonLines) { json.append($0) })
        for line in json {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
    }

    @Test(arguments: ["toycar-acl-only-read-write", "lock-legacy-adv-discovery-indications", "wristband-read-blob-acl-fragments-smp"])
    func mutatedCaptures(name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Paths.captures.appendingPathComponent(name + ".btsnoop")))
        var random = FuzzRandom(seed: UInt64(name.utf8.count) &* 0x5707)
        for _ in 0..<(bytes.count > 10_000 ? 25 : 120) {
            var mutated = bytes
            // Several scattered mutations, so damage lands inside events and ACL packets, not only in one record.
            for _ in 0..<random.int(1...6) {
                let at = random.int(16...(mutated.count - 1))
                mutated[at] = random.chance(50) ? mutated[at] ^ (UInt8(1) << UInt8(random.int(0...7))) : random.edgeByte()
            }
            if random.chance(20) { mutated = random.mutate(mutated) }
            guard let capture = try? CaptureFile.read(bytes: mutated) else { continue }
            Self.tell(capture)
        }
    }

    @Test func extremeTimestampsDoNotOverflow() throws {
        // btsnoop stores any 64-bit time: the first and last record (and a connection) at opposite ends of Int64.
        let connection: [UInt8] = [0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
                                   0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00]
        let disconnection: [UInt8] = [0x05, 0x04, 0x00, 0x40, 0x00, 0x13]
        for (first, last) in [(Int64.max, Int64.min), (Int64.min, Int64.max), (Int64.min, 0)] {
            let records = [
                CaptureRecord(timestamp: first, direction: .received, packet: HCIPacket(type: .event, bytes: connection)),
                CaptureRecord(timestamp: last, direction: .received, packet: HCIPacket(type: .event, bytes: disconnection)),
            ]
            let capture = try CaptureFile.read(bytes: BtsnoopWriter.file(records))
            #expect(capture.records.map(\.timestamp) == [first, last])
            Self.tell(capture)
        }
    }
}
