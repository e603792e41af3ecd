// Scan-response merging, bounded waits, duplicate and service filtering, with injected time.

import OCBCore
import OCBHost
import Testing

private let peerA = PeerAddress(BluetoothAddress("C0:00:00:00:00:01")!, type: .random)
private let peerB = PeerAddress(BluetoothAddress("00:11:22:33:44:55")!, type: .public)
// Flags (LE General Discoverable, BR/EDR not supported) + Complete List of 16-bit UUIDs 0x180F.
private let advertisingData: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0x0F, 0x18]
// Complete Local Name "Pi".
private let responseData: [UInt8] = [0x03, 0x09, 0x50, 0x69]
private let start = ContinuousClock.now

private func advInd(_ peer: PeerAddress = peerA, data: [UInt8] = advertisingData, rssi: Int8 = -40) -> AdvertisingObservation {
    AdvertisingObservation(peer: peer, legacyEventType: 0x00, rssi: rssi, data: data)
}

private func scanRsp(_ peer: PeerAddress = peerA, rssi: Int8 = -41) -> AdvertisingObservation {
    AdvertisingObservation(peer: peer, legacyEventType: 0x04, rssi: rssi, data: responseData)
}

@Test func activeScanHoldsScannableAdvertisingUntilItsScanResponse() {
    var merger = ScanResultMerger(configuration: .init(isActive: true, filterDuplicates: false))
    #expect(merger.receive(advInd(), now: start).isEmpty)
    #expect(merger.nextDeadline == start.advanced(by: .milliseconds(500)))
    let devices = merger.receive(scanRsp(), now: start.advanced(by: .milliseconds(5)))
    #expect(devices.count == 1)
    #expect(devices.first?.advertisingData == advertisingData)
    #expect(devices.first?.scanResponseData == responseData)
    #expect(devices.first?.mergedData == advertisingData + responseData)
    #expect(devices.first?.isConnectable == true)
    #expect(devices.first?.rssi == -41)
    #expect(merger.nextDeadline == nil)
}

@Test func activeScanReleasesAfterTheBoundedWaitWithoutResponse() {
    var merger = ScanResultMerger(configuration: .init(isActive: true, responseWait: .milliseconds(300), filterDuplicates: false))
    _ = merger.receive(advInd(), now: start)
    #expect(merger.tick(now: start.advanced(by: .milliseconds(299))).isEmpty)
    let devices = merger.tick(now: start.advanced(by: .milliseconds(300)))
    #expect(devices.count == 1)
    #expect(devices.first?.scanResponseData == nil)
    #expect(merger.pendingCount == 0)
}

@Test func passiveScanReportsAtOnceWithoutResponse() {
    var merger = ScanResultMerger(configuration: .init(isActive: false, filterDuplicates: false))
    let devices = merger.receive(advInd(), now: start)
    #expect(devices.count == 1)
    #expect(devices.first?.scanResponseData == nil)
    #expect(merger.nextDeadline == nil)
}

@Test func nonConnectableAdvertisingIsReportedAtOnceEvenWhenActive() {
    var merger = ScanResultMerger(configuration: .init(isActive: true, filterDuplicates: false))
    let beacon = AdvertisingObservation(peer: peerB, legacyEventType: 0x03, rssi: 127, data: advertisingData)
    let devices = merger.receive(beacon, now: start)
    #expect(devices.count == 1)
    #expect(devices.first?.isConnectable == false)
    #expect(devices.first?.rssi == nil)  // 127 means unavailable (Vol 4 Part E §7.7.65.2)
}

@Test func hostDuplicateFilterReportsOnlyChanges() {
    var merger = ScanResultMerger(configuration: .init(isActive: false, filterDuplicates: true))
    #expect(merger.receive(advInd(rssi: -40), now: start).count == 1)
    #expect(merger.receive(advInd(rssi: -60), now: start).isEmpty)
    let changed = advertisingData + [0x02, 0x0A, 0x04]  // TX Power Level 4 dBm added
    #expect(merger.receive(advInd(data: changed), now: start).count == 1)
    #expect(merger.receive(advInd(peerB), now: start).count == 1)
}

@Test func coalescingReportsOnceThenOnceMoreWithACompletingScanResponse() {
    // Apple's rule without AllowDuplicates, in the host: data that merely changes (a counter) is not reported again;
    // a scan response the first report lacked gives one more report; after that nothing.
    var merger = ScanResultMerger(configuration: .init(isActive: true, responseWait: .milliseconds(300), filterDuplicates: true,
                                                       coalesces: true))
    _ = merger.receive(advInd(), now: start)
    let first = merger.tick(now: start.advanced(by: .milliseconds(300)))
    #expect(first.count == 1 && first.first?.scanResponseData == nil, "no scan response within the wait")
    let counter = advertisingData + [0x04, 0xFF, 0xFF, 0xFF, 0x01]  // manufacturer data 0xFFFF, a counter byte
    _ = merger.receive(advInd(data: counter), now: start.advanced(by: .seconds(1)))
    #expect(merger.tick(now: start.advanced(by: .milliseconds(1_300))).isEmpty, "changed data without a response: coalesced")
    _ = merger.receive(advInd(), now: start.advanced(by: .seconds(2)))
    let completed = merger.receive(scanRsp(), now: start.advanced(by: .milliseconds(2_005)))
    #expect(completed.count == 1 && completed.first?.scanResponseData == responseData)
    _ = merger.receive(advInd(data: counter), now: start.advanced(by: .seconds(3)))
    #expect(merger.receive(scanRsp(), now: start.advanced(by: .milliseconds(3_005))).isEmpty, "complete already")
    // Another advertiser is its own.
    #expect(merger.receive(advInd(peerB, data: [0x02, 0x01, 0x06]), now: start.advanced(by: .seconds(4))).isEmpty)
    #expect(merger.receive(scanRsp(peerB), now: start.advanced(by: .milliseconds(4_005))).count == 1)
}

@Test func timedOutRepeatUsesTheLastKnownResponseSoDuplicatesStayFiltered() {
    var merger = ScanResultMerger(configuration: .init(isActive: true, filterDuplicates: true))
    _ = merger.receive(advInd(), now: start)
    #expect(merger.receive(scanRsp(), now: start).count == 1)
    _ = merger.receive(advInd(), now: start.advanced(by: .seconds(1)))
    #expect(merger.tick(now: start.advanced(by: .seconds(2))).isEmpty)
}

@Test func serviceFilterMatchesAdvertisedUUIDsOnly() {
    var battery = ScanResultMerger(configuration: .init(isActive: false, filterDuplicates: false, serviceFilter: [BluetoothUUID(0x180F)]))
    #expect(battery.receive(advInd(), now: start).count == 1)
    var heartRate = ScanResultMerger(configuration: .init(isActive: false, filterDuplicates: false, serviceFilter: [BluetoothUUID(0x180D)]))
    #expect(heartRate.receive(advInd(), now: start).isEmpty)
}

@Test func extendedEventTypeBitsMapToKinds() {
    // Event_Type 0x0013: connectable, scannable, legacy (ADV_IND over extended report), Vol 4 Part E §7.7.65.13.
    let adv = AdvertisingObservation(peer: peerA, extendedEventType: 0x0013, rssi: -50, txPower: 127, data: [])
    #expect(adv.isConnectable && adv.isScannable && !adv.isScanResponse && adv.txPower == nil)
    // 0x001B: legacy SCAN_RSP to an ADV_IND.
    let rsp = AdvertisingObservation(peer: peerA, extendedEventType: 0x001B, rssi: -50, txPower: 127, data: [])
    #expect(rsp.isScanResponse)
}

@Test func serviceUUIDExtractionReadsEveryWidthAndSurvivesTruncation() {
    let uuid128 = BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!
    let data: [UInt8] = [0x03, 0x02, 0x0D, 0x18]                       // incomplete 16-bit 0x180D
        + [0x05, 0x05, 0x78, 0x56, 0x34, 0x12]                        // complete 32-bit 0x12345678
        + [0x11, 0x07] + uuid128.littleEndianBytes(width: 16)!        // complete 128-bit
        + [0x09, 0x03, 0x0F]                                          // claims 8 bytes, 1 left
    #expect(ScanResultMerger.advertisedServiceUUIDs(data) == [BluetoothUUID(0x180D), BluetoothUUID(uuid32: 0x12345678), uuid128])
}

/// Advertiser number `n`: a random static address C0:00:00:nn:nn:nn.
private func advertiser(_ n: Int) -> PeerAddress {
    PeerAddress(BluetoothAddress(bytes: [0xC0, 0x00, 0x00, UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)]) ?? .zero,
                type: .random)
}

@Test func advertiserStateIsBoundedByCountOldestHeardForgottenFirst() {
    // A flood of distinct advertisers (passive, duplicate filter on): never more than the capacity remembered.
    var merger = ScanResultMerger(configuration: .init(isActive: false, filterDuplicates: true, capacity: 64))
    var reports = 0
    for n in 0..<1_000 { reports += merger.receive(advInd(advertiser(n)), now: start.advanced(by: .milliseconds(n))).count }
    #expect(reports == 1_000)
    #expect(merger.advertiserCount <= 64)
    // The most recent is still remembered (no second report); the first was forgotten (reported again).
    #expect(merger.receive(advInd(advertiser(999)), now: start.advanced(by: .seconds(1))).isEmpty)
    #expect(merger.receive(advInd(advertiser(0)), now: start.advanced(by: .seconds(1))).count == 1)
}

@Test func advertisersNotHeardForMaxAgeAreForgotten() {
    var merger = ScanResultMerger(configuration: .init(isActive: false, filterDuplicates: true, maxAge: .seconds(30)))
    _ = merger.receive(advInd(peerA), now: start)
    _ = merger.receive(advInd(peerB), now: start.advanced(by: .seconds(20)))
    #expect(merger.advertiserCount == 2)
    _ = merger.tick(now: start.advanced(by: .seconds(31)))
    #expect(merger.advertiserCount == 1, "A was last heard 31 s ago")
    #expect(merger.receive(advInd(peerB), now: start.advanced(by: .seconds(32))).isEmpty, "B is remembered: a duplicate")
    #expect(merger.receive(advInd(peerA), now: start.advanced(by: .seconds(32))).count == 1, "A was forgotten: reported again")
}

@Test func aHeldAdvertisementOfAForgottenAdvertiserIsReleasedNotDropped() {
    // Active scan: each scannable advertisement waits for its scan response; the flood pushes the first out first.
    var merger = ScanResultMerger(configuration: .init(isActive: true, responseWait: .seconds(5), filterDuplicates: false, capacity: 8))
    var released: [DiscoveredDevice] = []
    for n in 0..<9 { released += merger.receive(advInd(advertiser(n)), now: start.advanced(by: .milliseconds(n))) }
    #expect(released.map(\.peer) == [advertiser(0)], "the least recently heard, released without its response")
    #expect(released.first?.scanResponseData == nil)
    #expect(merger.pendingCount == 8)
}

@Test func anonymousAdvertisementsAreNeverMergedNorFilteredAsDuplicates() {
    // Address_Type 0xFF (Vol 4 Part E §7.7.65.13): the address field says nothing; two advertisers look the same.
    let anonymous = PeerAddress(.zero, type: .other(0xFF))
    var merger = ScanResultMerger(configuration: .init(isActive: true, filterDuplicates: true))
    // Non-connectable, non-scannable extended advertising (event type 0x0000), the same bytes twice.
    let first = merger.receive(AdvertisingObservation(peer: anonymous, extendedEventType: 0x0000, rssi: -50, txPower: 127, data: advertisingData), now: start)
    let second = merger.receive(AdvertisingObservation(peer: anonymous, extendedEventType: 0x0000, rssi: -51, txPower: 127, data: advertisingData), now: start)
    #expect(first.count == 1 && second.count == 1, "each is its own report, held for nothing and filtered for nothing")
    #expect(merger.advertiserCount == 0, "and leaves no state")
}

@Test func aTruncatedChainIsReportedAsTruncated() {
    var merger = ScanResultMerger(configuration: .init(isActive: false, filterDuplicates: false))
    var observation = advInd()
    observation.isTruncated = true
    #expect(merger.receive(observation, now: start).first?.isTruncated == true)
    #expect(merger.receive(advInd(), now: start).first?.isTruncated == false)
}

@Test func theNextDeadlineFollowsTheOldestHeldAdvertisementAsResponsesReleaseOthers() {
    // Three scannable advertisers 10 ms apart; the first one's response releases it, so the earliest wait left is the
    // second's; a repeated advertisement keeps its first deadline; ticks release in deadline order.
    var merger = ScanResultMerger(configuration: .init(isActive: true, responseWait: .milliseconds(500), filterDuplicates: false))
    let peerC = PeerAddress(BluetoothAddress("C0:00:00:00:00:03")!, type: .random)
    _ = merger.receive(advInd(peerA), now: start)
    _ = merger.receive(advInd(peerB), now: start.advanced(by: .milliseconds(10)))
    _ = merger.receive(advInd(peerC), now: start.advanced(by: .milliseconds(20)))
    #expect(merger.nextDeadline == start.advanced(by: .milliseconds(500)))
    #expect(merger.receive(scanRsp(peerA), now: start.advanced(by: .milliseconds(30))).map(\.peer) == [peerA])
    #expect(merger.nextDeadline == start.advanced(by: .milliseconds(510)))
    _ = merger.receive(advInd(peerB, rssi: -50), now: start.advanced(by: .milliseconds(40)))
    #expect(merger.nextDeadline == start.advanced(by: .milliseconds(510)), "a repeat does not extend the wait")
    #expect(merger.tick(now: start.advanced(by: .milliseconds(515))).map(\.peer) == [peerB])
    #expect(merger.tick(now: start.advanced(by: .milliseconds(515))).isEmpty)
    #expect(merger.nextDeadline == start.advanced(by: .milliseconds(520)))
    #expect(merger.tick(now: start.advanced(by: .seconds(1))).map(\.peer) == [peerC])
    #expect(merger.nextDeadline == nil)
    #expect(merger.pendingCount == 0)
}

/// Without a duplicate filter (AllowDuplicates), an advertiser repeating itself is reported with the same record of its
/// data (``DiscoveredDevice/Payload``: nothing allocated here or above for a repeat), a change with a new one, and its
/// first data again with another new one, equal in content; a field set on a copy makes that copy a record of its own.
@Test func aRepeatingAdvertiserIsReportedWithTheSameRecord() throws {
    var merger = ScanResultMerger(configuration: .init(isActive: false, filterDuplicates: false))
    let withTXPower = advertisingData + [0x02, 0x0A, 0xF8]  // TX Power Level −8 dBm (Supplement Part A §1.5)
    let first = try #require(merger.receive(advInd(), now: start).first)
    let second = try #require(merger.receive(advInd(rssi: -50), now: start.advanced(by: .milliseconds(10))).first)
    let changed = try #require(merger.receive(advInd(data: withTXPower), now: start.advanced(by: .milliseconds(20))).first)
    let back = try #require(merger.receive(advInd(rssi: -40), now: start.advanced(by: .milliseconds(30))).first)
    #expect(first.payload === second.payload && second.rssi == -50 && second.advertisingData == advertisingData)
    #expect(changed.payload !== second.payload && changed.advertisingData == withTXPower)
    #expect(back.payload !== first.payload && back == first)
    var copy = first
    copy.isConnectable = false
    #expect(first.isConnectable && !copy.isConnectable && copy.payload !== first.payload && copy != first)
    #expect(copy.advertisingData == first.advertisingData && copy.scanResponseData == nil)
}
