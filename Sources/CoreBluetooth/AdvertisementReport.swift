// One advertisement as the facade needs it: who, the RSSI, and the parsed content shared between copies.
import Foundation
package import OCBAdvertising
package import OCBCore
package import OCBHost

/// One advertisement as the facade needs it: advertising data and scan response merged (AD structures of Core
/// Supplement v11 Part A), plus the report's RSSI and event type.
///
/// The content is one shared, immutable object (a report passes three queues and a cache, and each copy costs one
/// reference instead of one per field; a change makes a new object), of one of two kinds. From the host it is the
/// host's own record of the bytes as received (``ReceivedAdvertisement``, no allocation here): the thread that reads
/// the controller passes it on unparsed, and the delegate queue reads it once, in place, into the advertisementData
/// dictionary (``CBCentralManager/advertisementData(_:recycling:)``); a field asked for here is read when asked.
/// Made from fields, or once a field is set, it is the parsed fields. Two reports compare their content byte for byte
/// when both are as received (at once when they share the host's arrays), else field by field (``hasSameContent(as:)``).
/// The delivery tells a repeated advertisement by the host's record it carries (``ContentMark``): equal bytes in
/// another record count as new content (a new, equal dictionary).
package struct AdvertisementReport: Sendable, Equatable {
    /// The advertiser.
    package var peer: PeerAddress
    /// RSSI in dBm, nil when the controller gave 127 (not available; Vol 4 Part E §7.7.65.2).
    package var rssi: Int?
    private var source: Source

    /// The content's two kinds, each one reference.
    private enum Source: Sendable {
        /// The host's record of the bytes as received.
        case received(DiscoveredDevice.Payload)
        /// The parsed fields.
        case parsed(Storage)
    }

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

    /// The content of `received`, every field read (one pass over each payload for the fields, one more for a list).
    private static func content(_ received: ReceivedAdvertisement) -> Content {
        let fields = received.fields()
        return Content(localName: fields.localName, manufacturerData: received.manufacturerData(fields),
                       serviceData: received.serviceData(fields), serviceUUIDs: received.serviceUUIDs(fields),
                       txPowerLevel: received.txPowerLevel(fields), isConnectable: received.isConnectable,
                       solicitedServiceUUIDs: received.solicitedServiceUUIDs(fields),
                       hasScanResponse: received.scanResponseData != nil, isTruncated: received.isTruncated)
    }

    /// The content whatever its form (as received: read now).
    private var content: Content {
        switch source {
        case .received(let payload): Self.content(ReceivedAdvertisement(payload))
        case .parsed(let storage): storage.parsed
        }
    }

    /// The host's record of the bytes, when the report is in that form; nil once parsed.
    package var hostRecord: DiscoveredDevice.Payload? {
        if case .received(let payload) = source { return payload }
        return nil
    }

    /// The bytes as received, when the report is in that form (the delivery's one-pass path); nil once parsed.
    package var received: ReceivedAdvertisement? { hostRecord.map(ReceivedAdvertisement.init) }

    /// The content, shared by copies, never changed (so read on any thread without exclusivity checks), and its
    /// ``AdvertisementReport/heapBytes`` estimate, made once.
    private final class Storage: Sendable {
        /// The fields.
        let parsed: Content
        let heapBytes: Int

        init(_ content: Content) {
            parsed = content
            var bytes = 160
            if let name = content.localName { bytes += 32 + name.utf8.count }
            if let manufacturer = content.manufacturerData { bytes += 32 + manufacturer.count }
            for (_, data) in content.serviceData { bytes += 80 + data.count }
            let uuids = content.serviceUUIDs.count + content.overflowServiceUUIDs.count + content.solicitedServiceUUIDs.count
            if uuids > 0 { bytes += 96 + 24 * uuids }
            heapBytes = bytes
        }

        /// `parsed == other.parsed` field by field where they lie (reading `parsed` whole copies every field out
        /// first), the flags and numbers first: two advertisements of a device mostly differ in their data.
        func hasSameContent(as other: Storage) -> Bool {
            parsed.isConnectable == other.parsed.isConnectable && parsed.hasScanResponse == other.parsed.hasScanResponse
                && parsed.isTruncated == other.parsed.isTruncated && parsed.txPowerLevel == other.parsed.txPowerLevel
                && parsed.manufacturerData == other.parsed.manufacturerData && parsed.localName == other.parsed.localName
                && parsed.serviceUUIDs == other.parsed.serviceUUIDs && parsed.serviceData == other.parsed.serviceData
                && parsed.overflowServiceUUIDs == other.parsed.overflowServiceUUIDs
                && parsed.solicitedServiceUUIDs == other.parsed.solicitedServiceUUIDs
        }
    }

    /// Replaces the content with a changed copy (a new object: others sharing the old one keep it).
    private mutating func update(_ change: (inout Content) -> Void) {
        var content = self.content
        change(&content)
        source = .parsed(Storage(content))
    }

    /// Local name (Complete 0x09, else Shortened 0x08).
    package var localName: String? {
        get {
            if let received { return received.fields().localName }
            return content.localName
        }
        set { update { $0.localName = newValue } }
    }
    /// Manufacturer Specific Data (0xFF): company identifier (Assigned Numbers) and the bytes after it; the
    /// Advertising layer's type (one type across the layers), made from ``manufacturerDataBytes``.
    package var manufacturerData: OCBAdvertising.ManufacturerData? {
        get {
            manufacturerDataBytes.flatMap { bytes in
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
        get {
            if let received { return received.manufacturerData(received.fields()) }
            return content.manufacturerData
        }
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
        get {
            if let received { return received.serviceData(received.fields()) }
            return content.serviceData
        }
        set { update { $0.serviceData = newValue } }
    }
    /// Service UUIDs (0x02-0x07), in the order advertised.
    package var serviceUUIDs: [BluetoothUUID] {
        get {
            if let received { return received.serviceUUIDs(received.fields()) }
            return content.serviceUUIDs
        }
        set { update { $0.serviceUUIDs = newValue } }
    }
    /// Apple "overflow area" service UUIDs, if the backend decodes them (best effort; never for bytes as received).
    package var overflowServiceUUIDs: [BluetoothUUID] {
        get {
            if received != nil { return [] }
            return content.overflowServiceUUIDs
        }
        set { update { $0.overflowServiceUUIDs = newValue } }
    }
    /// TX Power Level (0x0A), dBm.
    package var txPowerLevel: Int? {
        get {
            if let received { return received.txPowerLevel(received.fields()) }
            return content.txPowerLevel
        }
        set { update { $0.txPowerLevel = newValue } }
    }
    /// Whether the advertising event type is connectable.
    package var isConnectable: Bool {
        get {
            if let received { return received.isConnectable }
            return content.isConnectable
        }
        set { update { $0.isConnectable = newValue } }
    }
    /// Service Solicitation UUIDs (0x14/0x15/0x1F).
    package var solicitedServiceUUIDs: [BluetoothUUID] {
        get {
            if let received { return received.solicitedServiceUUIDs(received.fields()) }
            return content.solicitedServiceUUIDs
        }
        set { update { $0.solicitedServiceUUIDs = newValue } }
    }
    /// Whether a scan response (SCAN_RSP, Vol 6 Part B §2.3.2.2) is merged in.
    package var hasScanResponse: Bool {
        get {
            if case .received(let payload) = source { return payload.scanResponseData != nil }
            return content.hasScanResponse
        }
        set { update { $0.hasScanResponse = newValue } }
    }
    /// True when the controller could not receive the whole extended advertising chain (Vol 4 Part E §7.7.65.13).
    package var isTruncated: Bool {
        get {
            if let received { return received.isTruncated }
            return content.isTruncated
        }
        set { update { $0.isTruncated = newValue } }
    }
    /// True for an anonymous extended advertisement (Address_Type 0xFF): no address identifies its advertiser.
    package var isAnonymous: Bool { peer.isAnonymous }

    /// Makes a report; empty collections, nils and false by default. The manufacturer data is given either as iOS
    /// holds it (`manufacturerDataBytes`, ``manufacturerDataBytes``) or as the Advertising layer's value
    /// (`manufacturerData`), the first when both are.
    package init(peer: PeerAddress, rssi: Int?, localName: String? = nil, manufacturerData: OCBAdvertising.ManufacturerData? = nil,
                manufacturerDataBytes: Data? = nil, serviceData: [BluetoothUUID: [UInt8]] = [:], serviceUUIDs: [BluetoothUUID] = [],
                overflowServiceUUIDs: [BluetoothUUID] = [], txPowerLevel: Int? = nil, isConnectable: Bool,
                solicitedServiceUUIDs: [BluetoothUUID] = [], hasScanResponse: Bool = false, isTruncated: Bool = false) {
        self.peer = peer
        self.rssi = rssi
        source = .parsed(Storage(Content(localName: localName, manufacturerData: manufacturerDataBytes ?? manufacturerData.map(Self.bytes),
                                  serviceData: serviceData, serviceUUIDs: serviceUUIDs, overflowServiceUUIDs: overflowServiceUUIDs,
                                  txPowerLevel: txPowerLevel, isConnectable: isConnectable,
                                  solicitedServiceUUIDs: solicitedServiceUUIDs, hasScanResponse: hasScanResponse,
                                  isTruncated: isTruncated)))
    }

    /// A report of a host discovery as received: its bytes shared, nothing parsed (``ReceivedAdvertisement``); RSSI nil
    /// when the controller gave 127.
    package init(received device: DiscoveredDevice) {
        peer = device.peer
        rssi = device.rssi.map(Int.init)
        source = .received(device.payload)
    }

    /// About how many bytes of the heap the content holds when this is its last copy, for the bound on reports
    /// waiting for the delegate (``CBCentralManager/discoveryQueueByteBound``). As received: 96 for the host's record
    /// and its advertising data's array header, the array's room, and a scan response's room plus 32; a legacy
    /// advertisement's array has room for 31 octets (127 in all), 1,650 bytes of extended advertising data come to
    /// about 1,750. Parsed: the shared object and,
    /// per field, its bytes plus 32 for a heap string or array and 24 per UUID (at most about 3,000).
    package var heapBytes: Int {
        switch source {
        case .received(let payload): ReceivedAdvertisement.heapBytes(of: payload)
        case .parsed(let storage): storage.heapBytes
        }
    }

    /// What a peripheral keeps of its last advertisement to tell whether a later one has its content
    /// (``CBPeripheral/LastAdvertisement``): of a report as received, the number of the host's record
    /// (``DiscoveredDevice/Payload/serial``), not the record, so the record is freed by whoever else lets it go last
    /// (the host's reader, which made it, once the delegate queue is done with it: freed on another thread, each took
    /// the allocator's slow path); of a parsed one, the report.
    package enum ContentMark: Sendable {
        /// The host's record numbered so: the same content when a report carries the same record.
        case received(serial: UInt64)
        /// A parsed report: compared field by field (``hasSameContent(as:)``).
        case parsed(AdvertisementReport)
    }

    /// This report's ``ContentMark``.
    package var contentMark: ContentMark {
        if case .received(let payload) = source { return .received(serial: payload.serial) }
        return .parsed(self)
    }

    /// Whether this report's content is what `mark` was made of: for a report as received, when it carries the same
    /// record of the host (an advertiser repeating itself does; the same bytes in another record count as new, which
    /// only costs a new dictionary); for a parsed one, ``hasSameContent(as:)``.
    package func hasContent(of mark: ContentMark) -> Bool {
        switch (mark, source) {
        case (.received(let serial), .received(let payload)): payload.serial == serial
        case (.parsed(let report), _): report.hasSameContent(as: self)
        default: false
        }
    }

    /// Whether the content (everything but peer and RSSI) is the same, as cheaply as it can tell: byte for byte when
    /// both are as received (at once when they share the host's record), by identity when both share one parse, else
    /// field by field. Two reports as received whose bytes differ but say the same (Flags aside, another order) are
    /// "not the same" here (what the delivery asks is whether the last dictionary can be given again); ``==``
    /// compares their fields.
    package func hasSameContent(as other: AdvertisementReport) -> Bool {
        switch (source, other.source) {
        case (.received(let mine), .received(let theirs)): ReceivedAdvertisement(mine).hasSameBytes(as: ReceivedAdvertisement(theirs))
        case (.parsed(let mine), .parsed(let theirs)): mine === theirs || mine.hasSameContent(as: theirs)
        default: content == other.content
        }
    }

    /// Peer, RSSI and content equal, the content field by field whatever its form (two reports as received whose bytes
    /// differ but say the same, Flags aside or in another order, are equal).
    package static func == (lhs: AdvertisementReport, rhs: AdvertisementReport) -> Bool {
        lhs.peer == rhs.peer && lhs.rssi == rhs.rssi && (lhs.hasSameContent(as: rhs) || lhs.content == rhs.content)
    }
}
