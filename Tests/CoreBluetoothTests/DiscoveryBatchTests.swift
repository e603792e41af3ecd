// A turn's discoveries reach the delegate as one batch: what the delegate does mid-batch (stop, replace itself) holds at once.
@testable import CoreBluetooth
import OCBCore
import OCBHost
import Foundation
import Testing

/// A delegate that notes each discovery's name and runs `onDiscover` after noting it (on the delegate queue).
private final class BatchDelegate: NSObject, CBCentralManagerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []
    var onDiscover: ((CBCentralManager, Int) -> Void)?

    var discovered: [String] { lock.withLock { names } }
    func centralManagerDidUpdateState(_ central: CBCentralManager) {}
    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        let count: Int = lock.withLock {
            names.append(advertisementData[CBAdvertisementDataLocalNameKey] as? String ?? "?")
            return names.count
        }
        onDiscover?(central, count)
    }
    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        lock.withLock { names.append("connected") }
    }
}

@Suite struct DiscoveryBatchTests {
    /// Ten advertisers, C0:00:00:00:00:00 to C0:00:00:00:00:09, named "n0" to "n9".
    private static func reports() -> [AdvertisementReport] {
        (0..<10).map { index in
            AdvertisementReport(peer: PeerAddress(address: BluetoothAddress("C0:00:00:00:00:0\(index)")!, type: .random),
                                rssi: -50, localName: "n\(index)", isConnectable: true)
        }
    }

    /// The ten advertisers of ``reports()`` as the host hands them over (``BackendEvent/discovered(_:)``): the same
    /// addresses, each advertising its Complete Local Name (0x09, Core Supplement v11 Part A §1.2) and nothing else.
    private static func devices() -> [DiscoveredDevice] {
        reports().map { device($0.peer, name: $0.localName ?? "") }
    }

    /// A connectable device as the host makes it, advertising `name` as a Complete Local Name (0x09), then `more`.
    private static func device(_ peer: PeerAddress, name: String, more: [UInt8] = []) -> DiscoveredDevice {
        DiscoveredDevice(peer: peer, rssi: -50, isConnectable: true,
                         advertisingData: [UInt8(name.utf8.count + 1), 0x09] + Array(name.utf8) + more, scanResponseData: nil)
    }

    /// Emits the ten reports while the delegate queue is held, so they go over as one turn (one batch).
    private static func emitAsOneBatch(_ h: Harness) {
        let release = DispatchSemaphore(value: 0)
        h.queue.async { release.wait() }
        for report in reports() { h.backend.emit(.advertisement(report)) }
        release.signal()
        h.flush()
    }

    @Test func aStopScanInTheMiddleOfABatchEndsItsDiscoveriesAtOnce() {
        let h = Harness()
        let delegate = BatchDelegate()
        h.manager.delegate = delegate
        delegate.onDiscover = { central, count in if count == 3 { central.stopScan() } }
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        Self.emitAsOneBatch(h)
        #expect(delegate.discovered == ["n0", "n1", "n2"], "none after the stopScan the third one called")
    }

    @Test func aDelegateReplacedInTheMiddleOfABatchGetsNoMoreTheNewOneGetsTheRest() {
        let h = Harness()
        let first = BatchDelegate(), second = BatchDelegate()
        h.manager.delegate = first
        first.onDiscover = { central, count in if count == 4 { central.delegate = second } }
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        Self.emitAsOneBatch(h)
        #expect(first.discovered == ["n0", "n1", "n2", "n3"])
        #expect(second.discovered == ["n4", "n5", "n6", "n7", "n8", "n9"])
    }

    @Test func aLinksEventDuringALongBatchWaitsForOnePieceOfItNotForTheRest() throws {
        // A turn of the host's discoveries (256 new advertisers) reaches the delegate queue as one batch, and the
        // link's connection comes while its first discovery is delivered (a connect during a flood): didConnect
        // follows the piece at hand (32 discoveries), the rest of the batch follows it, in order. Before, it waited
        // for all 256, each a new CBPeripheral.
        let h = Harness()
        let peripheral = try #require(h.discover())
        h.manager.connect(peripheral)
        h.flush()
        let delegate = BatchDelegate()
        h.manager.delegate = delegate
        delegate.onDiscover = { _, count in
            if count == 1 { h.backend.emit(.connected(Harness.peer, mtu: h.backend.linkMTU)) }
        }
        let batch = (0..<256).map { index in
            Self.device(PeerAddress(address: BluetoothAddress(value: 0xC100_0000_0000 + UInt64(index)), type: .random), name: "b\(index)")
        }
        h.backend.emit(.discovered(batch))
        h.flush()
        let log = delegate.discovered
        #expect(CBCentralManager.deliveryPiece == 32)
        #expect(log.firstIndex(of: "connected") == 32, "after the first piece")
        #expect(log.filter { $0 != "connected" } == (0..<256).map { "b\($0)" })
        #expect(peripheral.state == .connected)
    }

    @Test func oneEventOfManyAdvertisementsIsDecidedAsTheyWouldBeOneByOne() {
        // The backend hands a turn of the host's discoveries over as one event: without AllowDuplicates a peripheral
        // heard twice in it is discovered once (Apple's coalescing), in the order heard; a scan with a service filter
        // lets through only the reports that list the service.
        let h = Harness()
        let delegate = BatchDelegate()
        h.manager.delegate = delegate
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        let devices = Self.devices()
        let turn: [DiscoveredDevice] = Array(devices.prefix(5)) + [devices[0], devices[3]] + Array(devices.suffix(5))
        h.backend.emit(.discovered(turn))
        h.flush()
        #expect(delegate.discovered == (0..<10).map { "n\($0)" })

        h.manager.stopScan()
        h.manager.scanForPeripherals(withServices: [CBUUID(string: "180F")], options: nil)
        h.flush()
        // Complete List of 16-bit Service UUIDs (0x03) holding Battery Service 0x180F, Core Supplement v11 Part A §1.1.
        let battery = Self.device(devices[7].peer, name: "n7", more: [0x03, 0x03, 0x0F, 0x18])
        h.backend.emit(.discovered([devices[6], battery, devices[8]]))
        h.flush()
        #expect(delegate.discovered.suffix(1) == ["n7"])
        #expect(delegate.discovered.count == 11)
    }

    @Test func aPeripheralRepeatingItselfInOneBatchGetsOneDictionary() throws {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        let release = DispatchSemaphore(value: 0)
        h.queue.async { release.wait() }
        let report = AdvertisementReport(peer: Harness.peer, rssi: -50, localName: "Same", isConnectable: true)
        for _ in 0..<3 { h.backend.emit(.advertisement(report)) }
        release.signal()
        h.flush()
        // The three deliveries share one dictionary (one storage: a Swift dictionary is one reference), and it is the
        // one kept for the next same advertisement.
        func storage(_ dictionary: [String: Any]) -> UInt { withUnsafeBytes(of: dictionary) { $0.load(as: UInt.self) } }
        let dictionaries = h.recorder.discovered.suffix(3).map { storage($0.1) }
        #expect(MemoryLayout<[String: Any]>.size == MemoryLayout<UInt>.size)
        #expect(dictionaries.count == 3 && Set(dictionaries).count == 1)
        let peripheral = try #require(h.recorder.discovered.last?.0)
        let kept = try #require(h.manager.lock.run { peripheral.lastAdvertisement })
        #expect(storage(try #require(kept.record).data) == dictionaries.first)
        #expect(h.recorder.log.suffix(3) == ["discover Same -50", "discover Same -50", "discover Same -50"])
    }

    /// A peripheral keeps a number of its last advertisement's record from the host (``DiscoveredDevice/Payload``), not
    /// the record: once delivered, the record is freed by whoever else let it go last (the host's reader, which made
    /// it). The same record again gets the same dictionary; equal bytes in another record get a new, equal one.
    @Test func theLastAdvertisementKeepsTheHostsRecordsNumberNotTheRecord() throws {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        func record() -> DiscoveredDevice {
            DiscoveredDevice(peer: Harness.peer, rssi: -50, isConnectable: true, advertisingData: [0x05, 0x09, 0x53, 0x61, 0x6D, 0x65],
                             scanResponseData: nil)
        }
        func storage(_ dictionary: [String: Any]) -> UInt { withUnsafeBytes(of: dictionary) { $0.load(as: UInt.self) } }
        weak var firstRecord: DiscoveredDevice.Payload?
        var peripheral: CBPeripheral?
        do {
            let device = record()
            firstRecord = device.payload
            let report = AdvertisementReport(received: device)
            h.backend.emit(.advertisement(report))
            h.flush()
            h.backend.emit(.advertisement(report))
            h.flush()
            let two = h.recorder.discovered.suffix(2).map { storage($0.1) }
            #expect(two.count == 2 && two[0] == two[1], "the same record again: the same dictionary")
            peripheral = h.recorder.discovered.last?.0
        }
        #expect(MemoryLayout<[String: Any]>.size == MemoryLayout<UInt>.size)
        // Handed back to the backend at the second batch (new content at the first), as to a host for its scan's next
        // records (``CBCentralManager/recordsToHandBack``); a host's scan takes them, emptied here.
        #expect(h.manager.lock.run { h.manager.recordsToHandBack.records.isEmpty })
        #expect(h.backend.discoveryRecordSpares?.count == 1)
        h.backend.discoveryRecordSpares?.removeAll()
        #expect(firstRecord == nil, "delivered and let go by the test: nothing in the manager keeps it")
        #expect(try #require(h.manager.lock.run { peripheral?.lastAdvertisement }).name == "Same")
        // Equal bytes in another record: what the app sees is the same (the name, no rename).
        try #require(peripheral).delegate = h.recorder
        h.backend.emit(.advertisement(AdvertisementReport(received: record())))
        h.flush()
        let last = try #require(h.recorder.discovered.last)
        #expect(last.0 === peripheral && last.1[CBAdvertisementDataLocalNameKey] as? String == "Same")
        #expect(peripheral?.name == "Same" && !h.recorder.log.contains { $0.hasPrefix("name ") })
    }

    /// A peripheral whose advertisements alternate within one piece (an active scan's advertisement alone, then merged
    /// with its scan response, and so on) is renamed at each change, in order, and `peripheralDidUpdateName` comes
    /// before each `didDiscover` that renamed it: last seen as "Y", then one batch of "X", "Y", "Y" (reports as the host
    /// makes them, Complete Local Names, Core Supplement v11 Part A §1.2).
    @Test func namesThatAlternateInOnePieceRenameInOrder() throws {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        func device(_ name: UInt8) -> DiscoveredDevice {
            DiscoveredDevice(peer: Harness.peer, rssi: -50, isConnectable: true, advertisingData: [0x02, 0x09, name], scanResponseData: nil)
        }
        let y = device(0x59)
        h.backend.emit(.advertisement(AdvertisementReport(received: y)))
        h.flush()
        try #require(h.recorder.discovered.last?.0).delegate = h.recorder
        let release = DispatchSemaphore(value: 0)
        h.queue.async { release.wait() }
        h.backend.emit(.discovered([device(0x58), y, y]))
        release.signal()
        h.flush()
        #expect(h.recorder.log.suffix(6) == ["discover Y -50", "name X", "discover X -50", "name Y", "discover Y -50", "discover Y -50"])
        #expect(h.recorder.discovered.last?.0.name == "Y")
    }
}

/// With AllowDuplicates the host's records of a batch's discoveries of new content go back to the host when the next
/// batch starts (by then the batch that held them is let go); a repeated record (the advertiser's last, the same
/// content) is not handed back, nor anything in a coalesced scan, and stopScan lets them go.
@Suite struct RecordHandBackTests {
    /// A host's discovery of advertiser C1:00:00:00:00:`index`, non-connectable, its manufacturer data (company 0xFFFF)
    /// holding `counter`.
    func device(_ index: UInt64, _ counter: UInt8) -> DiscoveredDevice {
        DiscoveredDevice(peer: PeerAddress(address: BluetoothAddress(value: 0xC100_0000_0000 + index), type: .random), rssi: -50,
                         isConnectable: false, advertisingData: [0x04, 0xFF, 0xFF, 0xFF, counter], scanResponseData: nil)
    }

    /// The records the manager holds to hand back at the next batch, by identity.
    func held(_ h: Harness) -> [ObjectIdentifier] {
        h.manager.lock.run { h.manager.recordsToHandBack.records.map(ObjectIdentifier.init) }
    }

    /// A record repeated within a batch (an advertiser repeating itself between two reads) is new content at its first
    /// delivery only, so it is handed back once: twice, it would never be found held by nothing else.
    @Test func aRecordRepeatedInABatchIsHandedBackOnce() {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        let repeated = device(1, 0), other = device(2, 0)
        h.backend.emit(.discovered([repeated, other, repeated, repeated]))
        h.flush()
        #expect(held(h).count == 2)
        #expect(Set(held(h)) == Set([repeated, other].map { ObjectIdentifier($0.payload) }))
        #expect(h.recorder.discovered.count == 4)
    }

    /// A scan with AllowDuplicates and a service filter: the host's scan takes no records back (it does not report every
    /// advertisement as it comes), so none is handed back.
    @Test func aScanWithAServiceFilterHandsNothingBack() {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: [CBUUID(string: "180F")],
                                     options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        // Complete List of 16-bit Service UUIDs (0x03): Battery Service 0x180F.
        let battery = DiscoveredDevice(peer: device(1, 0).peer, rssi: -50, isConnectable: false,
                                       advertisingData: [0x03, 0x03, 0x0F, 0x18], scanResponseData: nil)
        h.backend.emit(.discovered([battery]))
        h.flush()
        #expect(h.recorder.discovered.count == 1)
        #expect(held(h).isEmpty)
    }

    @Test func aBatchsRecordsOfNewContentGoBackWhenTheNextBatchStarts() {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        let first = [device(1, 0), device(2, 0)]
        h.backend.emit(.discovered(first))
        h.flush()
        #expect(Set(held(h)) == Set(first.map { ObjectIdentifier($0.payload) }), "kept until the next batch starts")
        #expect(h.backend.discoveryRecordSpares?.isEmpty == true)
        h.backend.emit(.discovered([first[0]]))
        h.flush()
        #expect(held(h).isEmpty, "the first batch's went back; the same record again is not new content")
        let given = h.backend.discoveryRecordSpares?.takeAll() ?? []
        #expect(Set(given.map(ObjectIdentifier.init)) == Set(first.map { ObjectIdentifier($0.payload) }), "given to the host's spares")
        h.backend.emit(.discovered([device(1, 1)]))
        h.flush()
        #expect(held(h).count == 1)
        h.manager.stopScan()
        #expect(held(h).isEmpty, "stopScan lets them go")
    }

    @Test func aCoalescedScanHandsNothingBack() {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        h.backend.emit(.discovered([device(1, 0), device(2, 0)]))
        h.flush()
        #expect(held(h).isEmpty)
        #expect(h.recorder.discovered.count == 2)
    }
}
