// An advertisementData the app let go is rewritten for the next discovery (with AllowDuplicates, the peripheral's next; without, the next advertiser's); one it kept never changes.
import OCBAdvertising
import OCBCore
import OCBHost
@testable import CoreBluetooth
import Foundation
import Synchronization
import Testing

/// A delegate that keeps no dictionary: for each discovery it notes the manufacturer data, the local name, the TX
/// power and the address of the dictionary's storage (a `[String: Any]` is one reference to it), as a gateway that
/// reads the values and moves on would.
private final class ValueReader: NSObject, CBCentralManagerDelegate, @unchecked Sendable {
    struct Seen: Equatable {
        let manufacturer: Data?
        let name: String?
        let txPower: Int?
        let keys: Set<String>
    }
    let seen = Mutex<[Seen]>([])
    let storage = Mutex<[UInt]>([])

    func centralManagerDidUpdateState(_ central: CBCentralManager) {}

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
        let values = Seen(manufacturer: advertisementData[CBAdvertisementDataManufacturerDataKey] as? Data,
                          name: advertisementData[CBAdvertisementDataLocalNameKey] as? String,
                          txPower: (advertisementData[CBAdvertisementDataTxPowerLevelKey] as? NSNumber)?.intValue,
                          keys: Set(advertisementData.keys))
        seen.withLock { $0.append(values) }
        storage.withLock { $0.append(unsafeBitCast(advertisementData, to: UInt.self)) }
    }
}

/// A delegate that keeps no `Data`: for each discovery it notes the manufacturer data's bytes and where they lie, as
/// a gateway that decodes a sensor's value and moves on would.
private final class ManufacturerBytesReader: NSObject, CBCentralManagerDelegate, @unchecked Sendable {
    let seen = Mutex<[(bytes: [UInt8], address: UInt)]>([])

    func centralManagerDidUpdateState(_ central: CBCentralManager) {}

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard let data = advertisementData[CBAdvertisementDataManufacturerDataKey] as? Data else { return }
        let noted = data.withUnsafeBytes { (bytes: Array($0), address: UInt(bitPattern: $0.baseAddress)) }
        seen.withLock { $0.append(noted) }
    }
}

@Suite struct AdvertisementDataRecyclingTests {
    /// Manufacturer data of Apple's iBeacon layout (25 octets: Company Identifier 0x004C little-endian, type 0x02,
    /// length 0x15, a 16-octet UUID, major, minor, measured power), its minor counting, and `extra` octets after it.
    func beacon(minor: UInt8, extra: [UInt8] = []) -> [UInt8] {
        [0x4C, 0x00, 0x02, 0x15] + Array(repeating: 0xE2, count: 16) + [0x00, 0x01, 0x00, minor, 0xC5] + extra
    }

    /// A report as the host makes it (the bytes unparsed): Flags (LE General Discoverable, BR/EDR not supported) and
    /// Manufacturer Specific Data (0xFF) holding `manufacturer`, Core Supplement v11 Part A §1.3, §1.4.
    func received(_ manufacturer: [UInt8]) -> AdvertisementReport {
        AdvertisementReport(received: DiscoveredDevice(peer: Harness.peer, rssi: -50, isConnectable: true,
                                                       advertisingData: [0x02, 0x01, 0x06, UInt8(manufacturer.count + 1), 0xFF] + manufacturer,
                                                       scanResponseData: nil))
    }

    /// A report as received whose manufacturer data changes at each advertisement (a beacon's counting minor, over the
    /// 14 octets a `Data` holds without storage of its own): when the app keeps no `Data`, each discovery has its own
    /// bytes, written where the one before lay (no `Data` made per report); a longer one, then a shorter one again,
    /// still come whole.
    @Test func manufacturerDataTheAppLetGoIsRewrittenInPlace() {
        let h = Harness()
        let reader = ManufacturerBytesReader()
        h.manager.delegate = reader
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        let sent = (0..<4).map { beacon(minor: $0) } + [beacon(minor: 4, extra: [0xAA, 0xBB]), beacon(minor: 5)]
        for bytes in sent { h.emit(.advertisement(received(bytes))) }
        let seen = reader.seen.withLock { $0 }
        #expect(seen.map(\.bytes) == sent)
        #expect(Set(seen.prefix(4).map(\.address)).count == 1, "the first discovery's bytes, rewritten")
    }

    /// Six new advertisers (1 to 6) of a scan without AllowDuplicates, each with a counter in its manufacturer data.
    func emitNewAdvertisers(_ h: Harness) {
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        for index in 0..<6 {
            var report = report(counter: UInt8(index))
            report.peer = PeerAddress(address: BluetoothAddress("C0:00:00:00:00:0\(index + 1)")!, type: .random)
            h.emit(.advertisement(report))
        }
    }

    /// A scan without AllowDuplicates among new advertisers (a crowd walking past a gateway): each gets one discovery
    /// with its own values, and when the app keeps no dictionary, each is written into the storage of the one before
    /// (one address: no dictionary made and freed per advertiser; the reader keeps each `Data`, which never changes).
    @Test func coalescedDiscoveriesOfNewAdvertisersReuseTheDictionaryTheAppLetGo() {
        let h = Harness()
        let reader = ValueReader()
        h.manager.delegate = reader
        emitNewAdvertisers(h)
        let base: Set = [CBAdvertisementDataIsConnectable, CBAdvertisementDataManufacturerDataKey]
        #expect(reader.seen.withLock { $0 } == (0..<6).map {
            .init(manufacturer: Data([0xFF, 0xFF, UInt8($0)]), name: nil, txPower: nil, keys: base)
        })
        #expect(Set(reader.storage.withLock { $0 }).count == 1, "each new advertiser's dictionary written where the one before lay")
    }

    /// The same advertisers with a delegate that keeps every dictionary: each one it holds keeps its own counter.
    @Test func coalescedDictionariesTheAppKeepsNeverChange() {
        let h = Harness()
        emitNewAdvertisers(h)
        let held = h.recorder.discovered.map { $0.1[CBAdvertisementDataManufacturerDataKey] as? Data }
        #expect(held == (0..<6).map { Data([0xFF, 0xFF, UInt8($0)]) })
    }

    /// A delegate that keeps each manufacturer `Data` but lets its dictionary go (the dictionary is then a spare whose
    /// `Data` the app still holds): the next discovery's bytes, of the same length and of another, go into a `Data` of
    /// their own, and every `Data` kept still holds its own minor.
    @Test func manufacturerDataTheAppKeepsWithoutItsDictionaryNeverChanges() {
        final class DataKeeper: NSObject, CBCentralManagerDelegate, @unchecked Sendable {
            let kept = Mutex<[Data]>([])
            func centralManagerDidUpdateState(_ central: CBCentralManager) {}
            func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                                advertisementData: [String: Any], rssi RSSI: NSNumber) {
                if let data = advertisementData[CBAdvertisementDataManufacturerDataKey] as? Data { kept.withLock { $0.append(data) } }
            }
        }
        let h = Harness()
        let keeper = DataKeeper()
        h.manager.delegate = keeper
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        let sent = (0..<3).map { beacon(minor: $0) } + [beacon(minor: 3, extra: [0xAA]), beacon(minor: 4)]
        for bytes in sent { h.emit(.advertisement(received(bytes))) }
        #expect(keeper.kept.withLock { $0 } == sent.map { Data($0) })
    }

    /// A delegate that stops the scan from `didDiscover` lets the spares go with it (as `stopScan` does), even though
    /// the batch that called it still held them.
    @Test func aScanStoppedFromDidDiscoverKeepsNoSpares() {
        final class Stopper: NSObject, CBCentralManagerDelegate, @unchecked Sendable {
            func centralManagerDidUpdateState(_ central: CBCentralManager) {}
            func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                                advertisementData: [String: Any], rssi RSSI: NSNumber) { central.stopScan() }
        }
        let h = Harness()
        let stopper = Stopper()
        h.manager.scanForPeripherals(withServices: nil, options: nil)
        h.flush()
        emitNewAdvertisers(h)  // starts its own scan, with the recorder; six spares' worth of discoveries
        #expect(h.manager.lock.run { h.manager.advertisementDataSpares.count } > 0, "the scan keeps its spares")
        h.manager.delegate = stopper
        var report = report(counter: 9)
        report.peer = PeerAddress(address: BluetoothAddress("C0:00:00:00:00:09")!, type: .random)
        h.emit(.advertisement(report))
        #expect(!h.manager.isScanning)
        #expect(h.manager.lock.run { h.manager.advertisementDataSpares.count } == 0)
    }

    /// The same reports with a delegate that keeps every dictionary: each `Data` it holds keeps its own minor.
    @Test func manufacturerDataTheAppKeepsNeverChanges() {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        let sent = (0..<4).map { beacon(minor: $0) } + [beacon(minor: 4, extra: [0xAA])]
        for bytes in sent { h.emit(.advertisement(received(bytes))) }
        let held = h.recorder.discovered.map { $0.1[CBAdvertisementDataManufacturerDataKey] as? Data }
        #expect(held == sent.map { Data($0) })
    }

    /// A report of the harness peer: manufacturer data 0xFFFF `counter` (a sensor's rolling counter), with a name and a
    /// TX power when asked.
    func report(counter: UInt8, name: String? = nil, txPower: Int? = nil) -> AdvertisementReport {
        var report = AdvertisementReport(peer: Harness.peer, rssi: -60, localName: name,
                                         manufacturerData: ManufacturerData(companyID: 0xFFFF, payload: [counter]), isConnectable: true)
        report.txPowerLevel = txPower
        return report
    }

    /// A spare keeps what it holds under IsConnectable and IsTruncated, so a reuse writes them only when they change:
    /// an advertiser alternating ADV_IND and ADV_NONCONN_IND with the same keys (Core v5.4 Vol 6 Part B §2.3.1) gets
    /// each discovery's own IsConnectable in the one storage rewritten, and a truncated chain's IsTruncated stays true
    /// while its spare is reused (Vol 4 Part E §7.7.65.13, Data Status 0b10).
    @Test func aReusedDictionaryHasEachDiscoverysConnectabilityAndTruncation() {
        final class FlagReader: NSObject, CBCentralManagerDelegate, @unchecked Sendable {
            let seen = Mutex<[(connectable: Bool?, truncated: Bool?, storage: UInt)]>([])
            func centralManagerDidUpdateState(_ central: CBCentralManager) {}
            func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                                advertisementData: [String: Any], rssi RSSI: NSNumber) {
                let flags = ((advertisementData[CBAdvertisementDataIsConnectable] as? NSNumber)?.boolValue,
                             (advertisementData[CBAdvertisementDataIsTruncatedKey] as? NSNumber)?.boolValue,
                             unsafeBitCast(advertisementData, to: UInt.self))
                seen.withLock { $0.append(flags) }
            }
        }
        let h = Harness()
        let reader = FlagReader()
        h.manager.delegate = reader
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        let connectable: [Bool] = [true, false, false, true, false]
        for (minor, flag) in connectable.enumerated() {
            h.emit(.advertisement(AdvertisementReport(received: DiscoveredDevice(
                peer: Harness.peer, rssi: -50, isConnectable: flag,
                advertisingData: [0x02, 0x01, 0x06, 27, 0xFF] + beacon(minor: UInt8(minor)), scanResponseData: nil))))
        }
        let seen = reader.seen.withLock { $0 }
        #expect(seen.map(\.connectable) == connectable)
        #expect(seen.allSatisfy { $0.truncated == nil })
        #expect(Set(seen.map(\.storage)).count == 1, "one storage, rewritten")
        let truncated = (5..<8).map { minor in
            var device = DiscoveredDevice(peer: Harness.peer, rssi: -50, isConnectable: false,
                                          advertisingData: [0x02, 0x01, 0x06, 27, 0xFF] + beacon(minor: UInt8(minor)), scanResponseData: nil)
            device.isTruncated = true
            return device
        }
        for device in truncated { h.emit(.advertisement(AdvertisementReport(received: device))) }
        let after = reader.seen.withLock { $0 }.dropFirst(connectable.count)
        #expect(after.map(\.connectable) == [false, false, false])
        #expect(after.map(\.truncated) == [true, true, true])
        #expect(Set(after.map(\.storage)).count == 1, "another set of keys: one other storage, rewritten")
    }

    /// The recorder keeps every dictionary (as an app that stores them does): after five reports of a changing
    /// counter, each one it holds still has its own counter, none rewritten by a later discovery.
    @Test func aDictionaryTheAppKeepsNeverChanges() {
        let h = Harness()
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        for counter: UInt8 in 0..<5 { h.emit(.advertisement(report(counter: counter))) }
        let held = h.recorder.discovered.map { $0.1[CBAdvertisementDataManufacturerDataKey] as? Data }
        #expect(held == (0..<5).map { Data([0xFF, 0xFF, $0]) })
    }

    /// A delegate that keeps none: each discovery carries its own values as the keys come and go (a name and a TX
    /// power appear, then go), and while the set of keys stays the same the dictionary is written into the storage of
    /// the one before (one address); a change of keys takes another.
    @Test func aDictionaryTheAppLetGoIsRewrittenWithTheNextValues() {
        let h = Harness()
        let reader = ValueReader()
        h.manager.delegate = reader
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        h.flush()
        for counter: UInt8 in 0..<4 { h.emit(.advertisement(report(counter: counter))) }
        h.emit(.advertisement(report(counter: 4, name: "Sensor", txPower: -8)))
        h.emit(.advertisement(report(counter: 5)))
        let base: Set = [CBAdvertisementDataIsConnectable, CBAdvertisementDataManufacturerDataKey]
        let full = base.union([CBAdvertisementDataLocalNameKey, CBAdvertisementDataTxPowerLevelKey])
        #expect(reader.seen.withLock { $0 } == [
            .init(manufacturer: Data([0xFF, 0xFF, 0]), name: nil, txPower: nil, keys: base),
            .init(manufacturer: Data([0xFF, 0xFF, 1]), name: nil, txPower: nil, keys: base),
            .init(manufacturer: Data([0xFF, 0xFF, 2]), name: nil, txPower: nil, keys: base),
            .init(manufacturer: Data([0xFF, 0xFF, 3]), name: nil, txPower: nil, keys: base),
            .init(manufacturer: Data([0xFF, 0xFF, 4]), name: "Sensor", txPower: -8, keys: full),
            .init(manufacturer: Data([0xFF, 0xFF, 5]), name: nil, txPower: nil, keys: base),
        ])
        let storage = reader.storage.withLock { $0 }
        #expect(Set(storage.prefix(4)).count == 1, "the same keys: the first dictionary's storage, rewritten")
        #expect(storage[4] != storage[3], "a name and a TX power: another set of keys, another storage")
    }

    /// The recycler hands back only a spare with exactly the keys asked for, the last given first, and keeps at most
    /// ``AdvertisementDataRecycler/capacity``, dropping the oldest.
    @Test func theRecyclerMatchesKeysAndKeepsItsBound() {
        func spare(_ data: [String: Any], keys: Int) -> AdvertisementDataRecord {
            AdvertisementDataRecord(data: data, keys: keys, manufacturerData: nil, isConnectable: false)
        }
        var recycler = AdvertisementDataRecycler()
        recycler.give(spare(["a": 1], keys: 0b01))
        recycler.give(spare(["b": 2], keys: 0b01))
        recycler.give(nil)
        #expect(recycler.take(keys: 0b11) == nil)
        #expect(recycler.take(keys: 0b01)?.data["b"] as? Int == 2)
        #expect(recycler.take(keys: 0b01)?.data["a"] as? Int == 1)
        #expect(recycler.take(keys: 0b01) == nil)
        for index in 0...AdvertisementDataRecycler.capacity { recycler.give(spare(["n": index], keys: 0b100)) }
        var left: [Int] = []
        while let spare = recycler.take(keys: 0b100) { left.append(spare.data["n"] as? Int ?? -1) }
        #expect(left == Array((1...AdvertisementDataRecycler.capacity).reversed()), "the oldest was dropped")
    }
}
