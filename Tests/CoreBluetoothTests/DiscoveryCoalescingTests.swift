// Apple's discovery rules through CBCentralManager: coalesced without AllowDuplicates, every report with it.
import OCBAdvertising
import OCBCore
@testable import CoreBluetooth
import Foundation
import Testing

@Suite struct DiscoveryCoalescingTests {
    /// A report of the harness peer whose manufacturer data carries `counter` (as a sensor's rolling counter does).
    func report(counter: UInt8, scanResponse: Bool = false, peer: PeerAddress = Harness.peer) -> AdvertisementReport {
        var report = AdvertisementReport(peer: peer, rssi: -60, localName: "Sensor",
                                         manufacturerData: ManufacturerData(companyID: 0xFFFF, payload: [counter]), isConnectable: true)
        report.hasScanResponse = scanResponse
        return report
    }

    /// The first discovery of an advertiser no peripheral stands for, in a scan without AllowDuplicates, carries its
    /// peripheral's identifier, derived where it was admitted (version 5 of "<controller>/<device>/<type>", as
    /// ``PeripheralIdentifier/make(controller:peer:)`` has it), and the peripheral delivered has it; one whose peripheral
    /// exists carries none, and neither does a scan with AllowDuplicates.
    @Test func aNewAdvertisersIdentifierIsDerivedWhereItIsAdmitted() throws {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        let controller = try #require(h.manager.lock.run { h.manager.controllerAddress })
        var prepared = try #require(h.manager.prepareDiscovery(report(counter: 0)))
        // Version 5 of "00:1A:7D:DA:71:13/C0:11:22:33:44:55/1" in the namespace 6F43422D-5065-7269-7068-6572616C0000,
        // as Python's uuid.uuid5 (RFC 9562 §5.5) computes it.
        #expect(controller == BluetoothAddress("00:1A:7D:DA:71:13"))
        #expect(prepared.identifier == UUID(uuidString: "D222737C-F448-5874-8C87-BAD3CD54EC3A"))
        // Delivered with another identifier in its place: the new peripheral takes the one the discovery carries.
        let carried = UUID()
        prepared.identifier = carried
        h.queue.sync { h.manager.deliver([prepared]) }  // on the delegate queue, as the manager delivers
        let peripheral = try #require(h.recorder.discovered.last?.0)
        #expect(peripheral.identifier == carried)
        // Known now (the recorder holds it): a new scan's first discovery of it carries none.
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        #expect(try #require(h.manager.prepareDiscovery(report(counter: 1))).identifier == nil)
        let other = PeerAddress(address: BluetoothAddress("C0:00:00:00:00:07")!, type: .random)
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        #expect(try #require(h.manager.prepareDiscovery(report(counter: 2, peer: other))).identifier == nil)
    }

    @Test func withoutAllowDuplicatesDataThatMerelyChangesIsNoNewDiscovery() {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        for counter in 0..<5 { h.emit(.advertisement(report(counter: UInt8(counter)))) }
        #expect(h.recorder.log.filter { $0.hasPrefix("discover") } == ["discover Sensor -60"], "five changing reports, one discovery")
        // The scan response completing the data gives one more, and only one.
        h.emit(.advertisement(report(counter: 5, scanResponse: true)))
        h.emit(.advertisement(report(counter: 6, scanResponse: true)))
        #expect(h.recorder.log.filter { $0.hasPrefix("discover") }.count == 2)
        #expect(h.recorder.discovered.last.map { ($0.1[CBAdvertisementDataManufacturerDataKey] as? Data) == Data([0xFF, 0xFF, 5]) } == true)
        // A new scan starts over.
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        h.emit(.advertisement(report(counter: 7)))
        #expect(h.recorder.log.filter { $0.hasPrefix("discover") }.count == 3)
    }

    @Test func aFirstReportWithItsScanResponseIsTheOnlyOne() {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        h.emit(.advertisement(report(counter: 0, scanResponse: true)))
        h.emit(.advertisement(report(counter: 1, scanResponse: true)))
        h.emit(.advertisement(report(counter: 2)))
        #expect(h.recorder.log.filter { $0.hasPrefix("discover") }.count == 1)
    }

    @Test func withAllowDuplicatesEveryReportIsDelivered() {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        for _ in 0..<5 { h.emit(.advertisement(report(counter: 0))) }  // identical reports too
        #expect(h.recorder.log.filter { $0.hasPrefix("discover") }.count == 5)
    }

    @Test func theRememberedSetIsBoundedOldestForgottenFirst() {
        var coalescing = DiscoveryCoalescing()
        func peer(_ n: Int) -> PeerAddress {
            PeerAddress(address: BluetoothAddress(bytes: [0xC0, 0, 0, UInt8(n >> 16), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)]) ?? .zero, type: .random)
        }
        var admitted = 0
        for n in 0..<DiscoveryCoalescing.capacity where coalescing.admit(peer(n), hasScanResponse: true) { admitted += 1 }
        #expect(admitted == DiscoveryCoalescing.capacity)
        #expect(coalescing.count == DiscoveryCoalescing.capacity)
        let r18 = coalescing.admit(peer(0), hasScanResponse: true)
        #expect(!r18, "still remembered")
        let r507 = coalescing.admit(peer(DiscoveryCoalescing.capacity), hasScanResponse: true)
        #expect(r507, "a new one; the oldest goes")
        #expect(coalescing.count == DiscoveryCoalescing.capacity)
        let r787 = coalescing.admit(peer(0), hasScanResponse: true)
        #expect(r787, "forgotten, so reported again")
        // 3 capacities of new peers: the count never passes the bound.
        for n in 1...(3 * DiscoveryCoalescing.capacity) { _ = coalescing.admit(peer(100_000 + n), hasScanResponse: false) }
        #expect(coalescing.count == DiscoveryCoalescing.capacity)
    }
    @Test func anAppThatKeepsNoPeripheralGetsTheSameObjectAtEachDiscovery() {
        // Apple's apps often keep only the identifier; the manager keeps the last 1,024 discovered alive, so repeated
        // advertisements of one device are one object (and one identifier derivation), not one per report.
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        for counter in 0..<3 { h.emit(.advertisement(report(counter: UInt8(counter)))) }
        let objects = h.recorder.discovered.map { ObjectIdentifier($0.0) }
        #expect(objects.count == 3)
        #expect(Set(objects).count == 1)
        #expect(Set(h.recorder.discovered.map(\.0.identifier)).count == 1)
    }
}

@Suite struct AnonymousAndTruncatedDiscoveryTests {
    @Test func anonymousAdvertisementsAreEachTheirOwnPeripheralAndCannotBeConnected() throws {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        let anonymous = PeerAddress(address: .zero, type: .other(0xFF))
        h.emit(.advertisement(AdvertisementReport(peer: anonymous, rssi: -50, localName: "A", isConnectable: false)))
        h.emit(.advertisement(AdvertisementReport(peer: anonymous, rssi: -50, localName: "B", isConnectable: false)))
        let found = h.recorder.discovered.map(\.0)
        #expect(found.count == 2, "not coalesced: there is no address to coalesce by")
        #expect(found.count == 2 && found[0] !== found[1] && found[0].identifier != found[1].identifier)
        // Each is named by its own advertisement (the advertised local name, as any new peripheral is).
        #expect(found.count == 2 && found[0].name == "A" && found[1].name == "B")
        h.manager.connect(try #require(found.first))
        h.flush()
        #expect(h.recorder.log.last == "failToConnect error=CB.1", "invalid parameters: no address to connect to")
        #expect(!h.backend.calls.contains { $0.hasPrefix("connect") })
    }

    @Test func aTruncatedAdvertisementSaysSo() throws {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        var report = AdvertisementReport(peer: Harness.peer, rssi: -50, localName: "Sens", isConnectable: false)
        report.isTruncated = true
        h.emit(.advertisement(report))
        let data = try #require(h.recorder.discovered.last?.1)
        #expect((data[CBAdvertisementDataIsTruncatedKey] as? NSNumber)?.boolValue == true)
        let whole = Harness()
        _ = whole.discover()
        #expect(whole.recorder.discovered.last?.1[CBAdvertisementDataIsTruncatedKey] == nil, "absent on a whole advertisement")
    }
}

@Suite struct StoppedScanReleaseTests {
    @Test func aStoppedScanLetsGoOfThePeripheralsTheAppDidNotKeep() {
        // Three advertisers discovered; the app keeps one. stopScan drops the manager's own hold (the last 1,024
        // discovered); once the backend says the scan stopped (behind its discoveries), the handed-out table keeps
        // only the peripheral the app still holds, and a new discovery of another one is a new object.
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        func peer(_ n: UInt64) -> PeerAddress { PeerAddress(BluetoothAddress(value: 0xC0_00_00_00_00_00 | n), type: .random) }
        for n: UInt64 in 1...3 { h.emit(.advertisement(AdvertisementReport(peer: peer(n), rssi: -60, localName: "S\(n)", isConnectable: true))) }
        var kept: CBPeripheral? = h.recorder.discovered.first { $0.0.peer == peer(1) }?.0
        let identifierOfThird = h.recorder.discovered.first { $0.0.peer == peer(3) }?.0.identifier
        h.queue.sync { h.recorder.discovered.removeAll() }
        h.manager.stopScan()
        h.flush()
        #expect(h.manager.lock.run { h.manager.recentlyDiscovered.count } == 0)
        h.emit(.scanStopped)
        #expect(h.manager.lock.run { h.manager.handedOut.count } == 1)
        #expect(h.manager.lock.run { h.manager.handedOut[peer(1)]?.value } === kept)
        // A new scan finds the third again: a new object with the same identifier.
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        h.emit(.advertisement(AdvertisementReport(peer: peer(3), rssi: -61, localName: "S3", isConnectable: true)))
        #expect(h.recorder.discovered.first?.0.identifier == identifierOfThird)
        #expect(identifierOfThird != nil)
        kept = nil
    }
}
