// A read's discoveries go to the event handler together, in order, and before whatever a later packet of the read does.

import Dispatch
import Foundation
import OCBCore
import OCBHCI
@testable import OCBHost
import Testing

/// An LE Advertising Report event (Core v5.4 Vol 4 Part E §7.7.65.2): one report, ADV_NONCONN_IND (0x03), random
/// address C0:00:00:00:`index` (the last two octets), Flags 0x06, RSSI −60 dBm (0xC4).
private func report(_ index: Int) -> [UInt8] {
    [0x3E, 0x0F, 0x02, 0x01, 0x03, 0x01, UInt8(index & 0xFF), UInt8(index >> 8), 0x00, 0x00, 0x00, 0xC0,
     0x03, 0x02, 0x01, 0x06, 0xC4]
}

/// The address of ``report(_:)``'s advertiser `index`.
private func advertiser(_ index: Int) -> UInt64 { 0xC000_0000_0000 | UInt64(index) }

/// What a batch handler was given, in order.
private final class Batches: @unchecked Sendable {
    private let lock = NSLock()
    private var batches: [[DiscoveredDevice]] = []
    func add(_ batch: [DiscoveredDevice]) { lock.withLock { batches.append(batch) } }
    var all: [[DiscoveredDevice]] { lock.withLock { batches } }
}

/// A passive scan without duplicate filtering on a scripted controller: every report is a discovery at once.
private let everyReport = ScanOptions(isActive: false, controllerFiltersDuplicates: false, hostFiltersDuplicates: false)

@Test(.timeLimit(.minutes(1))) func aReadsDiscoveriesReachTheBatchHandlerTogetherInOrder() async throws {
    let controller = ScriptedController()
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller }))
    let log = EventLog()
    let batches = Batches()
    host.setEventHandler(queue: DispatchQueue(label: "DiscoveryBatchingTests.events"), { log.append($0) },
                         discoveries: { batches.add($0) })
    defer { host.stop() }
    try await host.start()
    try await host.startScan(everyReport)
    // One read of 300 report events: the host hands its discoveries over 256 at a time (SerialBatcher.turnLimit).
    controller.injectRead((0..<300).map { (.event, report($0)) })
    var spins = 0
    while batches.all.joined().count < 300, spins < 5_000 { usleep(1_000); spins += 1 }
    #expect(batches.all.map(\.count) == [256, 44], "two batches, not one call per discovery")
    #expect(batches.all.joined().map(\.peer.address.value) == (0..<300).map(advertiser))
    #expect(batches.all.joined().allSatisfy { $0.rssi == -60 && $0.advertisingData == [0x02, 0x01, 0x06] })
    #expect(!log.all.contains { $0.discovered != nil }, "no discovery also went to the event handler")
    #expect(host.droppedDiscoveryCount == 0)
}

@Test(.timeLimit(.minutes(1))) func discoveriesOfAReadGoOutBeforeWhatItsNextPacketDoes() async throws {
    // Reports, then LE Scan Timeout (§7.7.65.17: the controller ended the scan) in the same read: the discoveries the
    // reports made are handed over, then the scan's end; none is lost with the scan.
    let controller = ScriptedController()
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller }))
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "DiscoveryBatchingTests.events")) { log.append($0) }
    defer { host.stop() }
    try await host.start()
    try await host.startScan(everyReport)
    controller.injectRead([(.event, report(1)), (.event, report(2)), (.event, [0x3E, 0x01, 0x11])])
    // The scan's end (another lane) may reach the handler first in the same turn: wait for all three.
    #expect(log.waitUntil { events in
        events.contains { if case .scanStopped = $0 { true } else { false } } && events.compactMap(\.discovered).count >= 2
    })
    let found = log.all.compactMap(\.discovered).map(\.peer.address.value)
    #expect(found == [advertiser(1), advertiser(2)])
}

@Test(.timeLimit(.minutes(1))) func aBatchPastTheGateIsCutThereAndItsDroppedOnesComeAgain() async throws {
    // The event queue is held while one read brings 16,384 + 10 distinct advertisers (the host's DiscoveryGate holds
    // 16,384 for a handler): the batch that reaches the bound is cut there, the last 10 are dropped and counted, and
    // the duplicate filter forgets them, so each is reported at its next advertisement; an admitted one is not.
    let controller = ScriptedController()
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller }))
    let log = EventLog()
    let events = DispatchQueue(label: "DiscoveryBatchingTests.held")
    host.setEventHandler(queue: events) { log.append($0) }
    defer { host.stop() }
    try await host.start()
    try await host.startScan(ScanOptions(isActive: false, controllerFiltersDuplicates: false, hostFiltersDuplicates: true))
    let release = DispatchSemaphore(value: 0)
    events.async { release.wait() }
    let limit = 16_384
    controller.injectRead((0..<(limit + 10)).map { (.event, report($0)) })
    var spins = 0
    while host.droppedDiscoveryCount < 10, spins < 5_000 { usleep(1_000); spins += 1 }
    #expect(host.droppedDiscoveryCount == 10)
    release.signal()
    #expect(log.waitUntil { $0.compactMap(\.discovered).count >= limit })
    let first = log.all.compactMap(\.discovered).map(\.peer.address.value)
    #expect(first == (0..<limit).map(advertiser), "the first 16,384 in order, none of the last 10")
    #expect(log.all.contains { if case .notice(let line) = $0 { line.contains("slower than the advertisements") } else { false } })

    // The last admitted one (still among the 4,096 advertisers the merger remembers) and a dropped one, again.
    controller.injectRead([(.event, report(limit - 1)), (.event, report(limit + 3))])
    #expect(log.waitUntil { $0.compactMap(\.discovered).count >= limit + 1 })
    usleep(100_000)  // anything else the read made has reached the log
    let again = log.all.compactMap(\.discovered).dropFirst(limit).map(\.peer.address.value)
    #expect(Array(again) == [advertiser(limit + 3)], "the dropped one again, the admitted one filtered as a duplicate")
}

/// An LE Advertising Report event of advertiser C0:00:00:00:00:01 (ADV_NONCONN_IND, random, RSSI −60 dBm) whose
/// Manufacturer Specific Data (0xFF, company 0xFFFF, Core Supplement v11 Part A §1.4) holds `counter`.
private func counterReport(_ counter: UInt8) -> [UInt8] {
    [0x3E, 0x11, 0x02, 0x01, 0x03, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0xC0,
     0x05, 0x04, 0xFF, 0xFF, 0xFF, counter, 0xC4]
}

/// What a consumer that keeps no discovery noted of each: its bytes (copied) and where its array lay.
private final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(bytes: [UInt8], array: UInt)] = []
    func add(_ device: DiscoveredDevice) {
        let entry = (bytes: device.advertisingData.map { $0 },
                     array: device.advertisingData.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) })
        lock.withLock { entries.append(entry) }
    }
    var all: [(bytes: [UInt8], array: UInt)] { lock.withLock { entries } }
}

@Test(.timeLimit(.minutes(1))) func recordsHandedBackToTheHostCarryItsNextChangedAdvertisements() async throws {
    // A sensor's counter, one read a report, through the host's queue. A consumer that keeps no discovery gives each
    // batch's records back as the facade does (`discoveryRecordSpares`), and the scan makes its next changed
    // advertisements' records with their arrays: every discovery has its own counter, in few arrays.
    let controller = ScriptedController()
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller }))
    let seen = Seen()
    host.setEventHandler(queue: DispatchQueue(label: "DiscoveryBatchingTests.records"), { _ in },
                         discoveries: { batch in
                             for device in batch { seen.add(device) }
                             host.discoveryRecordSpares.give(batch.map(\.payload))
                         })
    defer { host.stop() }
    try await host.start()
    try await host.startScan(everyReport)
    for counter: UInt8 in 0..<40 {
        controller.injectRead([(.event, counterReport(counter))])
        var spins = 0
        while seen.all.count <= Int(counter), spins < 2_000 { usleep(500); spins += 1 }
    }
    #expect(seen.all.map(\.bytes) == (0..<40).map { [0x04, 0xFF, 0xFF, 0xFF, $0] })
    let used = await withCheckedContinuation { continuation in
        host.queue.async { continuation.resume(returning: host.scan?.merger.sparesUsed ?? -1) }
    }
    #expect(used > 20, "most changed advertisements made with a spare's array (\(used) of 39)")
    #expect(Set(seen.all.map(\.array)).count < 20, "few arrays for 40 advertisements")
    // The scan's end lets the spares go.
    try await host.stopScan()
    #expect(host.discoveryRecordSpares.isEmpty)
}
