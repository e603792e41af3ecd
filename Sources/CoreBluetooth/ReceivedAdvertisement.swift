// One discovery's AD bytes as the host received them, read in place only where the facade needs a field.
import Foundation
package import OCBAdvertising
package import OCBCore
package import OCBHost

/// A discovery's advertising data and scan response as the host received them (AD structures, `Length (1) | AD Type
/// (1) | AD Data`, Core v5.4 Vol 3 Part C §11), with the PDU's connectability and truncation: the form an
/// ``AdvertisementReport`` from the host has. The thread that reads the controller hands them on as they are: the
/// host's own immutable record (``Host/DiscoveredDevice/Payload``), shared, not parsed, not copied, the same object
/// while the advertiser repeats itself. The delegate queue reads them once, in place
/// (``Advertising/AdvertisingDataView``), straight into the advertisementData dictionary.
///
/// The fields are merged by ``Advertising/MergedAdvertisement``'s rules, read leniently (a malformed structure is
/// skipped, the rest counts; Core Supplement v11 Part A): lists united in order, advertising data first; a Complete
/// Local Name (0x09) before a Shortened one (0x08), the scan response's between two of a kind; service data,
/// manufacturer data and TX power from the advertising data first. Manufacturer data is the first Manufacturer
/// Specific Data structure (0xFF: Company Identifier, 2 octets little-endian, then the manufacturer's bytes), as iOS
/// gives it; TX power is the TX Power Level AD structure (0x0A, dBm), not the extended report's field. Tests check
/// every field against the full parse (``Advertising/AdvertisingData``) on every captured payload and mutations of each.
package struct ReceivedAdvertisement: Sendable {
    /// The host's record of what was advertised.
    package let payload: DiscoveredDevice.Payload

    /// The advertising data (AD structures).
    package var advertisingData: [UInt8] { payload.advertisingData }
    /// The scan response data; nil when none was merged in.
    package var scanResponseData: [UInt8]? { payload.scanResponseData }
    /// Whether the advertising PDU was connectable.
    package var isConnectable: Bool { payload.isConnectable }
    /// Whether the controller could not receive the whole extended advertising chain (Vol 4 Part E §7.7.65.13).
    package var isTruncated: Bool { payload.isTruncated }

    /// What `payload` holds (shared, not copied).
    package init(_ payload: DiscoveredDevice.Payload) {
        self.payload = payload
    }

    /// Where the scanner's fields lie in each payload (one pass over each, ``Advertising/AdvertisingDataView/fields()``),
    /// and the merged local name: no allocation but the name's (none for a name of up to 15 UTF-8 octets).
    struct Fields {
        let advertising: AdvertisingDataView.Fields
        let response: AdvertisingDataView.Fields?
        let localName: String?
    }

    /// The fields of both payloads and the merged local name (trailing NULs stripped, as BlueZ does).
    func fields() -> Fields {
        let advertising = AdvertisingDataView(advertisingData).fields()
        guard let scanResponseData else {
            return Fields(advertising: advertising, response: nil,
                          localName: advertising.localName.map(AdvertisingDataView(advertisingData).string))
        }
        let response = AdvertisingDataView(scanResponseData).fields()
        let localName: String?
        if let name = response.localName, response.isLocalNameComplete || !advertising.isLocalNameComplete {
            localName = AdvertisingDataView(scanResponseData).string(name)
        } else {
            localName = advertising.localName.map(AdvertisingDataView(advertisingData).string)
        }
        return Fields(advertising: advertising, response: response, localName: localName)
    }

    /// The first Manufacturer Specific Data's AD Data, Company Identifier first, as iOS gives it (one copy); nil when
    /// neither payload has one.
    func manufacturerData(_ fields: Fields) -> Data? {
        manufacturerDataLocation(fields).map { Self.data($0.bytes, $0.range) }
    }

    /// Where ``manufacturerData(_:)``'s bytes lie: the payload that has them and their range in it (within it); nil
    /// when neither payload has one.
    func manufacturerDataLocation(_ fields: Fields) -> (bytes: [UInt8], range: Range<Int>)? {
        if let range = fields.advertising.manufacturerData {
            return (advertisingData, range.clamped(to: 0..<advertisingData.count))
        }
        if let scanResponseData, let range = fields.response?.manufacturerData {
            return (scanResponseData, range.clamped(to: 0..<scanResponseData.count))
        }
        return nil
    }

    /// The service UUIDs (0x02-0x07) of both payloads, united in order; empty when neither lists one.
    func serviceUUIDs(_ fields: Fields) -> [BluetoothUUID] {
        guard fields.advertising.serviceUUIDCount > 0 || fields.response?.serviceUUIDCount ?? 0 > 0 else { return [] }
        return Self.united(AdvertisingDataView(advertisingData).serviceUUIDs, scanResponseData.map { AdvertisingDataView($0).serviceUUIDs })
    }

    /// The solicited service UUIDs (0x14, 0x1F, 0x15) of both payloads, united in order; empty when neither has one.
    func solicitedServiceUUIDs(_ fields: Fields) -> [BluetoothUUID] {
        guard fields.advertising.solicitedServiceUUIDCount > 0 || fields.response?.solicitedServiceUUIDCount ?? 0 > 0 else { return [] }
        return Self.united(AdvertisingDataView(advertisingData).solicitedServiceUUIDs,
                           scanResponseData.map { AdvertisingDataView($0).solicitedServiceUUIDs })
    }

    /// Service Data (0x16, 0x20, 0x21) by UUID, the advertising data's first for a UUID in both.
    func serviceData(_ fields: Fields) -> [BluetoothUUID: [UInt8]] {
        guard fields.advertising.serviceDataCount > 0 || fields.response?.serviceDataCount ?? 0 > 0 else { return [:] }
        var serviceData = AdvertisingDataView(advertisingData).serviceData
        if let scanResponseData { serviceData.merge(AdvertisingDataView(scanResponseData).serviceData) { first, _ in first } }
        return serviceData
    }

    /// ``serviceData(_:)`` as advertisementData gives it (`CBAdvertisementDataServiceDataKey`: a `Data` by `CBUUID`),
    /// made from the bytes where they lie: no map of arrays on the way. Empty when neither payload has one.
    func serviceDataValues(_ fields: Fields) -> [CBUUID: Data] {
        let count = fields.advertising.serviceDataCount + (fields.response?.serviceDataCount ?? 0)
        guard count > 0 else { return [:] }
        // The UUIDs taken so far, the first one winning.
        var taken = TakenUUIDs(expecting: count)
        var values = [CBUUID: Data](minimumCapacity: count)
        Self.addServiceData(of: advertisingData, to: &values, taken: &taken)
        if let scanResponseData { Self.addServiceData(of: scanResponseData, to: &values, taken: &taken) }
        return values
    }

    /// Adds the service data of `bytes` (AD structures) whose UUID is not in `taken` to `values`, and their UUIDs to `taken`.
    private static func addServiceData(of bytes: [UInt8], to values: inout [CBUUID: Data], taken: inout TakenUUIDs) {
        AdvertisingDataView(bytes).forEachServiceData { uuid, range in
            guard taken.insert(uuid) else { return }
            values[CBUUID(bluetoothUUID: uuid)] = data(bytes, range)
        }
    }

    /// Service UUIDs already taken: a short list looked through for a legacy advertisement's few (each Service Data
    /// structure takes 4 octets or more of 31), a set for an extended one's many (up to about 400 in a 1,650-octet chain,
    /// Core v5.4 Vol 4 Part E §7.7.65.13), so that no payload costs a look through every UUID at each one.
    private struct TakenUUIDs {
        private var list: [BluetoothUUID] = []
        private var set: Set<BluetoothUUID>?

        /// Room for `count` UUIDs: a list for 16 or fewer, else a set.
        init(expecting count: Int) {
            if count > 16 { set = Set(minimumCapacity: count) } else { list.reserveCapacity(count) }
        }

        /// Takes `uuid`; false when it was taken before.
        mutating func insert(_ uuid: BluetoothUUID) -> Bool {
            if let inserted = set?.insert(uuid).inserted { return inserted }
            guard !list.contains(uuid) else { return false }
            list.append(uuid)
            return true
        }
    }

    /// TX Power Level (0x0A) in dBm, the advertising data's first.
    func txPowerLevel(_ fields: Fields) -> Int? {
        (fields.advertising.txPowerLevel ?? fields.response?.txPowerLevel).map(Int.init)
    }

    /// Whether both hold the same bytes and flags (at once when they share the host's record or its arrays, as an
    /// advertiser repeating itself does; else one `memcmp` a payload).
    func hasSameBytes(as other: ReceivedAdvertisement) -> Bool {
        payload.hasSameContent(as: other.payload)
    }

    /// About how many bytes of the heap this holds when it is the last holder of its record and arrays: the record (64)
    /// and each array's room (its capacity: a legacy advertisement's has room for 31 octets) and Swift's 32-byte header.
    var heapBytes: Int { Self.heapBytes(of: payload) }

    /// ``heapBytes`` of a record (without making a ``ReceivedAdvertisement`` of it).
    static func heapBytes(of payload: DiscoveredDevice.Payload) -> Int {
        96 + payload.advertisingData.capacity + (payload.scanResponseData.map { 32 + $0.capacity } ?? 0)
    }

    /// The bytes of `range` (within `bytes`, clamped to it) copied into a `Data` at once (the generic copy from a slice
    /// goes element by element).
    private static func data(_ bytes: [UInt8], _ range: Range<Int>) -> Data {
        bytes.withUnsafeBytes { Data(UnsafeRawBufferPointer(rebasing: $0[range.clamped(to: 0..<$0.count)])) }
    }

    /// `first`, then those of `second` it does not hold, in order.
    private static func united(_ first: [BluetoothUUID], _ second: [BluetoothUUID]?) -> [BluetoothUUID] {
        guard let second, !second.isEmpty else { return first }
        var result = first
        for uuid in second where !result.contains(uuid) { result.append(uuid) }
        return result
    }
}
