// One advertisement or scan response as the Host sees it, from a legacy, directed or extended report.

import OCBCore

/// An advertising or scan response report, the same shape whichever HCI event carried it.
///
/// Made from an LE Advertising Report (Core v5.4 Vol 4 Part E §7.7.65.2), an LE Directed Advertising Report
/// (§7.7.65.11) or a reassembled chain of LE Extended Advertising Reports (§7.7.65.13, see
/// ``ExtendedAdvertisingReassembler``). Legacy PDUs reported through the extended event get their legacy
/// ``Kind``. The data bytes are kept undecoded (AD structures, Core Specification Supplement Part A).
public struct HCIAdvertisingReport: Hashable, Sendable {
    /// What kind of PDU carried the data.
    public enum Kind: Hashable, Sendable {
        /// A legacy PDU (ADV_IND, ADV_DIRECT_IND, ADV_SCAN_IND, ADV_NONCONN_IND or SCAN_RSP).
        case legacy(LEAdvertisingEventType)
        /// An extended advertising PDU chain (non-legacy).
        case extended
    }

    /// The PDU kind.
    public var kind: Kind
    /// The advertiser accepts connections.
    public var isConnectable: Bool
    /// The advertiser accepts scan requests.
    public var isScannable: Bool
    /// The advertisement is directed (at ``directAddress``).
    public var isDirected: Bool
    /// The data is a scan response.
    public var isScanResponse: Bool
    /// The advertiser's address type (`.other(0xFF)` for anonymous extended advertisements).
    public var addressType: AddressType
    /// The advertiser's address.
    public var address: BluetoothAddress
    /// RSSI in dBm, nil when the controller reported 127 ("not available"); never a real +127 dBm.
    public var rssi: Int8?
    /// TX power in dBm, nil when not reported (legacy reports, or extended 127).
    public var txPower: Int8?
    /// Primary advertising PHY (LE 1M for legacy PDUs).
    public var primaryPHY: LEPHY
    /// Secondary PHY, nil when none (legacy PDUs, or 0x00).
    public var secondaryPHY: LEPHY?
    /// Advertising SID, nil for legacy PDUs and when no ADI (0xFF).
    public var sid: UInt8?
    /// Periodic advertising interval in 1.25 ms units, nil when none.
    public var periodicAdvertisingInterval: UInt16?
    /// The address a directed advertisement targets, nil when undirected.
    public var directAddress: BluetoothAddress?
    /// The advertising or scan response data, all fragments joined.
    public var data: [UInt8]
    /// True when the controller said the data was truncated (Data Status 0b10): ``data`` is the part received.
    public var isTruncated: Bool

    /// Makes a report from a legacy LE Advertising Report.
    public init(_ report: LEAdvertisingReport) {
        kind = .legacy(report.eventType)
        isConnectable = report.eventType.isConnectable
        isScannable = report.eventType.isScannable
        isDirected = report.eventType == .advDirectInd
        isScanResponse = report.eventType == .scanRsp
        addressType = report.addressType
        address = report.address
        rssi = report.rssi
        txPower = nil
        primaryPHY = .le1M
        secondaryPHY = nil
        sid = nil
        periodicAdvertisingInterval = nil
        directAddress = nil
        data = report.data
        isTruncated = false
    }

    /// Makes a report from an LE Directed Advertising Report (ADV_DIRECT_IND carries no data).
    public init(_ report: LEDirectedAdvertisingReport) {
        self.init(LEAdvertisingReport(eventType: report.eventType, addressType: report.addressType, address: report.address,
                                      data: [], rssi: report.rssi))
        isDirected = true
        directAddress = report.directAddress
    }

    /// Makes a report from one extended report whose data is `data` (the joined fragments) and truncation flag.
    /// A legacy-bit report gets its legacy ``Kind`` (Vol 4 Part E §7.7.65.13).
    public init(_ report: LEExtendedAdvertisingReport, data: [UInt8], isTruncated: Bool) {
        let type = report.eventType
        kind = type.legacyEventType.map { .legacy($0) } ?? .extended
        isConnectable = type.isConnectable
        isScannable = type.isScannable
        isDirected = type.isDirected
        isScanResponse = type.isScanResponse
        addressType = report.addressType
        address = report.address
        rssi = report.rssi
        txPower = report.txPower
        primaryPHY = report.primaryPHY
        secondaryPHY = report.secondaryPHY.rawValue == 0 ? nil : report.secondaryPHY
        sid = type.isLegacy ? nil : report.sid
        periodicAdvertisingInterval = report.periodicAdvertisingInterval == 0 ? nil : report.periodicAdvertisingInterval
        directAddress = type.isDirected ? report.directAddress : nil
        self.data = data
        self.isTruncated = isTruncated
    }
}
