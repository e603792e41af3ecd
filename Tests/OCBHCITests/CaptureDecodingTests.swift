// Every HCI packet of the eight captures decodes or is kept raw, and the event counts equal tshark's
// (Fixtures/expected/hci/<capture>.json, written by scripts/fixtures/hci_expectations.py).

import OCBAdvertising
import OCBHCI
import Testing

/// What we count in a capture, with the key names of Fixtures/expected/hci/*.json (tshark's counts).
struct HCICaptureCounts: Decodable, Equatable {
    var legacyAdvertisingReports = 0
    var extendedAdvertisingReports = 0
    var connectionCompletes = 0
    var enhancedConnectionCompletes = 0
    var disconnectionCompletes = 0
    var numberOfCompletedPacketsEvents = 0
    var completedPackets = 0
    /// H4 packet types ("command", "acl", "event", ...).
    var packets: [String: Int] = [:]
    /// Events by code, two lower-case hex digits.
    var eventCodes: [String: Int] = [:]
    /// LE Meta events by subevent code, two lower-case hex digits.
    var leMetaSubevents: [String: Int] = [:]
}

/// A frame tshark marks malformed, with the event code and subevent tshark read in it.
struct TsharkMalformedFrame: Decodable {
    var frame: Int
    var eventCode: String?
    var subevent: String?
}

struct HCIExpectation: Decodable {
    var malformedFrames: [TsharkMalformedFrame]
}

@Suite struct CaptureDecodingTests {
    /// Our counts over every packet of a capture; each packet that fails to decode is recorded as an issue.
    static func counts(_ name: String) throws -> (counts: HCICaptureCounts, failures: Int) {
        var counts = HCICaptureCounts()
        var failures = 0
        let capture = try CaptureFixtures.read(name)
        #expect(capture.error == nil)
        for (index, record) in capture.records.enumerated() {
            guard let packet = record.packet else {
                failures += 1
                Issue.record("\(name) frame \(index + 1): no HCI packet in the record")
                continue
            }
            counts.packets[Self.typeName(packet.type), default: 0] += 1
            do {
                switch packet.type {
                case .command: _ = try HCIRawCommand(bytes: packet.bytes)
                case .acl: _ = try HCIACLDataPacket(bytes: packet.bytes)
                case .event: counts.add(try HCIEvent(packet: packet))
                case .sco, .iso: break  // kept raw: a BLE central handles neither
                }
            } catch {
                failures += 1
                Issue.record("\(name) frame \(index + 1): \(error)")
            }
        }
        return (counts, failures)
    }

    static func typeName(_ type: HCIPacketType) -> String {
        switch type {
        case .command: "command"
        case .acl: "acl"
        case .sco: "sco"
        case .event: "event"
        case .iso: "iso"
        }
    }

    @Test(arguments: CaptureFixtures.names)
    func everyPacketDecodesAndEventCountsEqualTsharks(name: String) throws {
        let expected = try CaptureFixtures.expected(HCICaptureCounts.self, folder: "hci", capture: name)
        let (ours, failures) = try Self.counts(name)
        #expect(failures == 0)
        #expect(ours.legacyAdvertisingReports == expected.legacyAdvertisingReports)
        #expect(ours.extendedAdvertisingReports == expected.extendedAdvertisingReports)
        #expect(ours.connectionCompletes == expected.connectionCompletes)
        #expect(ours.enhancedConnectionCompletes == expected.enhancedConnectionCompletes)
        #expect(ours.disconnectionCompletes == expected.disconnectionCompletes)
        #expect(ours.numberOfCompletedPacketsEvents == expected.numberOfCompletedPacketsEvents)
        #expect(ours.completedPackets == expected.completedPackets)
        #expect(ours.packets == expected.packets)
        #expect(ours.eventCodes == expected.eventCodes)
        #expect(ours.leMetaSubevents == expected.leMetaSubevents)
    }

    @Test func expectationsHoldTheHeadlineFiguresOfSOURCES() throws {
        // Guards against a regenerated file that lost its meaning: figures from Fixtures/captures/SOURCES.md.
        let toy = try CaptureFixtures.expected(HCICaptureCounts.self, folder: "hci", capture: "toy-legacy-conn-cycles-notify-heavy.btsnoop")
        #expect(toy.legacyAdvertisingReports == 382 && toy.connectionCompletes == 12 && toy.disconnectionCompletes == 11)
        #expect(toy.numberOfCompletedPacketsEvents == 9473)
        let scooter = try CaptureFixtures.expected(HCICaptureCounts.self, folder: "hci", capture: "scooter-ext-adv-mtu517-indications.btsnoop")
        #expect(scooter.extendedAdvertisingReports == 557 && scooter.enhancedConnectionCompletes == 4)
        let bottle = try CaptureFixtures.expected(HCICaptureCounts.self, folder: "hci", capture: "bottle-legacy-conn-complete-adv-reports.btsnoop")
        #expect(bottle.legacyAdvertisingReports == 2565 && bottle.connectionCompletes == 2)
    }

    /// tshark 4.0.17 marks two frames of bottle malformed (SOURCES.md, from an earlier tshark 4.0, says 10; this
    /// tshark's `-z expert` lists 2 errors and 1 warning, "Unknown command" on frame 52, which is not a malformation).
    /// Both are LE Advertising Reports whose HCI layout is sound: Data_Length 25, all 25 bytes present, RSSI after them.
    /// The fault is inside the advertising data: its first AD structure announces 32 bytes where 24 follow, and
    /// tshark's AD dissector throws. We decode the event and keep the report; the Advertising layer flags the AD bytes.
    @Test(arguments: CaptureFixtures.names)
    func framesTsharkCallsMalformedAreAdvertisingDataFaults(name: String) throws {
        let expectation = try CaptureFixtures.expected(HCIExpectation.self, folder: "hci", capture: name)
        let capture = try CaptureFixtures.read(name)
        if name.hasPrefix("bottle") {
            #expect(expectation.malformedFrames.map(\.frame) == [1493, 2181])
        } else {
            #expect(expectation.malformedFrames.isEmpty)
        }
        for malformed in expectation.malformedFrames {
            #expect(malformed.eventCode == "3e" && malformed.subevent == "02")
            guard malformed.frame >= 1, malformed.frame <= capture.records.count, let packet = capture.records[malformed.frame - 1].packet,
                  case .leMeta(.advertisingReport(let event)) = try HCIEvent(packet: packet), let report = event.reports.first else {
                Issue.record("\(name) frame \(malformed.frame): not an LE Advertising Report"); continue
            }
            #expect(event.reports.count == 1 && event.diagnostic == nil)
            #expect(report.data.count == 25 && report.data.first == 0x20)
            let data = AdvertisingData(bytes: report.data)
            #expect(data.diagnostics == [AdvertisingDataError(kind: .truncatedStructure(length: 32, available: 24), offset: 0)])
        }
    }

    @Test func toycarHasNoEvents() throws {
        let capture = try CaptureFixtures.read("toycar-acl-only-read-write.btsnoop")
        // 149 btsnoop records (tshark agrees; SOURCES.md rounds the ACL packets to 148).
        #expect(capture.records.count == 149 && capture.records.allSatisfy { $0.packet?.type == .acl })
    }

    @Test func extendedReportsOfTheCapturesReassembleWithoutLoss() throws {
        // Every report in escooter is complete or legacy, so reassembly delivers each one (tshark: 1242 reports).
        var reassembler = ExtendedAdvertisingReassembler()
        var delivered = 0
        for record in try CaptureFixtures.read("escooter-ext-adv-nonlegacy-acl-fragments.btsnoop").records {
            guard let packet = record.packet, packet.type == .event else { continue }
            if case .leMeta(.extendedAdvertisingReport(let event)) = try HCIEvent(packet: packet) {
                delivered += reassembler.add(event).reports.count
            }
        }
        #expect(delivered == 1242 && reassembler.pendingChainCount == 0)
    }
}

extension HCICaptureCounts {
    /// Counts one decoded event. A report event's diagnostic (a report cut short) is an issue: tshark saw none.
    mutating func add(_ event: HCIEvent) {
        let (code, subevent) = event.codes
        eventCodes[Self.hex(code), default: 0] += 1
        if let subevent { leMetaSubevents[Self.hex(subevent), default: 0] += 1 }
        switch event {
        case .leMeta(.advertisingReport(let reports)):
            legacyAdvertisingReports += reports.reports.count
            if let diagnostic = reports.diagnostic { Issue.record("advertising report: \(diagnostic)") }
        case .leMeta(.extendedAdvertisingReport(let reports)):
            extendedAdvertisingReports += reports.reports.count
            if let diagnostic = reports.diagnostic { Issue.record("extended advertising report: \(diagnostic)") }
        case .leMeta(.connectionComplete): connectionCompletes += 1
        case .leMeta(.enhancedConnectionComplete), .leMeta(.enhancedConnectionCompleteV2): enhancedConnectionCompletes += 1
        case .disconnectionComplete: disconnectionCompletes += 1
        case .numberOfCompletedPackets(let completed):
            numberOfCompletedPacketsEvents += 1
            completedPackets += completed.entries.reduce(0) { $0 + Int($1.completedPackets) }
            if let diagnostic = completed.diagnostic { Issue.record("Number Of Completed Packets: \(diagnostic)") }
        default: break
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return byte < 0x10 ? "0" + digits : digits
    }
}

extension HCIEvent {
    /// The event code and, for LE Meta, the subevent code of the case the decoder chose (Vol 4 Part E §7.7, §7.7.65).
    var codes: (code: UInt8, subevent: UInt8?) {
        switch self {
        case .disconnectionComplete: (0x05, nil)
        case .encryptionChange(let change): (change.encryptionKeySize == nil ? 0x08 : 0x59, nil)
        case .encryptionKeyRefreshComplete: (0x30, nil)
        case .readRemoteVersionInformationComplete: (0x0C, nil)
        case .commandComplete: (0x0E, nil)
        case .commandStatus: (0x0F, nil)
        case .hardwareError: (0x10, nil)
        case .numberOfCompletedPackets: (0x13, nil)
        case .dataBufferOverflow: (0x1A, nil)
        case .vendor: (0xFF, nil)
        case .unknown(let code, _): (code, nil)
        case .leMeta(let meta): (0x3E, meta.subeventCode)
        }
    }
}

extension LEMetaEvent {
    var subeventCode: UInt8 {
        switch self {
        case .connectionComplete: 0x01
        case .advertisingReport: 0x02
        case .connectionUpdateComplete: 0x03
        case .readRemoteFeaturesComplete: 0x04
        case .longTermKeyRequest: 0x05
        case .remoteConnectionParameterRequest: 0x06
        case .dataLengthChange: 0x07
        case .enhancedConnectionComplete: 0x0A
        case .directedAdvertisingReport: 0x0B
        case .phyUpdateComplete: 0x0C
        case .extendedAdvertisingReport: 0x0D
        case .scanTimeout: 0x11
        case .channelSelectionAlgorithm: 0x14
        case .enhancedConnectionCompleteV2: 0x29
        case .unknown(let subevent, _): subevent
        }
    }
}
