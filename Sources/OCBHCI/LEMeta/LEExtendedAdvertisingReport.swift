// The LE Extended Advertising Report event, its reports and their event-type bits.

import OCBCore

/// The 16-bit Event_Type of an extended report (Core v5.4 Vol 4 Part E §7.7.65.13).
///
/// Bit 0 connectable, bit 1 scannable, bit 2 directed, bit 3 scan response, bit 4 legacy PDU,
/// bits 5-6 Data Status (0b00 complete, 0b01 incomplete with more to come, 0b10 incomplete and truncated).
public struct LEExtendedAdvertisingEventType: RawRepresentable, Hashable, Sendable {
    /// Data Status, bits 5-6.
    public enum DataStatus: UInt8, Hashable, Sendable {
        /// 0b00: complete.
        case complete = 0
        /// 0b01: incomplete, more data to come in later reports.
        case incompleteMoreToCome = 1
        /// 0b10: incomplete, truncated; no more will come.
        case incompleteTruncated = 2
        /// 0b11: reserved.
        case reserved = 3
    }

    /// The 16-bit field.
    public let rawValue: UInt16
    /// Wraps the field.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Bit 0.
    public var isConnectable: Bool { rawValue & 0x01 != 0 }
    /// Bit 1.
    public var isScannable: Bool { rawValue & 0x02 != 0 }
    /// Bit 2.
    public var isDirected: Bool { rawValue & 0x04 != 0 }
    /// Bit 3.
    public var isScanResponse: Bool { rawValue & 0x08 != 0 }
    /// Bit 4: the report is of a legacy advertising PDU.
    public var isLegacy: Bool { rawValue & 0x10 != 0 }
    /// Bits 5-6.
    public var dataStatus: DataStatus { DataStatus(rawValue: UInt8(truncatingIfNeeded: rawValue >> 5) & 0b11) ?? .reserved }

    /// The legacy PDU type when ``isLegacy`` is set (Vol 4 Part E §7.7.65.13, table of legacy values):
    /// 0x13 ADV_IND, 0x15 ADV_DIRECT_IND, 0x12 ADV_SCAN_IND, 0x10 ADV_NONCONN_IND, 0x1B SCAN_RSP to an ADV_IND,
    /// 0x1A SCAN_RSP to an ADV_SCAN_IND; nil for non-legacy reports, `.other` for an undefined legacy combination.
    public var legacyEventType: LEAdvertisingEventType? {
        guard isLegacy else { return nil }
        switch rawValue & 0x1F {
        case 0x13: return .advInd
        case 0x15: return .advDirectInd
        case 0x12: return .advScanInd
        case 0x10: return .advNonconnInd
        case 0x1B, 0x1A: return .scanRsp
        default: return .other(UInt8(truncatingIfNeeded: rawValue & 0xFF))
        }
    }
}

/// One report of LE Extended Advertising Report (Core v5.4 Vol 4 Part E §7.7.65.13).
///
/// Per report (24 bytes + data): Event_Type (2), Address_Type (1; 0xFF anonymous), Address (6), Primary_PHY (1),
/// Secondary_PHY (1; 0x00 none), Advertising_SID (1; 0xFF no ADI), TX_Power (1, dBm; 127 = not available),
/// RSSI (1, dBm; 127 = not available), Periodic_Advertising_Interval (2, 1.25 ms; 0 = none),
/// Direct_Address_Type (1), Direct_Address (6), Data_Length (1), Data. A report is one fragment of the advertiser's
/// data when Data Status says more comes; join them with ``ExtendedAdvertisingReassembler``.
public struct LEExtendedAdvertisingReport: Hashable, Sendable {
    /// Event_Type bits.
    public var eventType: LEExtendedAdvertisingEventType
    /// Address_Type (`.other(0xFF)` for anonymous advertisements).
    public var addressType: AddressType
    /// Address (all zero for anonymous advertisements).
    public var address: BluetoothAddress
    /// Primary_PHY (LE 1M or LE Coded).
    public var primaryPHY: LEPHY
    /// Secondary_PHY (0x00: no secondary channel packets).
    public var secondaryPHY: LEPHY
    /// Advertising_SID as received (0x00...0x0F, 0xFF when no ADI).
    public var advertisingSID: UInt8
    /// TX power in dBm, nil when 127 ("not available").
    public var txPower: Int8?
    /// RSSI in dBm, nil when 127 ("not available").
    public var rssi: Int8?
    /// Periodic_Advertising_Interval, 1.25 ms units (0: no periodic advertising).
    public var periodicAdvertisingInterval: UInt16
    /// Direct_Address_Type.
    public var directAddressType: AddressType
    /// Direct_Address (meaningful only when directed).
    public var directAddress: BluetoothAddress
    /// This fragment's data bytes (AD structures, undecoded).
    public var data: [UInt8]

    /// The SID, nil when 0xFF (no ADI field).
    public var sid: UInt8? { advertisingSID == 0xFF ? nil : advertisingSID }

    /// Makes a report.
    public init(eventType: LEExtendedAdvertisingEventType, addressType: AddressType, address: BluetoothAddress,
                primaryPHY: LEPHY = .le1M, secondaryPHY: LEPHY = LEPHY(rawValue: 0), advertisingSID: UInt8 = 0xFF,
                txPower: Int8? = nil, rssi: Int8? = nil, periodicAdvertisingInterval: UInt16 = 0,
                directAddressType: AddressType = .public, directAddress: BluetoothAddress = .zero, data: [UInt8] = []) {
        self.eventType = eventType
        self.addressType = addressType
        self.address = address
        self.primaryPHY = primaryPHY
        self.secondaryPHY = secondaryPHY
        self.advertisingSID = advertisingSID
        self.txPower = txPower
        self.rssi = rssi
        self.periodicAdvertisingInterval = periodicAdvertisingInterval
        self.directAddressType = directAddressType
        self.directAddress = directAddress
        self.data = data
    }
}

/// The LE Extended Advertising Report event, subevent 0x0D (Core v5.4 Vol 4 Part E §7.7.65.13).
///
/// Layout: Num_Reports (1), then each report whole (Vol 4 Part E §5.2). Decoded leniently: a report cut short ends
/// the event, the reports before it are kept and ``diagnostic`` names the field; only an event with no whole
/// report throws.
public struct LEExtendedAdvertisingReportEvent: Hashable, Sendable {
    /// The whole reports, in event order.
    public var reports: [LEExtendedAdvertisingReport]
    /// Set when a report after the kept ones was malformed.
    public var diagnostic: HCIEventDecodingError?

    /// Makes the event.
    public init(reports: [LEExtendedAdvertisingReport], diagnostic: HCIEventDecodingError? = nil) {
        self.reports = reports
        self.diagnostic = diagnostic
    }

    static func decode(_ reader: inout FieldReader) throws(HCIEventDecodingError) -> Self {
        reader.event = "LE Extended Advertising Report"
        let count = Int(try reader.u8("Num_Reports"))
        var reports: [LEExtendedAdvertisingReport] = []
        for index in 0..<count {
            do {
                reports.append(try decodeReport(&reader, index: index))
            } catch {
                if reports.isEmpty { throw error }
                return Self(reports: reports, diagnostic: error)
            }
        }
        return Self(reports: reports)
    }

    private static func decodeReport(_ reader: inout FieldReader, index i: Int) throws(HCIEventDecodingError) -> LEExtendedAdvertisingReport {
        let eventType = LEExtendedAdvertisingEventType(rawValue: try reader.u16("Event_Type[\(i)]"))
        let addressType = AddressType(rawValue: try reader.u8("Address_Type[\(i)]"))
        let address = try reader.address("Address[\(i)]")
        let primary = LEPHY(rawValue: try reader.u8("Primary_PHY[\(i)]"))
        let secondary = LEPHY(rawValue: try reader.u8("Secondary_PHY[\(i)]"))
        let sid = try reader.u8("Advertising_SID[\(i)]")
        let txPower = try reader.i8("TX_Power[\(i)]")
        let rssi = try reader.i8("RSSI[\(i)]")
        let interval = try reader.u16("Periodic_Advertising_Interval[\(i)]")
        let directType = AddressType(rawValue: try reader.u8("Direct_Address_Type[\(i)]"))
        let direct = try reader.address("Direct_Address[\(i)]")
        let length = Int(try reader.u8("Data_Length[\(i)]"))
        let data = try reader.bytes(length, "Data[\(i)]")
        return LEExtendedAdvertisingReport(eventType: eventType, addressType: addressType, address: address, primaryPHY: primary,
                                           secondaryPHY: secondary, advertisingSID: sid, txPower: txPower == 127 ? nil : txPower,
                                           rssi: rssi == 127 ? nil : rssi, periodicAdvertisingInterval: interval,
                                           directAddressType: directType, directAddress: direct, data: data)
    }
}
