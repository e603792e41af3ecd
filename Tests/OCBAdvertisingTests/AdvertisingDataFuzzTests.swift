// Seeded fuzz tests of advertising data parsing: random and mutated real AD payloads in both parsing modes.

import Foundation
import Testing
import OCBAdvertising
import OCBCore
import OCBHCI
import FuzzSupport

@Suite struct AdvertisingDataFuzzTests {
    /// Every advertising and scan response payload of the fixture captures (legacy and extended reports).
    static var corpus: [[UInt8]] { CaptureCorpus.advertisingPayloads }

    /// Checks one input against both modes: strict agrees with lenient, and lenient keeps the well-formed prefix.
    static func check(_ bytes: [UInt8]) {
        let lenient = AdvertisingData(bytes: bytes)
        #expect(lenient.bytes == bytes)
        for diagnostic in lenient.diagnostics { #expect(diagnostic.offset >= 0 && diagnostic.offset <= bytes.count) }
        do {
            let strict = try AdvertisingData(bytes: bytes, mode: .strict)
            #expect(strict.structures == lenient.structures)
            #expect(lenient.diagnostics.isEmpty)
        } catch {
            // The first fault strict mode throws is the first one lenient mode reports.
            #expect(lenient.diagnostics.first == error)
            // The structures before the faulty one are well formed: strict mode takes them, lenient keeps every one.
            let faultyStart = Self.structureStart(containing: error.offset, in: bytes)
            let prefix = Array(bytes.prefix(faultyStart))
            if let clean = try? AdvertisingData(bytes: prefix, mode: .strict) {
                #expect(Array(lenient.structures.prefix(clean.structures.count)) == clean.structures)
            } else {
                Issue.record("the prefix before the first fault (\(faultyStart) of \(bytes.count) bytes) does not parse strictly")
            }
        }
        // Every accessor copes with whatever was parsed.
        _ = (lenient.localName, lenient.serviceUUIDs, lenient.solicitedServiceUUIDs, lenient.serviceData, lenient.manufacturerData,
             lenient.txPowerLevel, lenient.flags, lenient.appearance, lenient.iBeacon, lenient.eddystone)
        _ = MergedAdvertisement(advertisingData: lenient, scanResponse: lenient).serviceUUIDs
    }

    /// The offset of the length octet of the structure that holds `offset` (faults name offsets inside a structure).
    static func structureStart(containing offset: Int, in bytes: [UInt8]) -> Int {
        var start = 0
        while start < bytes.count {
            let next = start + 1 + Int(bytes[start])
            if offset < next || bytes[start] == 0 { return start }
            start = next
        }
        return min(start, bytes.count)
    }

    @Test func corpusIsNotEmpty() {
        #expect(Self.corpus.count > 20)
    }

    @Test(arguments: 0..<4)
    func randomBytes(seed: UInt64) {
        var random = FuzzRandom(seed: 0xAD00 + seed)
        for _ in 0..<1500 {
            // Legacy (31), extended (up to 1650 in a chain) and structured inputs: length octets that mostly fit.
            var bytes: [UInt8] = []
            if random.chance(50) {
                bytes = random.bytes(random.int(0...(random.chance(80) ? 31 : 255)))
            } else {
                for _ in 0..<random.int(1...6) {
                    let length = random.int(1...12)
                    bytes.append(UInt8(length + (random.chance(10) ? random.int(-1...2) : 0)))
                    bytes.append(random.chance(80) ? UInt8(random.int(0x00...0x31)) : random.edgeByte())
                    bytes += random.bytes(length - 1)
                }
            }
            Self.check(bytes)
        }
    }

    @Test(arguments: 0..<4)
    func mutatedCapturePayloads(seed: UInt64) {
        var random = FuzzRandom(seed: 0xAD10 + seed)
        let corpus = Self.corpus
        guard !corpus.isEmpty else { return }
        for payload in corpus { Self.check(payload) }
        for _ in 0..<2000 {
            Self.check(random.mutate(corpus[random.int(0...(corpus.count - 1))]))
        }
    }
}
