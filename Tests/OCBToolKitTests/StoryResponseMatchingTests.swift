// decode pairs an ATT response with the request it answers: a stray Error Response does not take the pending one's place.

import OCBCore
import OCBGATT
import OCBHCI
@testable import OCBToolKit
import Foundation
import Testing

@Suite struct StoryResponseMatchingTests {
    /// LE Connection Complete (Core v5.4 Vol 4 Part E §7.7.65.1): handle 0x0040, central, random C1:A0:00:00:00:01.
    private let connected = CaptureRecord(timestamp: 0, direction: .received, packet: HCIPacket(type: .event, bytes:
        [0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0xA0, 0xC1, 0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00]))

    /// An ACL packet on handle 0x0040 (first, automatically flushable) carrying `att` on the ATT channel (CID 0x0004).
    private func att(_ att: [UInt8], _ direction: CaptureDirection, at time: Int64) -> CaptureRecord {
        let l2cap: [UInt8] = [UInt8(att.count), 0x00, 0x04, 0x00] + att
        let acl: [UInt8] = [0x40, 0x20, UInt8(l2cap.count), 0x00] + l2cap
        return CaptureRecord(timestamp: time, direction: direction, packet: HCIPacket(type: .acl, bytes: acl))
    }

    @Test func anErrorResponseNamingAnotherRequestLeavesThePendingOneToItsAnswer() throws {
        let records = [
            connected,
            // Read By Group Type Request 0x0001-0xFFFF, «Primary Service» (Vol 3 Part F §3.4.4.9).
            att([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28], .sent, at: 1),
            // An Error Response naming a Write Request (0x12) on 0x0010, Write Not Permitted: it answers another
            // request (a late answer, a peer's bug), not the one pending.
            att([0x01, 0x12, 0x10, 0x00, 0x03], .received, at: 2),
            // The real answer: Battery Service 0x180F at 0x0001-0x0005 (§3.4.4.10, length 6).
            att([0x11, 0x06, 0x01, 0x00, 0x05, 0x00, 0x0F, 0x18], .received, at: 3),
        ]
        let story = CaptureStoryDecoder.story(of: CaptureFile(format: .btsnoop(datalink: 1002), records: records, error: nil))
        let services = try #require(story.peers.first).services.map(\.service)
        #expect(services == [GATTService(uuid: BluetoothUUID(0x180F), isPrimary: true, startHandle: 0x0001, endHandle: 0x0005)])
        #expect(story.problems == ["ATT response that answers no pending request": 1])
        // Its own Error Response does end the request: Attribute Not Found after a second discovery request.
        let ended = records + [
            att([0x10, 0x06, 0x00, 0xFF, 0xFF, 0x00, 0x28], .sent, at: 4),
            att([0x01, 0x10, 0x06, 0x00, 0x0A], .received, at: 5),
            att([0x11, 0x06, 0x06, 0x00, 0x09, 0x00, 0x0D, 0x18], .received, at: 6),
        ]
        let second = CaptureStoryDecoder.story(of: CaptureFile(format: .btsnoop(datalink: 1002), records: ended, error: nil))
        #expect(second.peers.first?.services.count == 1, "the response after the request's own error answers nothing")
        #expect(second.problems == ["ATT response that answers no pending request": 2])
    }

    @Test func queuedWritesAreCountedAsWritesWithTheValueTheyLeave() throws {
        // A long write of 22 bytes to 0x0010 (Vol 3 Part F §3.4.6): Prepare Write at offsets 0 (18 bytes) and 18 (4),
        // each echoed, then Execute Write 0x01 and its response. Then a queue to 0x0012 that is cancelled (0x00).
        let value = Array(UInt8(0x41)...UInt8(0x56))
        func prepare(_ handle: UInt8, _ offset: UInt8, _ part: ArraySlice<UInt8>) -> [UInt8] { [0x16, handle, 0x00, offset, 0x00] + part }
        func echo(_ handle: UInt8, _ offset: UInt8, _ part: ArraySlice<UInt8>) -> [UInt8] { [0x17, handle, 0x00, offset, 0x00] + part }
        let records = [
            connected,
            // Discovery first, so the database shows the value: service 0xFFF0 at 0x000E-0x0012 (Read By Group Type),
            // characteristic 0xFFF1 declared at 0x000F, Write (0x08), value at 0x0010 (Read By Type of 0x2803).
            att([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28], .sent, at: 1),
            att([0x11, 0x06, 0x0E, 0x00, 0x12, 0x00, 0xF0, 0xFF], .received, at: 1),
            att([0x08, 0x0E, 0x00, 0x12, 0x00, 0x03, 0x28], .sent, at: 1),
            att([0x09, 0x07, 0x0F, 0x00, 0x08, 0x10, 0x00, 0xF1, 0xFF], .received, at: 1),
            att(prepare(0x10, 0, value[0..<18]), .sent, at: 1), att(echo(0x10, 0, value[0..<18]), .received, at: 2),
            att(prepare(0x10, 18, value[18...]), .sent, at: 3), att(echo(0x10, 18, value[18...]), .received, at: 4),
            att([0x18, 0x01], .sent, at: 5), att([0x19], .received, at: 6),
            att(prepare(0x12, 0, [0x01, 0x02]), .sent, at: 7), att(echo(0x12, 0, [0x01, 0x02]), .received, at: 8),
            att([0x18, 0x00], .sent, at: 9), att([0x19], .received, at: 10),
        ]
        // tshark reads the same PDUs: opcodes, handles and offsets.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-queued-\(UUID().uuidString).btsnoop")
        try Data(BtsnoopWriter.file(records)).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let tshark = try TShark.fields(path.path, filter: "btatt", ["btatt.opcode", "btatt.handle", "btatt.offset"])
        #expect(tshark.status == 0, "tshark (scripts/setup installs it)")
        #expect(tshark.rows == [
            ["0x10", "", ""], ["0x11", "0x000e", ""], ["0x08", "", ""], ["0x09", "0x000f,0x0010", ""],
            ["0x16", "0x0010", "0"], ["0x17", "0x0010", "0"], ["0x16", "0x0010", "18"], ["0x17", "0x0010", "18"], ["0x18", "", ""],
            ["0x19", "", ""], ["0x16", "0x0012", "0"], ["0x17", "0x0012", "0"], ["0x18", "", ""], ["0x19", "", ""],
        ])

        let story = CaptureStoryDecoder.story(of: CaptureFile(format: .btsnoop(datalink: 1002), records: records, error: nil))
        let peer = try #require(story.peers.first)
        let counter = try #require(peer.counters.first { $0.handle == 0x0010 })
        #expect(counter.queuedWrites == 1 && counter.writes == 1)
        #expect(!peer.counters.contains { $0.handle == 0x0012 && $0.writes > 0 }, "a cancelled queue writes nothing")
        #expect(story.problems.isEmpty)
        // The value written is shown: decode's text names the queued write, and the JSON counts it.
        let run = try ToolRunner.run(["decode", path.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("0x0010 FFF1: 1 write (0 with response, 0 without, 1 queued)"), "\(run.stdout)")
        #expect(run.stdout.contains(Hex.string(value)) || run.stdout.contains("ABCDEFGHIJKLMNOPQRSTUV"), "\(run.stdout)")
        let json = try ToolRunner.run(["decode", path.path, "--json"])
        #expect(json.stdoutLines.contains { $0.contains(#""handle":16"#) && $0.contains(#""queuedWrites":1"#) }, "\(json.stdout)")
    }

    @Test func dataThatIsNotATTOnAHandleNoConnectionOpenedIsNoConnection() throws {
        // Handle 0x0040 is announced; handle 0x0EDC never is, and carries bytes that frame as L2CAP on CID 0x0004
        // but are no ATT PDU (opcode 0xFF is not defined): a controller's diagnostics, not a second connection.
        let vendor: [UInt8] = [0xDC, 0x2E, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0xFF, 0x00, 0x01]
        let records = [
            connected,
            CaptureRecord(timestamp: 1, direction: .received, packet: HCIPacket(type: .acl, bytes: vendor)),
            att([0x0A, 0x03, 0x00], .sent, at: 2),
        ]
        let story = CaptureStoryDecoder.story(of: CaptureFile(format: .btsnoop(datalink: 1002), records: records, error: nil))
        #expect(story.connections.map(\.handle.rawValue) == [0x0040])
        #expect(story.problems == ["ACL data that is not ATT on a handle no connection event opened (vendor diagnostics?)": 1])
        // The same handle with a real ATT PDU (a capture started during a connection) is an unannounced connection.
        let real = records + [CaptureRecord(timestamp: 3, direction: .sent, packet: HCIPacket(type: .acl,
                                            bytes: [0xDC, 0x2E, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00]))]
        let started = CaptureStoryDecoder.story(of: CaptureFile(format: .btsnoop(datalink: 1002), records: real, error: nil))
        #expect(started.connections.map(\.handle.rawValue) == [0x0040, 0x0EDC])
        #expect(started.connections.last?.isAnnounced == false)
    }

    @Test func queuedWritesFollowTheServersQueue() throws {
        // Parts out of order and overlapping, a part the peer refused (Prepare Queue Full, 0x09), and an execute that
        // was never answered (its queue is gone on the server all the same).
        func prepare(_ handle: UInt8, _ offset: UInt8, _ part: [UInt8], at time: Int64) -> [CaptureRecord] {
            [att([0x16, handle, 0x00, offset, 0x00] + part, .sent, at: time), att([0x17, handle, 0x00, offset, 0x00] + part, .received, at: time)]
        }
        var records = [connected]
        records += prepare(0x10, 4, [0x45, 0x46, 0x47, 0x48], at: 1)            // "EFGH" at 4
        records += prepare(0x10, 0, [0x41, 0x42, 0x43, 0x44, 0x58], at: 2)      // "ABCDX" at 0: X lies under E
        records += prepare(0x10, 4, [0x45], at: 3)                              // "E" at 4 again: later wins
        records += [att([0x16, 0x11, 0x00, 0x00, 0x00, 0x01], .sent, at: 4), att([0x01, 0x16, 0x11, 0x00, 0x09], .received, at: 4)]
        records += [att([0x18, 0x01], .sent, at: 5), att([0x19], .received, at: 6)]
        // A queue for 0x0012 whose execute gets no answer; then one for 0x0013 that is executed.
        records += prepare(0x12, 0, [0x01], at: 7)
        records += [att([0x18, 0x01], .sent, at: 8)]
        records += prepare(0x13, 0, [0x02], at: 9)
        records += [att([0x18, 0x01], .sent, at: 10), att([0x19], .received, at: 11)]
        let story = CaptureStoryDecoder.story(of: CaptureFile(format: .btsnoop(datalink: 1002), records: records, error: nil))
        let peer = try #require(story.peers.first)
        func counter(_ handle: UInt16) -> AttributeCounter? { peer.counters.first { $0.handle.rawValue == handle } }
        #expect(counter(0x10)?.queuedWrites == 1)
        #expect(counter(0x11)?.writes ?? 0 == 0, "the refused part was never queued")
        #expect(counter(0x12)?.writes ?? 0 == 0, "its execute was never answered")
        #expect(counter(0x13)?.queuedWrites == 1)
        // The values left, by the builder's rule (Vol 3 Part F §3.4.6.3: each part at its offset, in queue order).
        var builder = PeerDatabaseBuilder(key: "test")
        func write(_ parts: [(offset: Int, value: [UInt8])]) -> [UInt8]? {
            builder.writeQueued(0x0010, parts: parts)
            return builder.values[0x0010]
        }
        #expect(write([(4, [0x45, 0x46, 0x47, 0x48]), (0, [0x41, 0x42, 0x43, 0x44, 0x58]), (4, [0x45])]) == Array("ABCDEFGH".utf8))
        #expect(write([(2, [0x01])]) == [0x41, 0x42, 0x01, 0x44, 0x45, 0x46, 0x47, 0x48], "continues the known value")
        #expect(write([(0, [0x01]), (3, [0x02])]) == nil, "a gap: the value is not known")
    }

    @Test func bothSidesExchangingMTUGiveTwoExchanges() {
        // Each side is a client once: host asks 517, peer asks 247, then the answers cross (Vol 3 Part F §3.4.2).
        let records = [connected,
                       att([0x02, 0x05, 0x02], .sent, at: 1), att([0x02, 0xF7, 0x00], .received, at: 2),
                       att([0x03, 0xF7, 0x00], .received, at: 3), att([0x03, 0x05, 0x02], .sent, at: 4)]
        let story = CaptureStoryDecoder.story(of: CaptureFile(format: .btsnoop(datalink: 1002), records: records, error: nil))
        #expect(story.connections.first?.mtuExchanges == [247, 247])
    }
}
