// The legacy LE Advertising Report event and its reports.

import OCBCore

/// A legacy advertising PDU type as reported by HCI (Core v5.4 Vol 4 Part E §7.7.65.2, Event_Type).
///
/// 0x00 ADV_IND, 0x01 ADV_DIRECT_IND, 0x02 ADV_SCAN_IND, 0x03 ADV_NONCONN_IND, 0x04 SCAN_RSP; others kept.
public enum LEAdvertisingEventType: Hashable, Sendable, CustomStringConvertible {
    /// 0x00 ADV_IND: connectable and scannable undirected.
    case advInd
    /// 0x01 ADV_DIRECT_IND: connectable directed.
    case advDirectInd
    /// 0x02 ADV_SCAN_IND: scannable undirected.
    case advScanInd
    /// 0x03 ADV_NONCONN_IND: non-connectable, non-scannable undirected.
    case advNonconnInd
    /// 0x04 SCAN_RSP: a scan response.
    case scanRsp
    /// Any other value, kept.
    case other(UInt8)

    /// Decodes the byte.
    public init(rawValue: UInt8) {
        switch rawValue {
        case 0x00: self = .advInd
        case 0x01: self = .advDirectInd
        case 0x02: self = .advScanInd
        case 0x03: self = .advNonconnInd
        case 0x04: self = .scanRsp
        default: self = .other(rawValue)
        }
    }

    /// The byte.
    public var rawValue: UInt8 {
        switch self {
        case .advInd: 0x00
        case .advDirectInd: 0x01
        case .advScanInd: 0x02
        case .advNonconnInd: 0x03
        case .scanRsp: 0x04
        case .other(let value): value
        }
    }

    /// True for ADV_IND and ADV_DIRECT_IND.
    public var isConnectable: Bool { self == .advInd || self == .advDirectInd }
    /// True for ADV_IND and ADV_SCAN_IND.
    public var isScannable: Bool { self == .advInd || self == .advScanInd }

    public var description: String {
        switch self {
        case .advInd: "ADV_IND"
        case .advDirectInd: "ADV_DIRECT_IND"
        case .advScanInd: "ADV_SCAN_IND"
        case .advNonconnInd: "ADV_NONCONN_IND"
        case .scanRsp: "SCAN_RSP"
        case .other(let value): "event type 0x\(String(value, radix: 16))"
        }
    }
}

/// One report of LE Advertising Report (Core v5.4 Vol 4 Part E §7.7.65.2).
///
/// Per report: Event_Type (1), Address_Type (1), Address (6), Data_Length (1, 0...31), Data, RSSI (1, dBm,
/// -127...20; 127 means "not available" and is reported as nil).
public struct LEAdvertisingReport: Hashable, Sendable {
    /// The PDU type.
    public var eventType: LEAdvertisingEventType
    /// The advertiser's address type.
    public var addressType: AddressType
    /// The advertiser's address.
    public var address: BluetoothAddress
    /// The advertising or scan response data, undecoded (AD structures).
    public var data: [UInt8]
    /// RSSI in dBm, or nil when the controller reports 127 ("not available").
    public var rssi: Int8?

    /// Makes a report.
    public init(eventType: LEAdvertisingEventType, addressType: AddressType, address: BluetoothAddress, data: [UInt8], rssi: Int8?) {
        self.eventType = eventType
        self.addressType = addressType
        self.address = address
        self.data = data
        self.rssi = rssi
    }
}

/// The LE Advertising Report event, subevent 0x02 (Core v5.4 Vol 4 Part E §7.7.65.2).
///
/// Layout: Num_Reports (1), then Num_Reports reports, each whole before the next (the arrayed-parameter order
/// of Vol 4 Part E §5.2, which controllers and other hosts follow): Event_Type, Address_Type, Address,
/// Data_Length, Data, RSSI. Decoded leniently: a report cut short ends the event, the reports before it are
/// kept and ``diagnostic`` names the field; only an event with no whole report throws.
public struct LEAdvertisingReportEvent: Hashable, Sendable {
    /// The whole reports, in event order.
    public var reports: [LEAdvertisingReport]
    /// Set when a report after the kept ones was malformed.
    public var diagnostic: HCIEventDecodingError?

    /// Makes the event.
    public init(reports: [LEAdvertisingReport], diagnostic: HCIEventDecodingError? = nil) {
        self.reports = reports
        self.diagnostic = diagnostic
    }

    static func decode(_ reader: inout FieldReader) throws(HCIEventDecodingError) -> Self {
        reader.event = "LE Advertising Report"
        let count = Int(try reader.u8("Num_Reports"))
        var reports: [LEAdvertisingReport] = []
        for index in 0..<count {
            do {
                let eventType = LEAdvertisingEventType(rawValue: try reader.u8("Event_Type[\(index)]"))
                let addressType = AddressType(rawValue: try reader.u8("Address_Type[\(index)]"))
                let address = try reader.address("Address[\(index)]")
                let length = Int(try reader.u8("Data_Length[\(index)]"))
                let data = try reader.bytes(length, "Data[\(index)]")
                let rssi = try reader.i8("RSSI[\(index)]")
                reports.append(LEAdvertisingReport(eventType: eventType, addressType: addressType, address: address,
                                                   data: data, rssi: rssi == 127 ? nil : rssi))
            } catch {
                if reports.isEmpty { throw error }
                return Self(reports: reports, diagnostic: error)
            }
        }
        return Self(reports: reports)
    }
}

/// One report of LE Directed Advertising Report (Core v5.4 Vol 4 Part E §7.7.65.11).
///
/// Per report (16 bytes): Event_Type (1, 0x01 ADV_DIRECT_IND), Address_Type (1), Address (6),
/// Direct_Address_Type (1), Direct_Address (6, an RPA the controller could not resolve), RSSI (1, dBm; 127 → nil).
public struct LEDirectedAdvertisingReport: Hashable, Sendable {
    /// The PDU type (ADV_DIRECT_IND).
    public var eventType: LEAdvertisingEventType
    /// The advertiser's address type.
    public var addressType: AddressType
    /// The advertiser's address.
    public var address: BluetoothAddress
    /// Direct_Address_Type (0x01 random for an unresolved RPA; 0x02 when resolved).
    public var directAddressType: AddressType
    /// Direct_Address: the address the advertisement was directed to.
    public var directAddress: BluetoothAddress
    /// RSSI in dBm, nil when 127 ("not available").
    public var rssi: Int8?
    /// Makes the value from its fields.
    public init(eventType: LEAdvertisingEventType, addressType: AddressType, address: BluetoothAddress, directAddressType: AddressType, directAddress: BluetoothAddress, rssi: Int8?) {
        self.eventType = eventType
        self.addressType = addressType
        self.address = address
        self.directAddressType = directAddressType
        self.directAddress = directAddress
        self.rssi = rssi
    }
}

/// The LE Directed Advertising Report event, subevent 0x0B (Core v5.4 Vol 4 Part E §7.7.65.11):
/// Num_Reports (1) then reports of 16 bytes. Decoded leniently like ``LEAdvertisingReportEvent``.
public struct LEDirectedAdvertisingReportEvent: Hashable, Sendable {
    /// The whole reports.
    public var reports: [LEDirectedAdvertisingReport]
    /// Set when a report after the kept ones was malformed.
    public var diagnostic: HCIEventDecodingError?

    /// Makes the value from its fields.
    public init(reports: [LEDirectedAdvertisingReport], diagnostic: HCIEventDecodingError?) {
        self.reports = reports
        self.diagnostic = diagnostic
    }

    static func decode(_ reader: inout FieldReader) throws(HCIEventDecodingError) -> Self {
        reader.event = "LE Directed Advertising Report"
        let count = Int(try reader.u8("Num_Reports"))
        var reports: [LEDirectedAdvertisingReport] = []
        for index in 0..<count {
            do {
                let eventType = LEAdvertisingEventType(rawValue: try reader.u8("Event_Type[\(index)]"))
                let addressType = AddressType(rawValue: try reader.u8("Address_Type[\(index)]"))
                let address = try reader.address("Address[\(index)]")
                let directType = AddressType(rawValue: try reader.u8("Direct_Address_Type[\(index)]"))
                let direct = try reader.address("Direct_Address[\(index)]")
                let rssi = try reader.i8("RSSI[\(index)]")
                reports.append(LEDirectedAdvertisingReport(eventType: eventType, addressType: addressType, address: address,
                                                           directAddressType: directType, directAddress: direct, rssi: rssi == 127 ? nil : rssi))
            } catch {
                if reports.isEmpty { throw error }
                return Self(reports: reports, diagnostic: error)
            }
        }
        return Self(reports: reports, diagnostic: nil)
    }
}
