// Seeded fuzz tests of capture reading: bit flips, corrupted length fields, truncations and insertions in real captures.

import Foundation
import FuzzSupport
import Testing
@testable import OCBHCI

@Suite struct CaptureFuzzTests {
    /// A capture's bytes, its records as read, and where each record ends in the file.
    struct Original {
        var bytes: [UInt8]
        var records: [CaptureRecord]
        var ends: [Int]
        var lengthFields: [Int]
    }

    /// Reads a fixture and lays out its records: btsnoop (16-byte header, 24-byte record headers) or pcap (24, 16).
    static func original(_ name: String, folder: String = "captures") throws -> Original {
        let bytes = try CaptureFixtures.bytes(name, folder: folder)
        let capture = try CaptureFile.read(bytes: bytes)
        let (header, recordHeader, lengthAt) = name.hasSuffix(".pcap") ? (24, 16, 8) : (16, 24, 4)
        var ends: [Int] = []
        var lengthFields: [Int] = []
        var offset = header
        for record in capture.records {
            lengthFields.append(offset + lengthAt)
            offset += recordHeader + record.data.count
            ends.append(offset)
        }
        #expect(offset == bytes.count)
        return Original(bytes: bytes, records: capture.records, ends: ends, lengthFields: lengthFields)
    }

    /// One mutation at a known place: the first byte offset it changes.
    static func mutate(_ original: Original, _ random: inout FuzzRandom) -> (bytes: [UInt8], at: Int) {
        var bytes = original.bytes
        switch random.int(0...5) {
        case 0:
            let at = random.int(0...(bytes.count - 1))
            bytes[at] ^= UInt8(1) << UInt8(random.int(0...7))
            return (bytes, at)
        case 1, 2:
            // An included (or original) length field of one record set to an edge or random value.
            let field = original.lengthFields[random.int(0...(original.lengthFields.count - 1))] + (random.chance(70) ? 0 : -4)
            let values: [UInt32] = [0, 1, 3, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, UInt32(truncatingIfNeeded: random.next() % 70_000)]
            let value = values[random.int(0...(values.count - 1))]
            let bigEndian = !original.bytes.starts(with: [0xD4, 0xC3, 0xB2, 0xA1])
            for index in 0..<4 {
                let shift = bigEndian ? (3 - index) * 8 : index * 8
                bytes[field + index] = UInt8(truncatingIfNeeded: value >> UInt32(shift))
            }
            return (bytes, field)
        case 3:
            let at = random.int(0...bytes.count)
            return (Array(bytes.prefix(at)), at)
        case 4:
            let at = random.int(0...bytes.count)
            bytes.insert(contentsOf: random.bytes(random.int(1...30)), at: at)
            return (bytes, at)
        default:
            let at = random.int(0...(bytes.count - 1))
            bytes.removeSubrange(at..<min(bytes.count, at + random.int(1...30)))
            return (bytes, at)
        }
    }

    /// Reads a mutated capture: no trap, records bounded by the bytes, and every record before the damage kept as it was.
    static func check(_ original: Original, mutated bytes: [UInt8], at damage: Int, recordHeader: Int) {
        let capture: CaptureFile
        do {
            capture = try CaptureFile.read(bytes: bytes)
        } catch {
            // Only the file header can make the whole file unreadable.
            #expect(damage < 24)
            return
        }
        #expect(capture.records.count <= bytes.count / recordHeader)
        let intact = original.ends.prefix { $0 <= damage }.count
        #expect(capture.records.count >= intact)
        #expect(Array(capture.records.prefix(intact)) == Array(original.records.prefix(intact)))
        if capture.error == nil, bytes.count == original.bytes.count {
            #expect(capture.records.count == original.records.count)
        }
        for record in capture.records {
            #expect(record.originalLength >= 0)
            _ = record.isTruncated
        }
    }

    @Test(arguments: ["toycar-acl-only-read-write.btsnoop", "lock-legacy-adv-discovery-indications.btsnoop",
                      "wristband-read-blob-acl-fragments-smp.btsnoop"])
    func mutatedBtsnoop(name: String) throws {
        let original = try Self.original(name)
        var random = FuzzRandom(seed: UInt64(name.utf8.count) &* 0x9E37)
        for _ in 0..<(original.bytes.count > 10_000 ? 150 : 600) {
            let (bytes, at) = Self.mutate(original, &random)
            Self.check(original, mutated: bytes, at: at, recordHeader: 24)
        }
    }

    @Test func mutatedPcap() throws {
        let original = try Self.original("lock.pcap", folder: "captures-derived")
        var random = FuzzRandom(seed: 0xCAB)
        for _ in 0..<150 {
            let (bytes, at) = Self.mutate(original, &random)
            Self.check(original, mutated: bytes, at: at, recordHeader: 16)
        }
    }

    @Test func mutatedPcapng() throws {
        let bytes = try CaptureFixtures.bytes("lock.pcapng", folder: "captures-derived")
        let complete = try CaptureFile.read(bytes: bytes)
        var random = FuzzRandom(seed: 0xB10C)
        for _ in 0..<200 {
            var mutated = random.mutate(bytes)
            // Corrupt a block length or an option length inside the first blocks too.
            if random.chance(40), mutated.count > 200 { mutated[random.int(4...200)] = random.edgeByte() }
            guard let capture = try? CaptureFile.read(bytes: mutated) else { continue }
            // A pcapng block is at least 12 bytes and each block gives one record at most.
            #expect(capture.records.count <= mutated.count / 12)
            #expect(capture.records.count <= complete.records.count + mutated.count / 12)
        }
        // Every resolution exponent, decimal and binary, converts without trapping.
        for resolution in 0...255 {
            for units: UInt64 in [0, 1, 1_000_000, UInt64(Int64.max), UInt64.max] {
                _ = PcapngReader.microseconds(units, resolution: UInt8(resolution))
            }
        }
    }
}
