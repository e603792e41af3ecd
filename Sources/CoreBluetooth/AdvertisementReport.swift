// One advertisement as the facade needs it: who, the RSSI, and the parsed content shared between copies.
import Foundation
package import OCBAdvertising
package import OCBCore
package import OCBHost

/// One advertisement as the facade needs it: advertising data and scan response already merged by the backend
/// (AD structures of Core Supplement v11 Part A), plus the report's RSSI and event type.
///
/// The parsed content lives in one shared, immutable object: a report passes three queues and two caches (the
/// backend's last report per advertiser, the peripheral's last advertisement), and each copy costs one reference
/// instead of one per field; a change makes a new object (the backend makes each report whole, with one ``init``).
/// Two reports made from the same parse compare equal by identity at once (``hasSameContent(as:)``); otherwise field
/// by field.
package struct AdvertisementReport: Sendable, Equatable {
    /// The advertiser.
    package var peer: PeerAddress
    /// RSSI in dBm, nil when the controller gave 127 (not available; Vol 4 Part E §7.7.65.2).
    package var rssi: Int?
    private var storage: Storage

    /// The fields parsed from the advertising data and scan response (each one compared in
    /// ``Storage/hasSameContent(as:)`` too).
    private struct Content: Equatable, Sendable {
        var localName: String? = nil
        /// Manufacturer Specific Data as iOS gives it: the Company Identifier (2 octets, little-endian), then the bytes.
        var manufacturerData: Data? = nil
        var serviceData: [BluetoothUUID: [UInt8]] = [:]
        var serviceUUIDs: [BluetoothUUID] = []
        var overflowServiceUUIDs: [BluetoothUUID] = []
        var txPowerLevel: Int? = nil
        var isConnectable: Bool = false
        var solicitedServiceUUIDs: [BluetoothUUID] = []
        var hasScanResponse: Bool = false
        var isTruncated: Bool = false
    }

    /// The content, shared by copies, never changed (so read on any thread without exclusivity checks), and its
    /// ``AdvertisementReport/heapBytes`` estimate, made once.
    private final class Storage: Sendable {
        let content: Content
        let heapBytes: Int
        init(_ content: Content) {
            self.content = content
            var bytes = 160
            if let name = content.localName { bytes += 32 + name.utf8.count }
            if let manufacturer = content.manufacturerData { bytes += 32 + manufacturer.count }
            for (_, data) in content.serviceData { bytes += 80 + data.count }
            let uuids = content.serviceUUIDs.count + content.overflowServiceUUIDs.count + content.solicitedServiceUUIDs.count
            if uuids > 0 { bytes += 96 + 24 * uuids }
            heapBytes = bytes
        }

        /// `content == other.content` field by field where they lie (reading `content` whole copies every field
        /// out first), the flags and numbers first: two advertisements of a device mostly differ in their data.
        func hasSameContent(as other: Storage) -> Bool {
            content.isConnectable == other.content.isConnectable && content.hasScanResponse == other.content.hasScanResponse
                && content.isTruncated == other.content.isTruncated && content.txPowerLevel == other.content.txPowerLevel
                && content.manufacturerData == other.content.manufacturerData && content.localName == other.content.localName
                && content.serviceUUIDs == other.content.serviceUUIDs && content.serviceData == other.content.serviceData
                && content.overflowServiceUUIDs == other.content.overflowServiceUUIDs
                && content.solicitedServiceUUIDs == other.content.solicitedServiceUUIDs
        }
    }

    /// Replaces the content with a changed copy (a new object: others sharing the old one keep it).
    private mutating func update(_ change: (inout Content) -> Void) {
        var content = storage.content
        change(&content)
        storage = Storage(content)
    }

    /// Local name (Complete 0x09, else Shortened 0x08).
    package var localName: String? {
        get { storage.content.localName }
        set { update { $0.localName = newValue } }
    }
    /// Manufacturer Specific Data (0xFF): company identifier (Assigned Numbers) and the bytes after it; the
    /// Advertising layer's type (one type across the layers), made from ``manufacturerDataBytes``.
    package var manufacturerData: OCBAdvertising.ManufacturerData? {
        get {
            storage.content.manufacturerData.flatMap { bytes in
                bytes.count >= 2 ? ManufacturerData(companyID: UInt16(bytes[bytes.startIndex]) | UInt16(bytes[bytes.startIndex + 1]) << 8,
                                                    payload: Array(bytes.dropFirst(2))) : nil
            }
        }
        set { update { $0.manufacturerData = newValue.map(Self.bytes) } }
    }
    /// Manufacturer Specific Data (0xFF) as `CBAdvertisementDataManufacturerDataKey` holds it on iOS: the Company
    /// Identifier (2 octets, little-endian, Core Supplement v11 Part A §1.4), then the manufacturer's bytes; the
    /// advertisementData dictionaries share it.
    package var manufacturerDataBytes: Data? {
        get { storage.content.manufacturerData }
        set { update { $0.manufacturerData = newValue } }
    }

    /// `manufacturer` as iOS gives it: the Company Identifier little-endian, then the payload.
    private static func bytes(_ manufacturer: OCBAdvertising.ManufacturerData) -> Data {
        var bytes = Data([UInt8(truncatingIfNeeded: manufacturer.companyID), UInt8(truncatingIfNeeded: manufacturer.companyID >> 8)])
        bytes.append(contentsOf: manufacturer.payload)
        return bytes
    }
    /// Service Data (0x16/0x20/0x21), by service UUID.
    package var serviceData: [BluetoothUUID: [UInt8]] {
        get { storage.content.serviceData }
        set { update { $0.serviceData = newValue } }
    }
    /// Service UUIDs (0x02-0x07), in the order advertised.
    package var serviceUUIDs: [BluetoothUUID] {
        get { storage.content.serviceUUIDs }
        set { update { $0.serviceUUIDs = newValue } }
    }
    /// Apple "overflow area" service UUIDs, if the backend decodes them (best effort).
    package var overflowServiceUUIDs: [BluetoothUUID] {
        get { storage.content.overflowServiceUUIDs }
        set { update { $0.overflowServiceUUIDs = newValue } }
    }
    /// TX Power Level (0x0A), dBm.
    package var txPowerLevel: Int? {
        get { storage.content.txPowerLevel }
        set { update { $0.txPowerLevel = newValue } }
    }
    /// Whether the advertising event type is connectable.
    package var isConnectable: Bool {
        get { storage.content.isConnectable }
        set { update { $0.isConnectable = newValue } }
    }
    /// Service Solicitation UUIDs (0x14/0x15/0x1F).
    package var solicitedServiceUUIDs: [BluetoothUUID] {
        get { storage.content.solicitedServiceUUIDs }
        set { update { $0.solicitedServiceUUIDs = newValue } }
    }
    /// Whether a scan response (SCAN_RSP, Vol 6 Part B §2.3.2.2) is merged in.
    package var hasScanResponse: Bool {
        get { storage.content.hasScanResponse }
        set { update { $0.hasScanResponse = newValue } }
    }
    /// True when the controller could not receive the whole extended advertising chain (Vol 4 Part E §7.7.65.13).
    package var isTruncated: Bool {
        get { storage.content.isTruncated }
        set { update { $0.isTruncated = newValue } }
    }
    /// True for an anonymous extended advertisement (Address_Type 0xFF): no address identifies its advertiser.
    package var isAnonymous: Bool { peer.type == .other(0xFF) }

    /// Makes a report; empty collections, nils and false by default. The manufacturer data is given either as iOS
    /// holds it (`manufacturerDataBytes`, ``manufacturerDataBytes``) or as the Advertising layer's value
    /// (`manufacturerData`), the first when both are.
    package init(peer: PeerAddress, rssi: Int?, localName: String? = nil, manufacturerData: OCBAdvertising.ManufacturerData? = nil,
                manufacturerDataBytes: Data? = nil, serviceData: [BluetoothUUID: [UInt8]] = [:], serviceUUIDs: [BluetoothUUID] = [],
                overflowServiceUUIDs: [BluetoothUUID] = [], txPowerLevel: Int? = nil, isConnectable: Bool,
                solicitedServiceUUIDs: [BluetoothUUID] = [], hasScanResponse: Bool = false, isTruncated: Bool = false) {
        self.peer = peer
        self.rssi = rssi
        storage = Storage(Content(localName: localName, manufacturerData: manufacturerDataBytes ?? manufacturerData.map(Self.bytes),
                                  serviceData: serviceData, serviceUUIDs: serviceUUIDs, overflowServiceUUIDs: overflowServiceUUIDs,
                                  txPowerLevel: txPowerLevel, isConnectable: isConnectable,
                                  solicitedServiceUUIDs: solicitedServiceUUIDs, hasScanResponse: hasScanResponse,
                                  isTruncated: isTruncated))
    }

    /// About how many bytes of the heap the content holds when this is its last copy, for the bound on reports
    /// waiting for the delegate (``CBCentralManager/discoveryQueueByteBound``): the shared object and, per field, its
    /// bytes plus 32 for a heap string or array (Swift's header) and 24 per UUID. The legacy flood's reports (a name-less
    /// 11 bytes of advertising data) come to about 170; 1,650 bytes of extended advertising data to at most about 3,000.
    package var heapBytes: Int { storage.heapBytes }

    /// Whether the parsed content (everything but peer and RSSI) is the same: at once when both share one parse.
    package func hasSameContent(as other: AdvertisementReport) -> Bool {
        storage === other.storage || storage.hasSameContent(as: other.storage)
    }

    package static func == (lhs: AdvertisementReport, rhs: AdvertisementReport) -> Bool {
        lhs.peer == rhs.peer && lhs.rssi == rhs.rssi && lhs.hasSameContent(as: rhs)
    }
}
