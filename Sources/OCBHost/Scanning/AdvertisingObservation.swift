// One advertising or scan-response PDU as the scan merger takes it in, whatever report event carried it.

import OCBCore
import OCBHCI

/// One received advertising PDU, reduced to what scan-result merging needs.
///
/// Built from an LE Advertising Report (Core v5.4 Vol 4 Part E §7.7.65.2, event types 0x00-0x04) or a
/// reassembled LE Extended Advertising Report (§7.7.65.13, Event_Type bits 0 connectable, 1 scannable,
/// 3 scan response). `rssi` is in dBm, nil when the controller reports 127 (not available).
public struct AdvertisingObservation: Sendable, Hashable {
    /// Who advertised.
    public var peer: PeerAddress
    /// True when the PDU invites a connection (ADV_IND, ADV_DIRECT_IND, or extended bit 0).
    public var isConnectable: Bool
    /// True when the advertiser accepts scan requests (ADV_IND, ADV_SCAN_IND, or extended bit 1).
    public var isScannable: Bool
    /// True when this PDU is a scan response (SCAN_RSP, or extended bit 3).
    public var isScanResponse: Bool
    /// Signal strength in dBm; nil when unavailable (127).
    public var rssi: Int8?
    /// The advertiser's TX power in dBm from an extended report; nil when unavailable (127) or legacy.
    public var txPower: Int8?
    /// The AD structures as received (Core v5.4 Vol 3 Part C §11), not yet parsed.
    public var data: [UInt8]
    /// True when the controller could not receive the whole extended advertising chain (Data Status "truncated", or
    /// the reserved value, §7.7.65.13): ``data`` is what came, never a complete advertisement.
    public var isTruncated = false
    /// True for an anonymous extended advertisement (Address_Type 0xFF, §7.7.65.13): no address tells its
    /// advertiser apart from another.
    public var isAnonymous: Bool { peer.isAnonymous }

    /// Makes an observation.
    public init(peer: PeerAddress, isConnectable: Bool, isScannable: Bool, isScanResponse: Bool,
                rssi: Int8?, txPower: Int8? = nil, data: [UInt8]) {
        self.peer = peer
        self.isConnectable = isConnectable
        self.isScannable = isScannable
        self.isScanResponse = isScanResponse
        self.rssi = rssi
        self.txPower = txPower
        self.data = data
    }

    /// Maps a legacy LE Advertising Report Event_Type (§7.7.65.2) through HCI's decoding of it
    /// (``HCI/LEAdvertisingEventType``): 0x00 ADV_IND, 0x01 ADV_DIRECT_IND, 0x02 ADV_SCAN_IND, 0x03 ADV_NONCONN_IND,
    /// 0x04 SCAN_RSP. Unknown values are treated as non-connectable, non-scannable advertising. RSSI 127 becomes nil.
    public init(peer: PeerAddress, legacyEventType: UInt8, rssi: Int8, data: [UInt8]) {
        self.init(HCIAdvertisingReport(LEAdvertisingReport(eventType: LEAdvertisingEventType(rawValue: legacyEventType),
                                                           addressType: peer.type, address: peer.address, data: data,
                                                           rssi: rssi == 127 ? nil : rssi)))
    }

    /// Maps an LE Extended Advertising Report Event_Type bit field (§7.7.65.13) through HCI's decoding of it
    /// (``HCI/LEExtendedAdvertisingEventType``): bit 0 connectable, bit 1 scannable, bit 3 scan response.
    /// RSSI and TX power 127 become nil.
    public init(peer: PeerAddress, extendedEventType: UInt16, rssi: Int8, txPower: Int8, data: [UInt8]) {
        let report = LEExtendedAdvertisingReport(eventType: LEExtendedAdvertisingEventType(rawValue: extendedEventType),
                                                 addressType: peer.type, address: peer.address,
                                                 txPower: txPower == 127 ? nil : txPower, rssi: rssi == 127 ? nil : rssi,
                                                 data: data)
        self.init(HCIAdvertisingReport(report, data: data, isTruncated: false))
    }
}

extension AdvertisingObservation {
    /// Takes HCI's common report (legacy, directed, or a reassembled extended report).
    public init(_ report: HCIAdvertisingReport) {
        self.init(peer: PeerAddress(report.address, type: report.addressType), isConnectable: report.isConnectable,
                  isScannable: report.isScannable, isScanResponse: report.isScanResponse, rssi: report.rssi,
                  txPower: report.txPower, data: report.data)
        isTruncated = report.isTruncated
    }
}
