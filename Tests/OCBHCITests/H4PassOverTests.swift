// Tests of the H4 framer passing over legacy advertising reports at its consumer's request (H4Decoder.frames(in:passingOver:stepping:)).

import Testing
@testable import OCBHCI

@Suite struct H4PassOverTests {
    // Command Complete for HCI_Reset, status success (Core v5.4 Vol 4 Part E §7.7.14).
    let resetComplete: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]

    /// An H4 LE Advertising Report (§7.7.65.2): one ADV_NONCONN_IND from random C1:00:00:00:00:`last`, Flags 0x06, RSSI −60.
    func report(_ last: UInt8) -> [UInt8] {
        [0x04, 0x3E, 0x0F, 0x02, 0x01, 0x03, 0x01, last, 0x00, 0x00, 0x00, 0x00, 0xC1, 0x03, 0x02, 0x01, 0x06, 0xC4]
    }

    /// An H4 LE Extended Advertising Report (§7.7.65.13) with one report from random C0:00:00:00:00:`last`: Event_Type
    /// 0x0010 (legacy ADV_NONCONN_IND) when `legacy`, else 0x0000 (an extended PDU, which may be a piece of a chain);
    /// its 24 fixed octets, then Flags 0x06.
    func extendedReport(_ last: UInt8, legacy: Bool) -> [UInt8] {
        let body: [UInt8] = [legacy ? 0x10 : 0x00, 0x00, 0x01, last, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x01, legacy ? 0x00 : 0x01,
                             legacy ? 0xFF : 0x00, 0x7F, 0xC4, 0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0x03, 0x02, 0x01, 0x06]
        return [0x04, 0x3E, UInt8(2 + body.count), 0x0D, 0x01] + body
    }

    /// Frames `chunks` in turn, the body asking to pass over after every advertising report it is handed; what was
    /// handed over (H4 form) and how many were passed over.
    func walk(_ chunks: [[UInt8]], decoder: inout H4Decoder) throws(H4Error) -> (handed: [[UInt8]], passedOver: Int) {
        var handed: [[UInt8]] = [], passedOver = 0
        for chunk in chunks {
            try decoder.frames(in: chunk, passingOver: &passedOver, stepping: { type, bytes in
                handed.append([type.rawValue] + bytes)
                return HCIEvent.isLegacyAdvertisingReport(bytes) ? .skipLegacyAdvertisingReports(while: { true }) : .next
            })
        }
        return (handed, passedOver)
    }

    @Test func theReportsAfterASkipArePassedOverUpToTheNextOtherPacketAndCounted() throws {
        var decoder = H4Decoder()
        let read = report(1) + report(2) + report(3) + resetComplete + report(4) + report(5)
        let (handed, passedOver) = try walk([read], decoder: &decoder)
        // The first report is handed over (the consumer sheds it and asks), the next two are passed over, the Command
        // Complete ends the run, and the run after it starts again only when asked (after report 4).
        #expect(handed == [report(1), resetComplete, report(4)])
        #expect(passedOver == 3)
        #expect(decoder.pendingByteCount == 0)
        #expect(decoder.streamOffset == read.count)
    }

    @Test func onlyLegacyPDUsArePassedOverAnExtendedOneEndsTheRun() throws {
        var decoder = H4Decoder()
        let read = report(1) + extendedReport(2, legacy: true) + extendedReport(3, legacy: false) + report(4)
        let (handed, passedOver) = try walk([read], decoder: &decoder)
        // The legacy extended report goes with the run; the extended PDU (a chain's piece) is handed over, never skipped.
        #expect(handed == [report(1), extendedReport(3, legacy: false), report(4)])
        #expect(passedOver == 1)
    }

    @Test func aReportNotWhollyInTheReadEndsTheRunAndIsHandedOverWhenComplete() throws {
        var decoder = H4Decoder()
        let third = report(3)
        let first = report(1) + report(2) + Array(third[0..<5])
        let second = Array(third[5...]) + report(4) + resetComplete
        let (handed, passedOver) = try walk([first, second], decoder: &decoder)
        // Report 3 is finished in the decoder's buffer and handed over; its skip request passes report 4 over.
        #expect(handed == [report(1), third, resetComplete])
        #expect(passedOver == 2)
        #expect(decoder.streamOffset == first.count + second.count)
    }

    /// The fuzzer's first find (h4-stream, 262,381 executions): a read whose run of reports ends at a bad indicator
    /// threw, and the count of the reports passed over before it was lost with the return value (the host would have
    /// counted them nowhere). The count is kept as the framer goes.
    @Test func aBadIndicatorRightAfterARunThrowsAtItsStreamOffsetAndTheRunIsCounted() {
        var decoder = H4Decoder()
        let read = report(1) + report(2) + report(3) + [0x00, 0x01]
        var handed = 0, passedOver = 0
        #expect(throws: H4Error.badPacketIndicator(0x00, offset: 54)) {
            try decoder.frames(in: read, passingOver: &passedOver, stepping: { _, _ in
                handed += 1
                return .skipLegacyAdvertisingReports(while: { true })
            })
        }
        #expect(handed == 1)
        #expect(passedOver == 2)
        #expect(decoder.hasFailed)
    }

    @Test func aTruncatedLengthNeverMakesTheRunReadPastTheRead() throws {
        var decoder = H4Decoder()
        // A report whose Parameter_Total_Length claims more than the read holds: kept for the next read, not passed over.
        let claimsMore: [UInt8] = [0x04, 0x3E, 0xFF, 0x02, 0x01]
        let (handed, passedOver) = try walk([report(1) + claimsMore], decoder: &decoder)
        #expect(handed == [report(1)])
        #expect(passedOver == 0)
        #expect(decoder.pendingByteCount == claimsMore.count)
    }

    /// The consumer's predicate is asked before the first report of a run and before every 16th after it
    /// (``H4Decoder/passingCheckInterval``); once it is false the run ends there and the next report is handed over.
    @Test func theRunAsksItsPredicateEverySixteenReportsAndEndsWhenItIsFalse() throws {
        var decoder = H4Decoder()
        let read = (1...40).flatMap { report(UInt8($0)) }
        var asked = 0, handed: [UInt8] = [], passedOver = 0
        try decoder.frames(in: read, passingOver: &passedOver, stepping: { _, bytes in
            handed.append(bytes[bytes.startIndex + 6])  // the address's last octet
            return .skipLegacyAdvertisingReports(while: {
                asked += 1
                return asked < 3  // true at the run's first report and its 16th, false at its 32nd
            })
        })
        // Report 1 handed over; 2-33 passed over (32, asked before 2, 18 and 34); 34 handed over, its run asked again
        // (false: a fourth question), so 35 is handed over, and so on.
        #expect(handed.prefix(2) == [1, 34])
        #expect(passedOver == 32)
        #expect(handed.count == 8)
    }
}
