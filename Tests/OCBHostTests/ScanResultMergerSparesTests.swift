// A scan with AllowDuplicates makes a new advertisement's record with the array of a spare nothing else holds; records never change.

import FuzzSupport
import OCBCore
import OCBHCI
@testable import OCBHost
import Testing

/// An LE Advertising Report event packet (Core v5.4 Vol 4 Part E §7.7.65.2) with one ADV_NONCONN_IND report from
/// C0:00:00:00:00:`address` (random), RSSI −50 dBm.
private func event(address: UInt8, data: [UInt8]) -> [UInt8] {
    [0x3E, UInt8(12 + data.count), 0x02, 0x01, 0x03, 0x01, address, 0x00, 0x00, 0x00, 0x00, 0xC0, UInt8(data.count)] + data + [0xCE]
}

/// Flags (LE General Discoverable, BR/EDR not supported) and Manufacturer Specific Data of company 0xFFFF holding
/// `counter`, as a sensor's advertisement (Core Supplement v11 Part A §1.3, §1.4); `extra` octets after the counter.
private func sensor(_ counter: UInt8, extra: [UInt8] = []) -> [UInt8] {
    [0x02, 0x01, 0x06, UInt8(4 + extra.count), 0xFF, 0xFF, 0xFF, counter] + extra
}

/// Where an array's bytes lie.
private func address(_ bytes: [UInt8]) -> UInt { bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }

@Suite struct ScanResultMergerSparesTests {
    let start = ContinuousClock.now
    /// A passive scan with AllowDuplicates: every advertisement reported.
    let configuration = ScanResultMerger.Configuration(isActive: false, filterDuplicates: false)

    /// The devices the merger reports for `data` from advertiser `address`, `milliseconds` after ``start``, read in place.
    func receive(_ merger: inout ScanResultMerger, address: UInt8 = 1, _ data: [UInt8], at milliseconds: Int) throws -> [DiscoveredDevice] {
        let view = try #require(LEAdvertisingReportView(eventPacket: event(address: address, data: data)))
        return view.flatMap { merger.receive($0, now: start.advanced(by: .milliseconds(milliseconds))) }
    }

    /// The one device of `devices` (a report of one advertisement); a test failure when there is not exactly one.
    /// (Not `#require`, which keeps what it checked for its message: a record it holds is not one nothing else holds.)
    func one(_ devices: [DiscoveredDevice]) -> DiscoveredDevice {
        if devices.count != 1 { Issue.record("\(devices.count) devices, not 1") }
        return devices.first ?? DiscoveredDevice(peer: PeerAddress(.zero, type: .public), rssi: nil, isConnectable: false,
                                                 advertisingData: [], scanResponseData: nil)
    }

    /// A record handed back once nothing else holds it: the advertiser's next new advertisement is a new record (a new
    /// serial, its own bytes) whose bytes lie in the spare's array, written in place, a longer one too (legacy arrays
    /// are made with room for 31 octets).
    @Test func aNewAdvertisementIsWrittenIntoTheArrayOfASpareNothingElseHolds() throws {
        var merger = ScanResultMerger(configuration: configuration)
        var first: DiscoveredDevice? = one(try receive(&merger, sensor(1), at: 0))
        let firstSerial = first?.payload.serial
        let firstArray = first.map { address($0.advertisingData) }
        _ = try receive(&merger, sensor(2), at: 1)  // the advertiser's last record is now this one's
        merger.addSpares(first.map { [$0.payload] } ?? [])
        first = nil
        let third = one(try receive(&merger, sensor(3, extra: [0xAA, 0xBB]), at: 2))
        #expect(third.advertisingData == sensor(3, extra: [0xAA, 0xBB]))
        #expect(address(third.advertisingData) == firstArray, "the spare's array, written in place")
        #expect(third.payload.serial != firstSerial, "a new record: new content")
        #expect(third.scanResponseData == nil && !third.isTruncated && !third.isConnectable)
        #expect(merger.sparesUsed == 1)
    }

    /// A record handed back while something still holds it (an app keeping a discovery) is not used: the merger lets
    /// it go (whoever holds it last frees it, as any record), and a later advertisement gets a new array.
    @Test func aSpareSomethingStillHoldsIsLetGoNotUsed() throws {
        var merger = ScanResultMerger(configuration: configuration)
        var kept: DiscoveredDevice? = one(try receive(&merger, sensor(1), at: 0))
        let keptArray = kept.map { address($0.advertisingData) }
        _ = try receive(&merger, sensor(2), at: 1)
        merger.addSpares(kept.map { [$0.payload] } ?? [])
        let third = one(try receive(&merger, sensor(3), at: 2))
        #expect(address(third.advertisingData) != keptArray, "still held: not used, and let go by the merger")
        #expect(merger.sparesUsed == 0)
        kept = nil
        let fourth = one(try receive(&merger, sensor(4), at: 3))
        #expect(merger.sparesUsed == 0, "not kept for later")
        #expect(fourth.advertisingData == sensor(4))
    }

    /// An advertisement the advertiser's last record already holds gets that record again, not a spare (an advertiser
    /// going back to what it sent, after an advertisement that was not reported as its last record's).
    @Test func anAdvertisementTheLastRecordHoldsKeepsThatRecord() throws {
        var merger = ScanResultMerger(configuration: configuration)
        let first = one(try receive(&merger, sensor(1), at: 0))
        var spare: DiscoveredDevice? = one(try receive(&merger, address: 2, sensor(9), at: 0))
        _ = try receive(&merger, address: 2, sensor(8), at: 1)
        merger.addSpares(spare.map { [$0.payload] } ?? [])
        spare = nil
        let again = one(try receive(&merger, sensor(1), at: 2))
        #expect(again.payload === first.payload)
    }

    /// Over a long seeded sequence of five advertisers whose data changes at most reports, with every record reported
    /// handed back 20 reports later (as the facade does once the delegate has had a batch), the merger reports what
    /// one given no spares reports: reuse never shows.
    @Test func recordsHandedBackNeverChangeWhatIsReported() throws {
        var random = FuzzRandom(seed: 41)
        var withSpares = ScanResultMerger(configuration: configuration)
        var without = ScanResultMerger(configuration: configuration)
        var handedOver: [[DiscoveredDevice]] = []
        for step in 0..<5_000 {
            let advertiser = UInt8(random.next() % 5), counter = UInt8(random.next() % 4)
            let data = sensor(counter, extra: Array(repeating: 0xEE, count: Int(random.next() % 20)))
            let got = try receive(&withSpares, address: advertiser, data, at: step)
            let expected = try receive(&without, address: advertiser, data, at: step)
            #expect(got == expected, "step \(step)")
            #expect(got.map(\.advertisingData) == [data], "step \(step)")
            handedOver.append(got)
            if handedOver.count > 20 { withSpares.addSpares(handedOver.removeFirst().map(\.payload)) }
        }
        #expect(withSpares.sparesUsed > 2_000, "most changed advertisements reuse a spare (\(withSpares.sparesUsed))")
        #expect(without.sparesUsed == 0)
    }
}

@Suite struct PayloadSparesTests {
    /// At most ``DiscoveredDevice/Payload/Spares/capacity`` records are kept, none of more than 62 bytes of AD data
    /// (two legacy PDUs of 31 octets, Core v5.4 Vol 6 Part B §2.3.1), and taking them all, or removing them, empties it.
    @Test func theSparesKeepTheirBound() {
        let spares = DiscoveredDevice.Payload.Spares()
        func record(_ count: Int) -> DiscoveredDevice.Payload {
            DiscoveredDevice.Payload(isConnectable: false, isTruncated: false, advertisingData: Array(repeating: 0, count: count),
                                     scanResponseData: nil)
        }
        #expect(spares.isEmpty)
        spares.give([record(63), record(31)])
        #expect(spares.count == 1, "the 63-byte record is not kept")
        spares.give((0..<(DiscoveredDevice.Payload.Spares.capacity + 10)).map { _ in record(20) })
        #expect(spares.count == DiscoveredDevice.Payload.Spares.capacity)
        #expect(spares.takeAll().count == DiscoveredDevice.Payload.Spares.capacity)
        #expect(spares.isEmpty)
        spares.give([record(1)])
        spares.removeAll()
        #expect(spares.isEmpty && spares.count == 0)
    }
}
