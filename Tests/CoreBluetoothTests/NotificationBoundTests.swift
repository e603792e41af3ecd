// A delegate slower than the notifications or the advertisements: at most so many of each wait, the rest are dropped, counted, logged once.
@testable import CoreBluetooth
import OCBHost
import OCBCore
import OCBAdvertising
import Foundation
import Testing

/// A harness scanning with AllowDuplicates, the capture of the discovery warnings, and the log's length at that point.
private func scanWithDuplicates() -> (Harness, WarningCapture, Int) {
    let warnings = WarningCapture(marker: "slower than the advertisements")
    let h = Harness()
    h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
    h.flush()
    return (h, warnings, h.recorder.log.count)
}

/// Serialized: one overflow at a time; the warning captures share the one tap of every test (``DiagnosticsTap``).
@Suite(.serialized) struct DeliveryBoundTests {
@Test func notificationsBeyondTheBoundAreDroppedCountedAndLoggedOnce() throws {
    let warnings = WarningCapture(marker: "slower than the notifications")
    defer { warnings.remove() }
    let h = Harness()
    let (peripheral, characteristics) = try #require(h.explored())
    let measurement = try #require(characteristics["2A37"])
    peripheral.setNotifyValue(true, for: measurement)
    h.flush()
    h.respond(.written)
    let before = h.recorder.log.count

    // The delegate queue is stuck (a slow delegate) while 4,572 Handle Value Notifications of 0x0003 arrive.
    #expect(CBCentralManager.notificationQueueBound == 4096)
    let release = DispatchSemaphore(value: 0)
    h.queue.async { release.wait() }
    for index in 0..<4572 {
        h.backend.emit(.valueNotified(Harness.peer, handle: 3, value: [UInt8(index & 0xFF), UInt8(index >> 8)], isIndication: false))
    }
    #expect(peripheral.droppedNotificationCount == 476)
    release.signal()
    h.flush()
    let values = h.recorder.log.dropFirst(before).filter { $0.hasPrefix("value 2A37") }
    // The first 4,096 in order; the last one delivered is value 4095 (ff 0f).
    #expect(values.count == 4096 && values.last == "value 2A37 [255, 15]")
    #expect(warnings.lines.count == 1)

    // Caught up: new values flow again, and a later overflow would warn again.
    h.emit(.valueNotified(Harness.peer, handle: 3, value: [0x06, 0x48], isIndication: false))
    #expect(h.recorder.log.last == "value 2A37 [6, 72]")
    #expect(peripheral.droppedNotificationCount == 476)
}

@Test func discoveriesBeyondTheBoundAreDroppedCountedAndLoggedOnce() throws {
    let (h, warnings, before) = scanWithDuplicates()
    defer { warnings.remove() }
    // The delegate queue is stuck while 70,000 advertisements arrive (a flood, every one wanted): 65,536 wait, each
    // named "Sensor" (estimated at 160 + 32 + 6 bytes, 13 MB in all: the count bound is reached before the bytes').
    #expect(CBCentralManager.discoveryQueueBound == 65_536)
    let release = DispatchSemaphore(value: 0)
    h.queue.async { release.wait() }
    let report = AdvertisementReport(peer: Harness.peer, rssi: -40, localName: "Sensor", isConnectable: true)
    #expect(report.heapBytes == 198)
    for _ in 0..<70_000 { h.backend.emit(.advertisement(report)) }
    #expect(h.manager.droppedDiscoveryCount == 70_000 - 65_536)
    release.signal()
    h.flush()
    #expect(h.recorder.log.dropFirst(before).filter { $0.hasPrefix("discover Sensor") }.count == 65_536)
    #expect(warnings.lines.count == 1)
    #expect(warnings.lines.first?.contains("65536 discoveries (or 16 MiB of them)") == true)
    // Caught up: the next one is delivered, and a new overflow would warn again.
    h.emit(.advertisement(AdvertisementReport(peer: Harness.peer, rssi: -41, localName: "Sensor", isConnectable: true)))
    #expect(h.recorder.log.last == "discover Sensor -41")
    #expect(h.manager.droppedDiscoveryCount == 70_000 - 65_536)
}

@Test func largeDiscoveriesAreBoundedByTheirBytes() throws {
    let (h, warnings, before) = scanWithDuplicates()
    defer { warnings.remove() }
    // Reports of 1,600 bytes of manufacturer data (extended advertising, Core v5.4 Vol 6 Part B §2.3.4.9 allows
    // 1,650), held as iOS gives them (the 2-octet company identifier, then the 1,600), are estimated at 160 + 32 +
    // 1,602 = 1,794 bytes: 16 MiB holds 9,351 of them, not 65,536 (117 MB).
    let large = AdvertisementReport(peer: Harness.peer, rssi: -40, localName: nil,
                                    manufacturerData: ManufacturerData(companyID: 0xFFFF, payload: Array(repeating: 0xA5, count: 1_600)),
                                    isConnectable: false)
    #expect(large.heapBytes == 1_794)
    #expect(CBCentralManager.discoveryQueueByteBound == 16_777_216)
    let release = DispatchSemaphore(value: 0)
    h.queue.async { release.wait() }
    for _ in 0..<10_000 { h.backend.emit(.advertisement(large)) }
    #expect(h.manager.droppedDiscoveryCount == 10_000 - 9_351)
    release.signal()
    h.flush()
    #expect(h.recorder.log.dropFirst(before).filter { $0.hasPrefix("discover") }.count == 9_351)
    #expect(warnings.lines.count == 1)
    // Delivered, the bytes are given back: as many fit again.
    h.queue.async { release.wait() }
    for _ in 0..<9_351 { h.backend.emit(.advertisement(large)) }
    release.signal()
    h.flush()
    #expect(h.manager.droppedDiscoveryCount == 10_000 - 9_351)
}

@Test func aWaitingDiscoveryMakesItsPeripheralOnlyWhenDelivered() throws {
    let h = Harness()
    h.manager.scanForPeripherals(withServices: nil, options: nil)
    h.flush()
    // While the delegate queue is stuck, a new advertiser's discovery waits as its report alone: no peripheral is
    // known for it yet (retrievePeripherals finds none); once delivered, the one handed to the delegate is found.
    let release = DispatchSemaphore(value: 0)
    h.queue.async { release.wait() }
    let peer = PeerAddress(address: BluetoothAddress("C6:05:04:03:02:01")!, type: .random)
    h.backend.emit(.advertisement(AdvertisementReport(peer: peer, rssi: -50, localName: "Later", isConnectable: true)))
    let identifier = PeripheralIdentifier.make(controller: h.manager.lock.run { h.manager.controllerAddress } ?? .zero, peer: peer)
    #expect(h.manager.retrievePeripherals(withIdentifiers: [identifier]).isEmpty)
    release.signal()
    h.flush()
    #expect(h.recorder.log.last == "discover Later -50")
    let found = h.manager.retrievePeripherals(withIdentifiers: [identifier])
    #expect(found.first?.name == "Later")
}

@Test func theBoundCountsBytesAndGivesThemBack() {
    // Three deliveries of at most 1,000 bytes: 400 + 400 fit, 400 more would make 1,200; one always fits alone.
    var bound = DeliveryBound(limit: 3, byteLimit: 1_000)
    #expect(bound.admit(bytes: 400).admitted && bound.admit(bytes: 400).admitted)
    #expect(!bound.admit(bytes: 400).admitted && bound.admit(bytes: 200).admitted)
    #expect(bound.bytesInFlight == 1_000 && bound.inFlight == 3 && bound.dropped == 1)
    bound.delivered(bytes: 400)
    #expect(bound.bytesInFlight == 600 && bound.inFlight == 2)
    for _ in 0..<2 { bound.delivered(bytes: 400) }
    #expect(bound.bytesInFlight == 0 && bound.inFlight == 0)
    #expect(bound.admit(bytes: 5_000).admitted, "when none waits, one is admitted whatever its size")
    #expect(!bound.admit(bytes: 1).admitted)
}

@Test func aFloodThatOverflowsAgainAndAgainWarnsAtMostOnceAMinute() {
    // Two deliveries may wait; each overflow episode ends when the delegate caught up (none waiting).
    var bound = DeliveryBound(limit: 2)
    let start = ContinuousClock.now
    func overflow(at offset: Duration) -> [Bool] {
        var warnings: [Bool] = []
        for _ in 0..<3 { warnings.append(bound.admit(now: start.advanced(by: offset)).warn) }
        for _ in 0..<2 { bound.delivered() }
        return warnings
    }
    #expect(overflow(at: .zero) == [false, false, true], "the first overflow warns at its first drop")
    #expect(overflow(at: .seconds(30)) == [false, false, false], "another one within the minute is only counted")
    #expect(overflow(at: .seconds(61)) == [false, false, true], "a minute after the last warning, it warns again")
    #expect(bound.dropped == 3)
}
}
