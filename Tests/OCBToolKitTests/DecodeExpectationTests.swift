// `decode` on every bundled capture against tshark's decoding (Fixtures/expected/decode, scripts/fixtures/decode_expectations.py).

import OCBCore
import OCBToolKit
import Foundation
import OCBHCI
import Testing

/// The expectation file's shape (see scripts/fixtures/decode_expectations.py).
struct DecodeExpectation: Decodable {
    struct Advertiser: Decodable { var names: [String]; var fragmented: Bool }
    struct Connection: Decodable { var handle: Int; var peer: String; var central: Bool }
    struct Disconnection: Decodable { var handle: Int; var reason: Int }
    struct Service: Decodable, Hashable { var start: Int; var end: Int; var uuid: String; var primary: Bool }
    struct Characteristic: Decodable, Hashable { var handle: Int; var valueHandle: Int; var uuid: String; var properties: Int }
    struct Descriptor: Decodable, Hashable { var handle: Int; var uuid: String }
    struct Counts: Decodable, Hashable { var reads: Int; var writes: Int; var notifications: Int; var indications: Int }

    var advertisers: [String: Advertiser]
    var connections: [Connection]
    var disconnections: [Disconnection]
    var services: [Service]
    var characteristics: [Characteristic]
    var descriptors: [Descriptor]
    var counts: [String: Counts]
    /// ATT PDUs on CID 0x0004 per direction ("sent", "received") and opcode ("0x0a").
    var opcodes: [String: [String: Int]]
    /// The ATT_MTU of each Exchange MTU, in capture order.
    var mtus: [Int]
    /// Error Responses per direction and "request opcode/handle/error code" ("0x08/0x0001/0x0a").
    var errors: [String: [String: Int]]

    static func load(_ name: String) throws -> DecodeExpectation {
        try JSONDecoder().decode(DecodeExpectation.self, from: Data(contentsOf: Paths.expected.appendingPathComponent(name + ".json")))
    }
}

func story(_ name: String) throws -> CaptureStory {
    CaptureStoryDecoder.story(of: try CaptureFile.read(path: Paths.captures.appendingPathComponent(name + ".btsnoop").path))
}

@Suite("decode against tshark")
struct DecodeExpectationTests {
    @Test("advertisers and their names", arguments: Paths.captureNames)
    func advertisers(_ name: String) throws {
        let expected = try DecodeExpectation.load(name)
        let story = try story(name)
        #expect(Set(story.advertisers.map(\.address.description)) == Set(expected.advertisers.keys))
        for advertiser in story.advertisers {
            guard let want = expected.advertisers[advertiser.address.description], !want.fragmented else { continue }
            #expect(Set(advertiser.names) == Set(want.names), "\(name) \(advertiser.address)")
        }
    }

    @Test("connections and disconnections", arguments: Paths.captureNames)
    func connections(_ name: String) throws {
        let expected = try DecodeExpectation.load(name)
        let story = try story(name)
        let announced = story.connections.filter(\.isAnnounced)
        #expect(announced.map { Int($0.handle.rawValue) } == expected.connections.map(\.handle))
        #expect(announced.map { $0.peerAddress?.description ?? "" } == expected.connections.map(\.peer))
        #expect(announced.map { $0.isCentral ?? false } == expected.connections.map(\.central))
        let closed = story.connections.filter { $0.disconnectedAt != nil }.sorted { ($0.disconnectedAt ?? 0) < ($1.disconnectedAt ?? 0) }
        #expect(closed.map { Int($0.handle.rawValue) } == expected.disconnections.map(\.handle))
        #expect(closed.map { Int($0.reason?.rawValue ?? 0) } == expected.disconnections.map(\.reason))
    }

    @Test("the GATT database the capture reveals", arguments: Paths.captureNames)
    func database(_ name: String) throws {
        let expected = try DecodeExpectation.load(name)
        let story = try story(name)
        let services = Set(story.peers.flatMap(\.services).map {
            DecodeExpectation.Service(start: Int($0.startHandle.rawValue), end: Int($0.endHandle.rawValue), uuid: $0.uuid.description, primary: $0.isPrimary)
        })
        #expect(services == Set(expected.services))
        let characteristics = story.peers.flatMap(\.allCharacteristics)
        #expect(Set(characteristics.map {
            DecodeExpectation.Characteristic(handle: Int($0.declarationHandle.rawValue), valueHandle: Int($0.valueHandle.rawValue),
                                             uuid: $0.uuid.description, properties: Int($0.properties.rawValue))
        }) == Set(expected.characteristics))
        let descriptors = characteristics.flatMap(\.descriptors) + story.peers.flatMap(\.orphanDescriptors)
        #expect(Set(descriptors.map { DecodeExpectation.Descriptor(handle: Int($0.handle.rawValue), uuid: $0.uuid.description) })
                == Set(expected.descriptors))
    }

    @Test("reads, writes, notifications and indications per handle", arguments: Paths.captureNames)
    func counts(_ name: String) throws {
        let expected = try DecodeExpectation.load(name)
        let story = try story(name)
        var counts: [String: DecodeExpectation.Counts] = [:]
        for counter in story.peers.flatMap(\.counters) {
            let key = String(GATTText.handle(counter.handle).dropFirst(2))
            var entry = counts[key] ?? DecodeExpectation.Counts(reads: 0, writes: 0, notifications: 0, indications: 0)
            entry.reads += counter.reads
            entry.writes += counter.writes
            entry.notifications += counter.notifications
            entry.indications += counter.indications
            counts[key] = entry
        }
        counts = counts.filter { $0.value.reads + $0.value.writes + $0.value.notifications + $0.value.indications > 0 }
        #expect(counts == expected.counts)
    }

    @Test("ATT PDUs per opcode, the ATT_MTU of each exchange, and the Error Responses", arguments: Paths.captureNames)
    func attTraffic(_ name: String) throws {
        let expected = try DecodeExpectation.load(name)
        let story = try story(name)
        func sum(_ pick: (StoryConnection) -> [UInt8: Int]) -> [String: Int] {
            story.connections.reduce(into: [:]) { total, connection in
                for (opcode, count) in pick(connection) { total["0x" + Hex.string([opcode]), default: 0] += count }
            }
        }
        #expect(sum(\.sentOpcodes) == expected.opcodes["sent"], "\(name)")
        #expect(sum(\.receivedOpcodes) == expected.opcodes["received"], "\(name)")
        #expect(story.connections.flatMap(\.mtuExchanges).sorted() == expected.mtus.sorted(), "\(name)")
        var errors: [String: [String: Int]] = ["sent": [:], "received": [:]]
        for error in story.connections.flatMap(\.attErrors) {
            let key = "0x" + Hex.string([error.requestOpcode.rawValue]) + "/0x" + Hex.string([UInt8(error.handle.rawValue >> 8), UInt8(error.handle.rawValue & 0xFF)])
                + "/0x" + Hex.string([error.error.rawValue])
            errors[error.direction == .sent ? "sent" : "received", default: [:]][key, default: 0] += error.count
        }
        #expect(errors == expected.errors, "\(name)")
    }

    @Test("the unannounced connection of an ACL-only capture is kept, with its traffic")
    func aclOnly() throws {
        let story = try story("toycar-acl-only-read-write")
        #expect(!story.connections.isEmpty)
        #expect(story.connections.allSatisfy { !$0.isAnnounced && $0.peerAddress == nil })
        // 57 Write Commands and 6 notifications (Fixtures/captures/SOURCES.md).
        #expect(story.peers.flatMap(\.counters).reduce(0) { $0 + $1.writeCommands } == 57)
        #expect(story.peers.flatMap(\.counters).reduce(0) { $0 + $1.notifications } == 6)
    }

    @Test("pcap and pcapng variants of the lock capture tell the same story as the btsnoop")
    func derivedFormats() throws {
        let original = try story("lock-legacy-adv-discovery-indications")
        for variant in ["lock.pcap", "lock.pcapng"] {
            let path = Paths.root.appendingPathComponent("Fixtures/captures-derived/" + variant).path
            let other = CaptureStoryDecoder.story(of: try CaptureFile.read(path: path))
            #expect(other.advertisers.map(\.address) == original.advertisers.map(\.address), "\(variant)")
            #expect(other.connections.map(\.handle) == original.connections.map(\.handle), "\(variant)")
            #expect(other.peers.map(\.services) == original.peers.map(\.services), "\(variant)")
            #expect(other.peers.map(\.counters) == original.peers.map(\.counters), "\(variant)")
        }
    }
}
