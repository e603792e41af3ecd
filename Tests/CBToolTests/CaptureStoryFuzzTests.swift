// Seeded fuzz tests of the capture story decoder and renderer over mutated real captures and hostile timestamps.

import Foundation
import Testing
import BluetoothCore
import HCI
@testable import CBToolKit

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

/// A seeded SplitMix64 generator with byte-mutation helpers, so every fuzz case is reproducible from its seed.
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    mutating func byte() -> UInt8 { UInt8.random(in: 0...255, using: &self) }

    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<max(0, count)).map { _ in byte() } }

    /// A value at the edges where length and handle arithmetic breaks, or any byte.
    mutating func edgeByte() -> UInt8 { [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF, byte()][int(0...6)] }

    /// One to four mutations: bit flips, edge bytes, inserted, deleted or duplicated runs, truncation.
    mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0..<int(1...4) {
            switch int(0...6) {
            case 0 where !bytes.isEmpty:
                let index = int(0...(bytes.count - 1))
                bytes[index] ^= UInt8(1) << UInt8(int(0...7))
            case 1 where !bytes.isEmpty:
                bytes[int(0...(bytes.count - 1))] = edgeByte()
            case 2:
                bytes.insert(contentsOf: self.bytes(int(1...8)), at: int(0...bytes.count))
            case 3 where !bytes.isEmpty:
                let start = int(0...(bytes.count - 1))
                bytes.removeSubrange(start..<min(bytes.count, start + int(1...8)))
            case 4 where !bytes.isEmpty:
                let start = int(0...(bytes.count - 1))
                let run = Array(bytes[start..<min(bytes.count, start + int(1...16))])
                bytes.insert(contentsOf: run, at: int(0...bytes.count))
            case 5:
                bytes = Array(bytes.prefix(int(0...bytes.count)))
            default:
                bytes.append(contentsOf: self.bytes(int(0...4)))
            }
        }
        return bytes
    }
}
