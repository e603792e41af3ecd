// Tests of MemoryTransport: H4 in memory, read in chunks and turns as a stream socket is, with the host's whole bring-up over it.

import Dispatch
import Foundation
import OCBHCI
import Testing
@testable import OCBHost

@Suite struct TransportMemoryTests {
    /// An LE Advertising Report event (Core v5.4 Vol 4 Part E §7.7.65.2): one ADV_NONCONN_IND report from random
    /// address 00:00:00:00:00:nn with Flags 0x06, RSSI −60 dBm: 18 octets with its H4 indicator.
    static func report(_ low: UInt8) -> [UInt8] {
        [0x04, 0x3E, 0x0F, 0x02, 0x01, 0x03, 0x01, low, 0, 0, 0, 0, 0, 0x03, 0x02, 0x01, 0x06, 0xC4]
    }

    @Test func sendGoesToTheControllerAndItsAnswerComesBackOnTheQueue() throws {
        let sent = MemoryTestLog<[UInt8]>()
        let transport = MemoryTransport { packet, transport in
            sent.append(packet.h4Bytes)
            // Command Complete for HCI_Reset (0x0C03), status 0x00 (§7.7.14, §7.3.2).
            transport.receive([0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
        }
        let recorder = TransportRecorder()
        try recorder.open(transport)
        try transport.send(HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00]))
        let packets = recorder.waitForPackets(1)
        #expect(sent.values == [[0x01, 0x03, 0x0C, 0x00]])
        #expect(packets.map(\.bytes) == [[0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]])
        #expect(packets.map(\.type) == [.event])
    }

    /// A command sent at the end of a reader's turn (where the host runs an app's request that came during the turn,
    /// ``TurnFlush``), answered at once by the controller, is read: the answer arrives while the turn is still marked
    /// as running, and the turn looks for bytes again after it ends. (Lost, the answer waited for the next bytes from
    /// the controller, and the host timed the command out after 2 s: the scan benchmark's "did not answer 0x200B".)
    @Test func anAnswerToACommandSentAtTheEndOfATurnIsRead() throws {
        let transport = MemoryTransport { packet, transport in
            // Command Complete for the command (Core v5.4 Vol 4 Part E §7.7.14), status 0x00.
            transport.receive([0x04, 0x0E, 0x04, 0x01, packet.bytes[0], packet.bytes[1], 0x00])
        }
        let queue = DispatchQueue(label: "memory-transport-turn-end")
        TurnFlush.install(on: queue)
        let packets = MemoryTestLog<[UInt8]>()
        let answered = DispatchSemaphore(value: 0)
        try transport.open(queue: queue, onPackets: { walk in
            _ = walk { _, bytes in
                packets.append(Array(bytes))
                if packets.values.count == 1 {
                    // LE Set Scan Parameters (0x200B), sent once the turn that read this report has ended.
                    TurnFlush.current?.atEnd { try? transport.send(HCIPacket(type: .command, bytes: [0x0B, 0x20, 0x00])) }
                } else {
                    answered.signal()
                }
                return .next
            }
        }, onClose: { _ in })
        transport.receive(Self.report(1))
        #expect(answered.wait(timeout: .now() + 2) == .success, "the Command Complete was left unread")
        #expect(packets.values.last == [0x0E, 0x04, 0x01, 0x0B, 0x20, 0x00])
    }

    /// An app's request run in the middle of a reader's turn (as the host's `receive` runs one between two packets)
    /// ends the turn's reading after the read at hand: a block queued on the queue before the request runs before the
    /// next read, so what the controller answers to the request (in a later read) never overtakes that block (a
    /// `withGATT` body asked before a disconnect saw the Disconnection Complete first, and no link).
    @Test func aRequestRunMidTurnEndsTheTurnsReadingAfterTheReadAtHand() throws {
        let transport = MemoryTransport(chunkSize: 260) { _, _ in }
        let queue = DispatchQueue(label: "memory-transport-mid-turn")
        TurnFlush.install(on: queue)
        let order = MemoryTestLog<String>()
        let done = DispatchSemaphore(value: 0)
        try transport.open(queue: queue, onPackets: { walk in
            _ = walk { _, bytes in
                let last = bytes[bytes.startIndex + 6]
                order.append("report \(last)")
                if last == 1 {
                    queue.async { order.append("block") }
                    TurnFlush.request(on: queue) { order.append("request") }
                    TurnFlush.current?.runRequests()
                }
                if last == 40 { done.signal() }
                return .next
            }
        }, onClose: { _ in })
        // 40 reports of 18 octets in chunks of 260: the first read holds 14 of them, the rest come in later reads.
        transport.receive((1...40).flatMap { Self.report(UInt8($0)) })
        #expect(done.wait(timeout: .now() + 5) == .success)
        let log = order.values
        let block = try #require(log.firstIndex(of: "block"))
        #expect(log.firstIndex(of: "request") == 1, "the request ran where it was asked")
        #expect(log[..<block].filter { $0.hasPrefix("report") } == (1...14).map { "report \($0)" },
                "the read at hand is finished, then the block queued before the request runs before the next read")
    }

    @Test func aStreamSplitAnywhereIsFramedWholeInOrder() throws {
        let transport = MemoryTransport(chunkSize: 300) { _, _ in }
        let recorder = TransportRecorder()
        try recorder.open(transport)
        // 200 reports (3,600 octets) handed over in pieces of 7: packets straddle every piece and every 300-octet chunk.
        let stream = (0..<200).flatMap { Self.report(UInt8($0)) }
        var offset = 0
        while offset < stream.count {
            transport.receive(Array(stream[offset..<min(stream.count, offset + 7)]))
            offset += 7
        }
        let packets = recorder.waitForPackets(200)
        #expect(packets.count == 200)
        #expect(packets.map { $0.bytes[6] } == (0..<200).map { UInt8($0) })
    }

    @Test func aBacklogIsBehindAndLeavesInputUnreadBetweenTurns() throws {
        let seen = MemoryTestLog<(behind: Bool, unread: Bool)>()
        let transport = MemoryTransport(chunkSize: 1_800) { _, _ in }
        let done = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "memory-transport-test")
        let total = 18 * 100 * 10  // ten chunks of a hundred reports: more than one turn of eight reads
        let counted = MemoryTestLog<Int>()
        try transport.open(queue: queue, onPackets: { walk in
            _ = walk { _, _ in
                counted.append(0)
                let packets = counted.values.count
                if packets % 100 == 0 { seen.append((transport.isBehind, transport.hasUnreadInput)) }
                if packets == total / 18 { done.signal() }
                return .next
            }
        }, onClose: { _ in })
        transport.receive((0..<(total / 18)).flatMap { Self.report(UInt8(truncatingIfNeeded: $0)) })
        #expect(done.wait(timeout: .now() + 5) == .success)
        // Chunks 1-8 of the first turn: behind while at least a quarter chunk waits after them (chunks 1-9), then the
        // second turn starts behind (the first stopped at its limit): all but the last of ten chunks, and that one too.
        #expect(seen.values.map(\.behind) == [true, true, true, true, true, true, true, true, true, true])
        #expect(seen.values.map(\.unread) == Array(repeating: true, count: 10))
        queue.sync {}
        #expect(!transport.hasUnreadInput)
    }

    @Test func bytesReceivedSinceTheLastReadAreInputWaiting() throws {
        let transport = MemoryTransport { _, _ in }
        let queue = DispatchQueue(label: "memory-transport-unread")
        try transport.open(queue: queue, onPackets: { walk in _ = walk { _, _ in .next } }, onClose: { _ in })
        queue.sync {}
        let (before, after) = queue.sync { () -> (Bool, Bool) in
            let before = transport.hasInputWaiting
            transport.receive(Self.report(1))  // read in a turn after this block: unread until then
            return (before, transport.hasInputWaiting)
        }
        #expect(!before)
        #expect(after)
        queue.sync {}
        #expect(!queue.sync { transport.hasInputWaiting || transport.hasUnreadInput })
    }

    @Test func endDeliversWhatWasReceivedThenClosedAndCloseIsNil() throws {
        let transport = MemoryTransport { _, _ in }
        let recorder = TransportRecorder()
        try recorder.open(transport)
        transport.receive(Self.report(1))
        transport.end()
        transport.receive(Self.report(2))  // after the end: ignored
        #expect(recorder.waitForClose() == [.closed])
        #expect(recorder.packets.map { $0.bytes[6] } == [1])
        #expect(throws: HCITransportError.notOpen) { try transport.send(HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00])) }

        let closing = MemoryTransport { _, _ in }
        let other = TransportRecorder()
        try other.open(closing)
        closing.close()
        closing.close()
        #expect(other.waitForClose() == [nil])
        var again: HCITransportError?
        do { try other.open(closing) } catch { again = error }
        #expect(again == .alreadyOpen)
    }

    @Test func aBadIndicatorEndsTheTransportAfterThePacketsBeforeIt() throws {
        let transport = MemoryTransport { _, _ in }
        let recorder = TransportRecorder()
        try recorder.open(transport)
        transport.receive(Self.report(1) + [0x07] + Self.report(2))
        #expect(recorder.waitForClose() == [.framing(.badPacketIndicator(0x07, offset: 18))])
        #expect(recorder.packets.map { $0.bytes[6] } == [1])
    }
}

/// A list appended to from any thread.
final class MemoryTestLog<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []
    func append(_ element: Element) { lock.withLock { elements.append(element) } }
    var values: [Element] { lock.withLock { elements } }
}
