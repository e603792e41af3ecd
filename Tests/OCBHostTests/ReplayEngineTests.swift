// The replay engines without a host: strict matching and its mismatch, tolerant answers by kind, the replay clock.
@testable import OCBHost
import Dispatch
import Foundation
import OCBHCI
import Testing

private func command(_ bytes: [UInt8]) -> HCIPacket { HCIPacket(type: .command, bytes: bytes) }
private func event(_ bytes: [UInt8]) -> HCIPacket { HCIPacket(type: .event, bytes: bytes) }
private func record(_ number: Int, _ direction: CaptureDirection, _ packet: HCIPacket, at time: Int64 = 0) -> ReplayRecord {
    ReplayRecord(number: number, timestamp: time, direction: direction, packet: packet)
}

// HCI Reset (0x0C03) and its Command Complete (Core v5.4 Vol 4 Part E §7.3.2: status only); LE Set Scan Enable
// (0x200C) 01 00 and its Command Complete.
private let reset = command([0x03, 0x0C, 0x00])
private let resetComplete = event([0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
private let scanEnable = command([0x0C, 0x20, 0x02, 0x01, 0x00])
private let scanEnableComplete = event([0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00])

@Suite("replay engines")
struct ReplayEngineTests {
    @Test("strict: the controller's packets after each matching host packet, then the mismatch names record and byte")
    func strict() throws {
        let vendor = event([0xFF, 0x01, 0x42])
        var replay = StrictReplay(records: [record(1, .received, vendor), record(2, .sent, reset), record(3, .received, resetComplete),
                                            record(5, .sent, scanEnable), record(6, .received, scanEnableComplete)])
        #expect(replay.opening().map(\.packet) == [vendor])
        #expect(try replay.receive(reset).map(\.number) == [3])
        // LE Set Scan Enable with Filter_Duplicates 1 instead of 0: the H4 form's byte 5 (indicator, opcode, length, 01, 01).
        let changed = command([0x0C, 0x20, 0x02, 0x01, 0x01])
        #expect(throws: ReplayMismatch(sentNumber: 2, recordNumber: 5, byteOffset: 5,
                                       expected: "command 0x200C LE Set Scan Enable: 01 0c 20 02 01 00",
                                       actual: "command 0x200C LE Set Scan Enable: 01 0c 20 02 01 01")) {
            try replay.receive(changed)
        }
        // The replay is over: the right packet now meets the same mismatch.
        #expect(throws: ReplayMismatch.self) { try replay.receive(scanEnable) }
    }

    @Test("strict: a packet past the recording's last host packet")
    func strictPastTheEnd() throws {
        var replay = StrictReplay(records: [record(1, .sent, reset), record(2, .received, resetComplete)])
        #expect(try replay.receive(reset).count == 1)
        #expect(replay.isFinished)
        do {
            _ = try replay.receive(reset)
            Issue.record("no mismatch")
        } catch {
            #expect(error.recordNumber == nil)
            #expect(error.description.hasPrefix("replay: the stack's packet 2 is past the end of the recording"))
        }
    }

    @Test("tolerant: commands the recording lacks get a plain controller's answer or Unknown HCI Command, listed")
    func tolerantDefaults() {
        var replay = TolerantReplay(records: [record(1, .received, event([0x3E, 0x03, 0x02, 0x00, 0x00]))])
        #expect(replay.receive(reset).map(\.packet) == [resetComplete])
        // LE Read Buffer Size [v1] (0x2002): status, LE_ACL_Data_Packet_Length 251, Total_Num_LE_ACL_Data_Packets 8.
        #expect(replay.receive(command([0x02, 0x20, 0x00])).map(\.packet) == [event([0x0E, 0x07, 0x01, 0x02, 0x20, 0x00, 0xFB, 0x00, 0x08])])
        // A vendor command (OGF 0x3F): Unknown HCI Command (0x01).
        #expect(replay.receive(command([0x01, 0xFC, 0x00])).map(\.packet) == [event([0x0E, 0x04, 0x01, 0x01, 0xFC, 0x01])])
        #expect(replay.unmatched.contains("command 0x0C03 Reset: answered as a plain controller would"))
        #expect(replay.unmatched.contains { $0.hasPrefix("command 0xFC01") && $0.hasSuffix("answered Unknown HCI Command (0x01)") })
    }

    @Test("tolerant: the recorded answer to the same command, a connect's recorded connection, ATT by opcode and handle")
    func tolerantRecorded() {
        let peer: [UInt8] = [0x01, 0x00, 0x00, 0x00, 0xA0, 0xC1]  // C1:A0:00:00:00:01, little-endian
        // LE Connection Complete (subevent 0x01): status 0, handle 0x0040, central, random, peer, 7.5 ms, 0, 4 s, 0
        // (other values than a made-up one would have, so the test tells the recorded from the made up).
        let complete = event([0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01] + peer + [0x06, 0x00, 0x00, 0x00, 0x90, 0x01, 0x00])
        // ACL handle 0x0040: ATT Read Request of 0x0003 and its Read Response "OCB".
        let readRequest = HCIPacket(type: .acl, bytes: [0x40, 0x20, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00])
        let readResponse = HCIPacket(type: .acl, bytes: [0x40, 0x20, 0x08, 0x00, 0x04, 0x00, 0x04, 0x00, 0x0B, 0x4F, 0x43, 0x42])
        var replay = TolerantReplay(records: [
            record(1, .sent, reset), record(2, .received, resetComplete),
            record(3, .received, complete), record(4, .sent, readRequest), record(5, .received, readResponse),
        ])
        #expect(replay.receive(reset).map(\.number) == [2])
        // LE Create Connection to the recorded peer: Command Status success, then the recorded LE Connection Complete.
        let create = command([0x0D, 0x20, 0x19, 0x60, 0x00, 0x60, 0x00, 0x00, 0x01] + peer + [0x00, 0x18, 0x00, 0x28, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(replay.receive(create).map(\.packet) == [event([0x0F, 0x04, 0x00, 0x01, 0x0D, 0x20]), complete])
        #expect(replay.unmatched.allSatisfy { !$0.hasPrefix("connect:") }, "\(replay.unmatched)")
        // A scan: the recording has no report from the connected peer, so it is made to advertise once, from its address.
        #expect(replay.receive(scanEnable).last?.packet
                == event([0x3E, 0x0C, 0x02, 0x01, 0x00, 0x01] + peer + [0x00, 0xC4]))
        // The read on our handle 0x0041: Number Of Completed Packets, then the recorded response moved to 0x0041.
        let ours = HCIPacket(type: .acl, bytes: [0x41, 0x20, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00])
        #expect(replay.receive(ours).map(\.packet) == [event([0x13, 0x05, 0x01, 0x41, 0x00, 0x01, 0x00]),
                                                       HCIPacket(type: .acl, bytes: [0x41, 0x20, 0x08, 0x00, 0x04, 0x00, 0x04, 0x00, 0x0B, 0x4F, 0x43, 0x42])])
        // A read of 0x0005, which the recording never made: Error Response, Invalid Handle (0x01).
        let other = HCIPacket(type: .acl, bytes: [0x41, 0x20, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x0A, 0x05, 0x00])
        #expect(replay.receive(other).last?.packet
                == HCIPacket(type: .acl, bytes: [0x41, 0x20, 0x09, 0x00, 0x05, 0x00, 0x04, 0x00, 0x01, 0x0A, 0x05, 0x00, 0x01]))
    }

    @Test("tolerant: a discovery the other stack made differently is answered from the attributes the recording reveals")
    func recordedAttributes() {
        var attributes = RecordedAttributes()
        // Read By Group Type «Primary Service» 0x0001-0xFFFF answered with 0x0001-0x0009 1800, 0x0010-0x0013 180F
        // (Length 6: handle, end, UUID), and Read By Type «Characteristic» 0x0010-0x0013 with 0x0011 read|notify 0x0012 2A19.
        attributes.learn(request: [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28],
                         response: [0x11, 0x06, 0x01, 0x00, 0x09, 0x00, 0x00, 0x18, 0x10, 0x00, 0x13, 0x00, 0x0F, 0x18])
        attributes.learn(request: [0x08, 0x10, 0x00, 0x13, 0x00, 0x03, 0x28],
                         response: [0x09, 0x07, 0x11, 0x00, 0x12, 0x12, 0x00, 0x19, 0x2A])
        attributes.learn(request: [0x0A, 0x12, 0x00], response: [0x0B, 0x37])
        // Find By Type Value «Primary Service» = 180F (what an app's discoverServices([180F]) sends): 0x0010-0x0013.
        #expect(attributes.answer([0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x0F, 0x18]) == [0x07, 0x10, 0x00, 0x13, 0x00])
        // From 0x000A on: only the battery service.
        #expect(attributes.answer([0x10, 0x0A, 0x00, 0xFF, 0xFF, 0x00, 0x28]) == [0x11, 0x06, 0x10, 0x00, 0x13, 0x00, 0x0F, 0x18])
        // Find Information 0x0010-0x0013: the declarations and the value handle, 16-bit format.
        #expect(attributes.answer([0x04, 0x10, 0x00, 0x13, 0x00])
                == [0x05, 0x01, 0x10, 0x00, 0x00, 0x28, 0x11, 0x00, 0x03, 0x28, 0x12, 0x00, 0x19, 0x2A])
        #expect(attributes.answer([0x0A, 0x12, 0x00]) == [0x0B, 0x37])  // Battery Level 55 %
        #expect(attributes.answer([0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x0D, 0x18]) == nil)  // no 180D: the caller says Not Found
        #expect(attributes.answer([0x0A, 0x03, 0x00]) == nil)
    }

    @Test("replay clock: waits run in deadline order as the clock is moved, never earlier, and not after cancel")
    func clock() {
        let clock = ReplayClock()
        let start = clock.now
        let queue = DispatchQueue(label: "replay-clock-test")
        let fired = LockedList()
        _ = clock.wait(until: start + .seconds(30), on: queue) { fired.append("30 s") }
        _ = clock.wait(until: start + .seconds(2), on: queue) { fired.append("2 s") }
        let cancelled = clock.wait(until: start + .seconds(5), on: queue) { fired.append("5 s") }
        cancelled.cancel()
        clock.advance(to: start + .seconds(1))
        queue.sync {}
        #expect(fired.items.isEmpty)
        clock.advance(to: start + .seconds(31))
        queue.sync {}
        #expect(fired.items == ["2 s", "30 s"])
        clock.advance(to: start)  // never back
        #expect(clock.now == start + .seconds(31))
        #expect(clock.earliestWait == nil)
    }
}

private final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ item: String) { lock.withLock { list.append(item) } }
    var items: [String] { lock.withLock { list } }
}
