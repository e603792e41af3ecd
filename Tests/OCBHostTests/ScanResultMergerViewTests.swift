// The merger fed reports read in place gives what it gives fed decoded observations, over a long seeded sequence.

import FuzzSupport
import OCBCore
import OCBHCI
import OCBHost
import Testing

/// An LE Advertising Report event packet (Core v5.4 Vol 4 Part E §7.7.65.2) with one report.
private func event(type: UInt8, address: UInt8, data: [UInt8], rssi: Int8) -> [UInt8] {
    [0x3E, UInt8(12 + data.count), 0x02, 0x01, type, 0x01, address, 0x00, 0x00, 0x00, 0x00, 0xC0, UInt8(data.count)]
        + data + [UInt8(bitPattern: rssi)]
}

/// The same PDU as an LE Extended Advertising Report (§7.7.65.13) of an extended scan: the legacy Event_Type of
/// `type` (0x13 ADV_IND, 0x15 ADV_DIRECT_IND, 0x12 ADV_SCAN_IND, 0x10 ADV_NONCONN_IND, 0x1B SCAN_RSP), LE 1M, no
/// secondary PHY, no ADI, `txPower`, no interval, no direct address.
private func extendedEvent(type: UInt8, address: UInt8, data: [UInt8], rssi: Int8, txPower: Int8) -> [UInt8] {
    let legacy: [UInt8] = [0x13, 0x15, 0x12, 0x10, 0x1B]
    let report: [UInt8] = [legacy[Int(type)], 0x00, 0x01, address, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x01, 0x00, 0xFF,
                           UInt8(bitPattern: txPower), UInt8(bitPattern: rssi), 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8(data.count)] + data
    return [0x3E, UInt8(2 + report.count), 0x0D, 0x01] + report
}

/// What the decoding path makes of `packet`: HCI's event values, extended reports through the reassembler.
private func decodedObservations(_ packet: [UInt8], _ reassembler: inout ExtendedAdvertisingReassembler) throws -> [AdvertisingObservation] {
    switch try HCIEvent(bytes: packet) {
    case .leMeta(.advertisingReport(let event)): event.reports.map { AdvertisingObservation(HCIAdvertisingReport($0)) }
    case .leMeta(.extendedAdvertisingReport(let event)): reassembler.add(event).reports.map(AdvertisingObservation.init)
    default: []
    }
}

@Test(arguments: [
    ScanResultMerger.Configuration(isActive: true, filterDuplicates: false, coalesces: true, capacity: 6, maxAge: .seconds(3)),
    ScanResultMerger.Configuration(isActive: true, filterDuplicates: true, capacity: 6, maxAge: .seconds(3)),
    ScanResultMerger.Configuration(isActive: false, filterDuplicates: false, capacity: 6, maxAge: .seconds(3)),
    // AllowDuplicates in an active scan: the in-place path's short way for what is not held for a scan response.
    ScanResultMerger.Configuration(isActive: true, filterDuplicates: false, capacity: 6, maxAge: .seconds(3)),
    ScanResultMerger.Configuration(isActive: true, filterDuplicates: true, serviceFilter: [BluetoothUUID(UInt16(0x180F))], capacity: 6,
                                   maxAge: .seconds(3)),
])
func reportsReadInPlaceMergeAsDecodedOnesDo(configuration: ScanResultMerger.Configuration) throws {
    // Ten advertisers over six slots, every PDU type, three payloads (one naming Battery Service 0x180F), time
    // steps that hold, release, age out and evict: what the in-place path reuses (a slot, the stored data) must
    // never show.
    let payloads: [[UInt8]] = [[0x02, 0x01, 0x06], [0x02, 0x01, 0x06, 0x03, 0x03, 0x0F, 0x18], [0x03, 0x09, 0x50, 0x69], []]
    var random = FuzzRandom(seed: 13)  // seeded: a failure names a sequence that can be run again
    var decoded = ScanResultMerger(configuration: configuration)
    var inPlace = ScanResultMerger(configuration: configuration)
    var reassembler = ExtendedAdvertisingReassembler()
    var now = ContinuousClock.now
    var reported = 0
    for step in 0..<20_000 {
        let step = step
        now = now.advanced(by: .milliseconds([0, 1, 10, 300, 700, 4_000][Int(random.next() % 6)]))
        let (type, address, data, rssi) = (UInt8(random.next() % 5), UInt8(random.next() % 10), payloads[Int(random.next() % 4)],
                                           -Int8(random.next() % 90))
        // Half legacy events, half the extended events of an extended scan (with or without TX power).
        let packet = random.next() % 2 == 0 ? event(type: type, address: address, data: data, rssi: rssi)
            : extendedEvent(type: type, address: address, data: data, rssi: rssi, txPower: random.next() % 2 == 0 ? 127 : -4)
        let view = try #require(LEAdvertisingReportView(eventPacket: packet))
        var expected: [DiscoveredDevice] = []
        for observation in try decodedObservations(packet, &reassembler) { expected += decoded.receive(observation, now: now) }
        var got: [DiscoveredDevice] = []
        for report in view { got += inPlace.receive(report, now: now) }
        if random.next() % 8 == 0 {
            expected += decoded.tick(now: now)
            got += inPlace.tick(now: now)
        }
        #expect(got == expected, "step \(step)")
        #expect(inPlace.advertiserCount == decoded.advertiserCount && inPlace.pendingCount == decoded.pendingCount, "step \(step)")
        #expect(inPlace.nextDeadline == decoded.nextDeadline, "step \(step)")
        guard got == expected else { return }
        reported += got.count
    }
    #expect(inPlace.flush() == decoded.flush())
    #expect(reported > 1_000, "the sequence reports, holds and forgets enough to mean something (\(reported) reports)")
    #expect(inPlace.advertiserCount == 0)
}

@Test func anAdvertiserForgottenByAgeInTheReceiveThatHearsItAgainIsRememberedAfresh() throws {
    // X is last heard at 0 s; its next report comes at 4 s (maximum age 3 s): that receive first forgets X, then
    // takes it as new (reported again), and remembers it, so a repeat 1 ms later is a duplicate. Both entry points.
    let packet = event(type: 0x03, address: 0x01, data: [0x02, 0x01, 0x06], rssi: -50)
    let view = try #require(LEAdvertisingReportView(eventPacket: packet))
    let observation = AdvertisingObservation(peer: PeerAddress(BluetoothAddress("C0:00:00:00:00:01")!, type: .random),
                                             legacyEventType: 0x03, rssi: -50, data: [0x02, 0x01, 0x06])
    let start = ContinuousClock.now
    for inPlace in [false, true] {
        var merger = ScanResultMerger(configuration: .init(isActive: false, filterDuplicates: true, maxAge: .seconds(3)))
        func receive(at milliseconds: Int) -> Int {
            let now = start.advanced(by: .milliseconds(milliseconds))
            return inPlace ? view.reduce(0) { $0 + merger.receive($1, now: now).count } : merger.receive(observation, now: now).count
        }
        #expect(receive(at: 0) == 1)
        #expect(receive(at: 4_000) == 1, "forgotten, so reported again")
        #expect(merger.advertiserCount == 1)
        #expect(receive(at: 4_001) == 0, "remembered again: a duplicate")
        #expect(merger.advertiserCount == 1)
    }
}

@Test func aHeldRepeatOfAnAdvertiserEvictedWhileHeldIsStillADuplicate() {
    // Active scan, duplicate filter, room for one advertiser. A is reported with its scan response; its unchanged
    // advertisement 2 s later is held for the next response; B comes and evicts A, which releases the held one:
    // the same data and response as reported, so not reported again. (Then B's own advertisement is held.)
    var merger = ScanResultMerger(configuration: .init(isActive: true, responseWait: .seconds(1), filterDuplicates: true, capacity: 1))
    let a = PeerAddress(BluetoothAddress("C0:00:00:00:00:0A")!, type: .random)
    let b = PeerAddress(BluetoothAddress("C0:00:00:00:00:0B")!, type: .random)
    let data: [UInt8] = [0x02, 0x01, 0x06], response: [UInt8] = [0x03, 0x09, 0x50, 0x69]
    let start = ContinuousClock.now
    #expect(merger.receive(AdvertisingObservation(peer: a, legacyEventType: 0x00, rssi: -40, data: data), now: start).isEmpty)
    #expect(merger.receive(AdvertisingObservation(peer: a, legacyEventType: 0x04, rssi: -40, data: response), now: start).count == 1)
    let later = start.advanced(by: .seconds(2))
    #expect(merger.receive(AdvertisingObservation(peer: a, legacyEventType: 0x00, rssi: -41, data: data), now: later).isEmpty)
    #expect(merger.pendingCount == 1)
    #expect(merger.receive(AdvertisingObservation(peer: b, legacyEventType: 0x00, rssi: -50, data: data), now: later).isEmpty,
            "A's held repeat is released through the duplicate filter, and filtered")
    #expect(merger.advertiserCount == 1 && merger.pendingCount == 1)
}
