// The in-place LE Advertising Report reader agrees with the event decoder, and has no view of a malformed event.

import OCBCore
import OCBHCI
import Testing

@Suite struct AdvertisingReportViewTests {
    /// The reports the view reads, as the decoder's values.
    private func viewed(_ bytes: [UInt8]) -> [LEAdvertisingReport]? {
        LEAdvertisingReportView(eventPacket: bytes).map { view in
            view.map { LEAdvertisingReport(eventType: $0.eventType, addressType: $0.addressType, address: $0.address, data: Array($0.data), rssi: $0.rssi) }
        }
    }

    @Test func readsWhatTheDecoderDecodes() throws {
        // bottle frame 120: ADV_NONCONN_IND from a random address, 31 bytes of data.
        let capture = try CaptureFixtures.packet("bottle-legacy-conn-complete-adv-reports.btsnoop", frame: 120).bytes
        // Two reports (Vol 4 Part E §7.7.65.2): ADV_IND, 3 data bytes, -60 dBm; SCAN_RSP, no data, RSSI n/a (127).
        let two = hex("3e 19 02 02 00 00 66 55 44 33 22 11 03 02 01 06 c4 04 01 11 22 33 44 55 66 00 7f")
        for bytes in [capture, two] {
            guard case .leMeta(.advertisingReport(let event)) = try HCIEvent(bytes: bytes) else { Issue.record("not a report"); continue }
            #expect(viewed(bytes) == event.reports)
        }
        let reports = try #require(viewed(two))
        #expect(reports[0] == LEAdvertisingReport(eventType: .advInd, addressType: .public, address: BluetoothAddress("11:22:33:44:55:66")!,
                                                  data: [2, 1, 6], rssi: -60))
        #expect(reports[1].eventType == .scanRsp && reports[1].addressType == .random && reports[1].data.isEmpty && reports[1].rssi == nil)
        #expect(viewed(capture)?.first?.data.count == 0x1F)
    }

    @Test func readsTheLegacyPDUsOfAnExtendedScan() throws {
        // escooter frame 431: an extended report of a legacy ADV_IND (0x0013), SID none, TX power n/a, RSSI -93.
        let packet = try CaptureFixtures.packet("escooter-ext-adv-nonlegacy-acl-fragments.btsnoop", frame: 431).bytes
        guard case .leMeta(.extendedAdvertisingReport(let event)) = try HCIEvent(bytes: packet), let decoded = event.reports.first else {
            Issue.record("not an extended report"); return
        }
        let reports = Array(try #require(LEAdvertisingReportView(eventPacket: packet)))
        #expect(reports.count == 1)
        let report = try #require(reports.first)
        #expect(report.eventType == .advInd && report.isConnectable && report.isScannable && !report.isScanResponse)
        #expect(report.address == decoded.address && report.addressType == decoded.addressType && Array(report.data) == decoded.data)
        #expect(report.rssi == -93 && report.txPower == nil && report.data.count == 0x1D)
        // The same report as an extended PDU (bit 4 clear), as "more to come" (Data_Status 01), or of an undefined
        // legacy type (0x11): no view; the reassembler's path takes it.
        for (index, value) in [(4, packet[4] & ~0x10), (4, packet[4] | 0x20), (4, UInt8(0x11)), (5, UInt8(0x01))] {
            var changed = packet
            changed[index] = value
            #expect(LEAdvertisingReportView(eventPacket: changed) == nil, "byte \(index) = \(value)")
        }
        // A SCAN_RSP to an ADV_IND (0x1B) with TX power -4 dBm.
        var response = packet
        response[4] = 0x1B
        response[16] = 0xFC
        let scanResponse = try #require(LEAdvertisingReportView(eventPacket: response).flatMap { Array($0).first })
        #expect(scanResponse.isScanResponse && scanResponse.txPower == -4)
    }

    @Test func aMalformedEventHasNoViewAndGoesToTheDecoder() throws {
        let one = hex("3e 0f 02 01 03 01 01 00 00 00 00 c0 03 02 01 06 c4")
        #expect(viewed(one)?.count == 1)
        // Data_Length 4 runs one byte into the RSSI's place and past the end: the decoder names the field.
        var long = one
        long[12] = 0x04
        #expect(viewed(long) == nil)
        #expect(throws: HCIEventDecodingError.self) { try HCIEvent(bytes: long) }
        // Parameter_Total_Length not the packet's, a byte left over after the reports, no reports, another subevent.
        #expect(viewed(Array(one.dropLast())) == nil)
        var trailing = one + [0x00]
        trailing[1] = 0x10
        #expect(viewed(trailing) == nil)
        #expect(viewed(hex("3e 02 02 00")) == nil)
        #expect(viewed(hex("3e 13 01 00 40 00 00 01 01 00 00 00 a0 c1 18 00 00 00 48 00 00")) == nil)
        // Two reports announced, one there: no view; the decoder keeps the whole one and says what is missing.
        var short = one
        short[3] = 0x02
        #expect(viewed(short) == nil)
        guard case .leMeta(.advertisingReport(let event)) = try HCIEvent(bytes: short) else { Issue.record("not a report"); return }
        #expect(event.reports.count == 1 && event.diagnostic != nil)
    }
}
