// The AD benchmark's Swift side: the typed advertising-data parse over an ADC1 corpus, and the captures' payloads.

import Foundation
import OCBAdvertising

/// `Benchmarks --write-ad-corpus FILE` and `Benchmarks --ad-corpus FILE [--passes N]` (scripts/bench-ad runs both).
/// The corpus format is scripts/bench/make_corpus.py's: `ADC1`, u32 count, then u16 length and bytes per payload.
enum ADCorpusBenchmark {
    /// Writes every advertising payload of the captures in `corpus` as an ADC1 file.
    static func write(_ corpus: Corpus, to path: String) -> Bool {
        var bytes: [UInt8] = Array("ADC1".utf8)
        let count = UInt32(corpus.advertisingData.count)
        bytes += [UInt8(count & 0xFF), UInt8((count >> 8) & 0xFF), UInt8((count >> 16) & 0xFF), UInt8(count >> 24)]
        for payload in corpus.advertisingData {
            let length = min(payload.count, Int(UInt16.max))
            bytes += [UInt8(length & 0xFF), UInt8(length >> 8)] + payload.prefix(length)
        }
        return FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    /// The payloads of an ADC1 file; nil when it is not one.
    static func read(_ path: String) -> [[UInt8]]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        guard bytes.count >= 8, bytes.prefix(4).elementsEqual("ADC1".utf8) else { return nil }
        let count = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        var payloads: [[UInt8]] = []
        payloads.reserveCapacity(count)
        var offset = 8
        while payloads.count < count, offset + 2 <= bytes.count {
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
            guard offset + 2 + length <= bytes.count else { return nil }
            payloads.append(Array(bytes[(offset + 2)..<(offset + 2 + length)]))
            offset += 2 + length
        }
        return payloads
    }

    /// Prints `swift-view` and `swift-typed` lines (`NAME NS_PER_AD CHECKSUM`): the best of `passes` passes of the
    /// in-place view's fields and of the lenient parse's typed accessors (name, service UUIDs, service data,
    /// manufacturer data, TX power) over every payload, as the C walk and the Python parsers do.
    static func run(_ payloads: [[UInt8]], passes: Int) {
        // The in-place view: one pass, the fields as ranges and counts (what the C walk computes).
        measure("swift-view", payloads, passes) { payload in
            let fields = AdvertisingDataView(payload).fields()
            return fields.serviceUUIDCount &+ fields.serviceDataCount &+ fields.manufacturerDataCount
                &+ (fields.localName == nil ? 0 : 1) &+ (fields.txPowerLevel == nil ? 0 : 1)
        }
        // The lenient parse with its typed accessors (an array per structure, a dictionary of service data).
        measure("swift-typed", payloads, passes) { payload in
            let parsed = AdvertisingData(bytes: payload)
            return parsed.serviceUUIDs.count &+ parsed.serviceData.count &+ parsed.manufacturerData.count
                &+ (parsed.localName == nil ? 0 : 1) &+ (parsed.txPowerLevel == nil ? 0 : 1)
        }
    }

    /// Prints `NAME NS_PER_AD CHECKSUM` for the best of `passes` passes of `body` over every payload.
    private static func measure(_ name: String, _ payloads: [[UInt8]], _ passes: Int, _ body: ([UInt8]) -> Int) {
        var best = Duration.seconds(1_000_000)
        var checksum = 0
        for _ in 0..<max(1, passes) {
            var total = 0
            let elapsed = ContinuousClock().measure {
                for payload in payloads { total &+= body(payload) }
            }
            if elapsed < best { best = elapsed }
            checksum = total
        }
        let nanoseconds = Double(best.components.seconds) * 1e9 + Double(best.components.attoseconds) / 1e9
        print(String(format: "%@ %.1f %d", name, nanoseconds / Double(max(1, payloads.count)), checksum))
    }
}
