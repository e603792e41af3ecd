// A delegate slower than the notifications or the advertisements: at most 4,096 of each wait, the rest are dropped, counted, logged once.
@testable import CoreBluetooth
import OCBHost
import Foundation
import Testing

/// Collects the `[CoreBluetooth]` lines about dropped notifications; other lines pass on to the previous sink.
private final class DropWarnings: @unchecked Sendable {
    private let lock = NSLock()
    private var captured: [String] = []
    private var previous: (@Sendable (String) -> Void)?

    init(marker: String = "slower than the notifications") {
        previous = Diagnostics.setSink { [self] line in
            if line.contains(marker) { lock.withLock { captured.append(line) } } else { previous?(line) }
        }
    }

    func remove() { if let previous { Diagnostics.setSink(previous) } }
    var lines: [String] { lock.withLock { captured } }
}

/// Serialized: the warning captures replace the process's one diagnostics sink.
@Suite(.serialized) struct DeliveryBoundTests {
@Test func notificationsBeyondTheBoundAreDroppedCountedAndLoggedOnce() throws {
    let warnings = DropWarnings()
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
    let warnings = DropWarnings(marker: "slower than the advertisements")
    defer { warnings.remove() }
    let h = Harness()
    h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
    h.flush()
    let before = h.recorder.log.count
    // The delegate queue is stuck while 6,000 advertisements arrive (a flood, every one wanted): 4,096 wait.
    let release = DispatchSemaphore(value: 0)
    h.queue.async { release.wait() }
    for index in 0..<6000 {
        h.backend.emit(.advertisement(AdvertisementReport(peer: Harness.peer, rssi: -40 - index % 50, localName: "Sensor", isConnectable: true)))
    }
    #expect(h.manager.droppedDiscoveryCount == 6000 - CBCentralManager.discoveryQueueBound)
    release.signal()
    h.flush()
    #expect(h.recorder.log.dropFirst(before).filter { $0.hasPrefix("discover Sensor") }.count == 4096)
    #expect(warnings.lines.count == 1)
    // Caught up: the next one is delivered, and a new overflow would warn again.
    h.emit(.advertisement(AdvertisementReport(peer: Harness.peer, rssi: -40, localName: "Sensor", isConnectable: true)))
    #expect(h.recorder.log.last == "discover Sensor -40")
    #expect(h.manager.droppedDiscoveryCount == 6000 - CBCentralManager.discoveryQueueBound)
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
