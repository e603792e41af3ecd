// Cases A6, A7, H1 and H2 of Fixtures/vectors/field-inputs.md with the expected values given there.

import OCBCore
import OCBHCI
import Testing

@Suite struct FieldInputTests {
    static let a6First = "04 3e 2e 0d 01 20 00 01 66 55 44 33 22 11 01 01 01 7f c4 00 00 00 00 00 00 00 00 00 14 28 21 1e f7 eb db b6 c3 56 85 a5 4b 23 1b 26 7a 78 11 01 02"
    static let a6Second = "04 3e 2f 0d 01 00 00 01 66 55 44 33 22 11 01 01 01 7f c4 00 00 00 00 00 00 00 00 00 15 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14 15 16 17"

    func extended(_ text: String) throws -> LEExtendedAdvertisingReportEvent {
        guard case .extendedAdvertisingReport(let event) = try leMeta(text) else { throw HCIEventDecodingError(event: "test", field: "", offset: 0, reason: "not extended") }
        return event
    }

    @Test func a6ExtendedAdvertisementJoinsTwoFragments() throws {
        var reassembler = ExtendedAdvertisingReassembler()
        let first = try extended(Self.a6First)
        #expect(first.reports.first?.eventType.dataStatus == .incompleteMoreToCome)
        let none = reassembler.add(first)
        #expect(none.reports.isEmpty && none.diagnostics.isEmpty)             // nothing before the complete fragment
        let out = reassembler.add(try extended(Self.a6Second))
        #expect(out.diagnostics.isEmpty && reassembler.pendingChainCount == 0)
        let report = try #require(out.reports.first)
        #expect(out.reports.count == 1)
        #expect(report.data.count == 41)
        // One AD structure of 40 bytes: type 0x21 (128-bit service data), UUID 11787A26-1B23-4BA5-8556-C3B6DBEBF71E, then 01...17.
        #expect(report.data[0] == 0x28 && report.data[1] == 0x21)
        #expect(BluetoothUUID(littleEndianBytes: Array(report.data[2..<18])) == BluetoothUUID("11787A26-1B23-4BA5-8556-C3B6DBEBF71E"))
        #expect(Array(report.data[18...]) == Array(1...0x17))
        #expect(report.txPower == nil)                                             // 0x7F: not available
        #expect(report.rssi == -60 && report.sid == 1 && report.kind == .extended && !report.isTruncated)
        #expect(report.address == BluetoothAddress("11:22:33:44:55:66") && report.addressType == .random)
        #expect(report.primaryPHY == .le1M && report.secondaryPHY == .le1M)
    }

    @Test func a6TruncatedChainIsDeliveredMarked() throws {
        var reassembler = ExtendedAdvertisingReassembler()
        _ = reassembler.add(try extended(Self.a6First))
        // The second fragment with Data Status 0b10 (event type 0x0040): the partial data, marked truncated.
        let truncated = Self.a6Second.replacingOccurrences(of: "0d 01 00 00 01", with: "0d 01 40 00 01")
        let out = reassembler.add(try extended(truncated))
        let report = try #require(out.reports.first)
        #expect(report.isTruncated && report.data.count == 41)
        // A truncated fragment alone is delivered alone, marked.
        let alone = reassembler.add(try extended(Self.a6First.replacingOccurrences(of: "0d 01 20 00 01", with: "0d 01 40 00 01")))
        #expect(alone.reports.first?.isTruncated == true && alone.reports.first?.data.count == 20)
    }

    @Test func a6NewChainFromSameAdvertiserDropsTheUnfinishedOne() throws {
        var reassembler = ExtendedAdvertisingReassembler()
        _ = reassembler.add(try extended(Self.a6First))
        // A new chain from the same address and SID: connectable this time (event type 0x0001), complete, 1 byte.
        let fresh = "04 3e 1b 0d 01 01 00 01 66 55 44 33 22 11 01 01 01 7f c4 00 00 00 00 00 00 00 00 00 01 aa"
        let out = reassembler.add(try extended(fresh))
        #expect(out.diagnostics.map(\.reason) == [.newChainStarted])
        #expect(out.diagnostics.first?.droppedBytes == 20)
        #expect(out.reports.map(\.data) == [[0xAA]])
        #expect(out.reports.first?.isConnectable == true)
        // The other SID of the same advertiser does not disturb a chain.
        _ = reassembler.add(try extended(Self.a6First))
        let otherSID = Self.a6Second.replacingOccurrences(of: "01 01 01 7f", with: "01 01 02 7f")
        let separate = reassembler.add(try extended(otherSID))
        #expect(separate.reports.first?.data.count == 21 && separate.reports.first?.sid == 2 && reassembler.pendingChainCount == 1)
    }

    @Test func a7LegacyReportWithRSSINotAvailable() throws {
        guard case .advertisingReport(let event) = try leMeta("04 3e 0c 02 01 03 01 66 55 44 33 22 11 00 7f") else {
            Issue.record("not an advertising report"); return
        }
        let report = try #require(event.reports.first)
        #expect(event.reports.count == 1)
        #expect(report.eventType == .advNonconnInd && report.addressType == .random)
        #expect(report.address == BluetoothAddress("11:22:33:44:55:66"))
        #expect(report.data.isEmpty && report.rssi == nil)
        let common = HCIAdvertisingReport(report)
        #expect(common.rssi == nil && !common.isConnectable && !common.isScannable && common.kind == .legacy(.advNonconnInd))
    }

    @Test func h1EventMaskAndACLCredits() throws {
        #expect(EventMask.central.contains(.numberOfCompletedPackets))
        #expect(EventMask.numberOfCompletedPackets.rawValue == 1 << 18)
        guard case .commandComplete(let complete) = try event("04 0e 07 01 02 20 00 1b 00 03") else { Issue.record("not Command Complete"); return }
        let size = try complete.returnParameters(of: HCILEReadBufferSizeV1.self)
        #expect(size.leACLDataPacketLength == 27 && size.totalNumLEACLDataPackets == 3)
        var flow = try #require(ACLFlow(leBufferSize: size, sharedBufferSize: nil))
        for index in 0..<4 { try flow.enqueue(HCIACLDataPacket(handle: 0x0040, packetBoundary: .firstFlushable, data: [UInt8(index)])) }
        #expect(flow.nextPacketsToSend().map(\.data) == [[0], [1], [2]])
        #expect(flow.nextPacketsToSend().isEmpty && flow.outstanding(handle: 0x40) == 3 && flow.queuedCount == 1)
        flow.handle(try event("04 13 05 01 40 00 01 00"))
        #expect(flow.nextPacketsToSend().map(\.data) == [[3]])
        #expect(flow.outstanding(handle: 0x40) == 3 && flow.availableCredits == 0)
    }

    @Test func h2UnknownCommandFailsViaCommandStatusAndCreditOnlyCompleteRestoresCredit() throws {
        var flow = HCICommandFlow()
        let now = ContinuousClock.now
        let ticket = flow.enqueue(HCIRawCommand(opcode: HCIOpcode(rawValue: 0xFCFF)))
        #expect(flow.nextPacketsToSend(now: now).map(\.h4Bytes) == [hex("01 ff fc 00")])
        #expect(flow.credits == 0)
        let failed = flow.handle(try event("04 0f 04 01 01 ff fc"))
        #expect(failed == [HCICommandFlow.Completion(ticket: ticket, opcode: HCIOpcode(rawValue: 0xFCFF), outcome: .failed(.failed(.unknownCommand)))])
        #expect(HCIErrorCode.unknownCommand.name == "Unknown HCI Command" && flow.awaitingCount == 0)
        // The same failure when Command Complete carries it.
        let second = flow.enqueue(HCIRawCommand(opcode: HCIOpcode(rawValue: 0xFCFF)))
        _ = flow.nextPacketsToSend(now: now)
        #expect(flow.handle(try event("04 0e 04 01 ff fc 01")).first?.outcome == .failed(.failed(.unknownCommand)))
        _ = second
        // Opcode 0x0000 with no return parameters: no completion, no error, credit restored.
        _ = flow.enqueue(HCIReset())
        _ = flow.nextPacketsToSend(now: now)
        #expect(flow.credits == 0)
        guard case .commandComplete(let creditOnly) = try event("04 0e 03 01 00 00") else { Issue.record("not Command Complete"); return }
        #expect(creditOnly.opcode.rawValue == 0 && creditOnly.status == nil)
        #expect(flow.handle(.commandComplete(creditOnly)).isEmpty)
        #expect(flow.credits == 1 && flow.awaitingCount == 1)
    }
}
