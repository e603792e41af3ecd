// Every advertising payload of the eight captures, parsed leniently and compared with tshark's decoding
// (Fixtures/expected/advertising/*.json, made by scripts/fixtures/advertising_expectations.py).
import OCBAdvertising
import OCBCore
import Foundation
import Testing

struct CaptureExpectations: Decodable {
    struct Frame: Decodable {
        var frame: Int
        var report: String
        var ad: String
        var localNames: [String]
        var localNameBytes: [String]
        var serviceUUIDs: [String]
        var companyIDs: [String]
        var serviceDataUUIDs: [String]
        var truncatedAt: Int?
    }
    var frames: [Frame]

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/expected/advertising")

    static let captures = [
        "bottle-legacy-conn-complete-adv-reports", "escooter-ext-adv-nonlegacy-acl-fragments",
        "lock-legacy-adv-discovery-indications", "scooter-ext-adv-mtu517-indications",
        "toy-legacy-conn-cycles-notify-heavy", "toycar-acl-only-read-write",
        "treadmill-legacy-adv-notifications", "wristband-read-blob-acl-fragments-smp",
    ]
}

@Suite struct CaptureExpectationTests {
    @Test(arguments: CaptureExpectations.captures)
    func agreesWithTshark(capture: String) throws {
        let url = CaptureExpectations.directory.appendingPathComponent(capture + ".json")
        let expectations = try JSONDecoder().decode(CaptureExpectations.self, from: Data(contentsOf: url))
        if capture != "toycar-acl-only-read-write" { #expect(!expectations.frames.isEmpty) }
        for frame in expectations.frames {
            let bytes = try #require(Hex.bytes(frame.ad), "frame \(frame.frame)")
            let data = AdvertisingData(bytes: bytes)
            let context: Comment = "\(capture) frame \(frame.frame): \(frame.ad)"
            var names: [AdvertisedName] = []
            for structure in data.structures {
                if case .completeLocalName(let name) = structure { names.append(name) }
                if case .shortenedLocalName(let name) = structure { names.append(name) }
            }
            #expect(names.map { Hex.string($0.bytes) } == frame.localNameBytes, context)
            // tshark's text: compare where it is the plain UTF-8 of the bytes (no NUL, valid UTF-8).
            for (name, text) in zip(names, frame.localNames) where name.isValidUTF8 && !name.bytes.contains(0) {
                #expect(name.string == text, context)
            }
            #expect(data.serviceUUIDs.map(\.description) == Self.unique(frame.serviceUUIDs), context)
            #expect(data.manufacturerData.map { Hex.string([UInt8($0.companyID >> 8), UInt8($0.companyID & 0xFF)]).uppercased() }
                == frame.companyIDs, context)
            #expect(data.serviceDataList.map(\.uuid.description) == frame.serviceDataUUIDs, context)
            if let truncatedAt = frame.truncatedAt {
                #expect(data.diagnostics.contains { $0.offset == truncatedAt }, context)
            }
            // Everything parsed encodes back to the octets it came from, up to the first fault or padding.
            if data.diagnostics.isEmpty {
                #expect(data.structures.flatMap(\.bytes) == Array(bytes.prefix(data.structures.flatMap(\.bytes).count)), context)
            }
        }
    }

    static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }
}
