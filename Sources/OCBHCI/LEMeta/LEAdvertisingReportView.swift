// The legacy advertising PDUs of one report event read where they lie in the packet's bytes: the scan path's no-copy decode.

import OCBCore

/// The reports of one advertising report event packet that carries only legacy advertising PDUs, read in place: each
/// report's fields are read from the packet's bytes when it is reached and its data is a slice of them, so walking an
/// event allocates nothing. Two events qualify (Core v5.4 Vol 4 Part E):
///
/// - LE Advertising Report (LE Meta 0x3E, subevent 0x02, §7.7.65.2): Event_Code (1), Parameter_Total_Length (1),
///   Subevent_Code (1), Num_Reports (1, at least 1), then each report whole before the next: Event_Type (1),
///   Address_Type (1), Address (6, little-endian), Data_Length (1), Data, RSSI (1, int8 dBm).
/// - LE Extended Advertising Report (subevent 0x0D, §7.7.65.13) whose every report has the legacy bit (Event_Type bit
///   4) and Data_Status complete (bits 5-6 zero), and a defined legacy type (0x13, 0x15, 0x12, 0x10, 0x1B, 0x1A): what
///   an extended scan reports of a legacy advertiser, never a piece of a chain. Per report: Event_Type (2),
///   Address_Type (1), Address (6), Primary_PHY (1), Secondary_PHY (1), Advertising_SID (1), TX_Power (1, int8 dBm),
///   RSSI (1), Periodic_Advertising_Interval (2), Direct_Address_Type (1), Direct_Address (6), Data_Length (1), Data.
///
/// RSSI and TX power 127 ("not available") are nil. Only a well-formed event has a view: the parameter length matches
/// the packet and the reports fill it exactly. Anything else (a report cut short, bytes left over, an extended PDU) has
/// none, and goes to ``HCIEvent/init(bytes:)`` (and the ``ExtendedAdvertisingReassembler``), which keep the whole
/// reports and name the field at fault.
public struct LEAdvertisingReportView: Sequence, Sendable {
    /// One report, as the event carries it.
    public struct Report: Sendable {
        /// The legacy PDU type (for an extended report, mapped from its Event_Type as
        /// ``LEExtendedAdvertisingEventType/legacyEventType`` does).
        public var eventType: LEAdvertisingEventType
        /// The advertiser's address type (Address_Type).
        public var addressType: AddressType
        /// The advertiser's address.
        public var address: BluetoothAddress
        /// The advertising or scan response data (AD structures), a slice of the packet's bytes.
        public var data: ArraySlice<UInt8>
        /// RSSI in dBm, nil when the controller reports 127 ("not available").
        public var rssi: Int8?
        /// TX_Power in dBm of an extended report, nil when 127 ("not available") or for LE Advertising Report.
        public var txPower: Int8?
        /// The PDU invites a connection (ADV_IND, ADV_DIRECT_IND).
        public var isConnectable: Bool { eventType.isConnectable }
        /// The advertiser accepts scan requests (ADV_IND, ADV_SCAN_IND).
        public var isScannable: Bool { eventType.isScannable }
        /// The PDU is a scan response (SCAN_RSP).
        public var isScanResponse: Bool { eventType == .scanRsp }
    }

    /// Walks the reports in event order.
    public struct Iterator: IteratorProtocol, Sendable {
        fileprivate let bytes: ArraySlice<UInt8>
        fileprivate let extended: Bool
        fileprivate var offset: Int
        fileprivate var remaining: Int

        /// The next report; nil after the last. The bounds were checked by ``LEAdvertisingReportView/init(eventPacket:)``.
        public mutating func next() -> Report? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            let start = offset  // an index of `bytes` (a slice: from its startIndex)
            if extended {
                let dataStart = start + 24
                let dataEnd = dataStart + Int(bytes[start + 23])
                offset = dataEnd
                let type = LEExtendedAdvertisingEventType(rawValue: UInt16(bytes[start]) | UInt16(bytes[start + 1]) << 8)
                let txPower = Int8(bitPattern: bytes[start + 12]), rssi = Int8(bitPattern: bytes[start + 13])
                return Report(eventType: type.legacyEventType ?? .other(bytes[start]), addressType: AddressType(rawValue: bytes[start + 2]),
                              address: Self.address(bytes, at: start + 3), data: bytes[dataStart..<dataEnd],
                              rssi: rssi == 127 ? nil : rssi, txPower: txPower == 127 ? nil : txPower)
            }
            let dataStart = start + 9
            let dataEnd = dataStart + Int(bytes[start + 8])
            offset = dataEnd + 1
            let rssi = Int8(bitPattern: bytes[dataEnd])
            return Report(eventType: LEAdvertisingEventType(rawValue: bytes[start]), addressType: AddressType(rawValue: bytes[start + 1]),
                          address: Self.address(bytes, at: start + 2), data: bytes[dataStart..<dataEnd], rssi: rssi == 127 ? nil : rssi,
                          txPower: nil)
        }

        /// The 6-byte little-endian address at `offset`.
        private static func address(_ bytes: ArraySlice<UInt8>, at offset: Int) -> BluetoothAddress {
            var value: UInt64 = 0
            for index in 0..<6 { value |= UInt64(bytes[offset + index]) << (8 * index) }
            return BluetoothAddress(value: value)
        }
    }

    private let bytes: ArraySlice<UInt8>
    private let extended: Bool
    /// Num_Reports.
    public let count: Int

    /// The Event_Type low bytes of legacy PDUs an extended report may carry (§7.7.65.13), Data_Status complete.
    private static let legacyExtendedTypes: Set<UInt8> = [0x13, 0x15, 0x12, 0x10, 0x1B, 0x1A]

    /// A view of `bytes` (an event packet without its H4 indicator), or nil when it is not one of the well-formed
    /// events of legacy PDUs the type's description names.
    public init?(eventPacket bytes: [UInt8]) {
        self.init(eventPacket: bytes[...])
    }

    /// A view of `bytes`, a slice holding an event packet without its H4 indicator (a slice of the read it arrived in,
    /// ``Host/HCITransport``'s `onPackets`), or nil as ``init(eventPacket:)-([UInt8])`` says. Reads each report's
    /// length (and an extended report's Event_Type) once, to check it; the reports' data are slices of `bytes`.
    public init?(eventPacket bytes: ArraySlice<UInt8>) {
        let base = bytes.startIndex
        guard bytes.count >= 4, bytes[base] == 0x3E, Int(bytes[base + 1]) == bytes.count - 2, bytes[base + 3] > 0 else { return nil }
        let end = bytes.endIndex
        var offset = base + 4
        switch bytes[base + 2] {
        case 0x02:
            for _ in 0..<bytes[base + 3] {
                // Event_Type, Address_Type, Address (6), Data_Length: 9 bytes, then the data and RSSI.
                guard offset + 10 <= end else { return nil }
                offset += 10 + Int(bytes[offset + 8])
            }
            extended = false
        case 0x0D:
            for _ in 0..<bytes[base + 3] {
                // 24 bytes up to and with Data_Length, then the data; legacy, complete and of a defined type.
                guard offset + 24 <= end, bytes[offset + 1] == 0, Self.legacyExtendedTypes.contains(bytes[offset]) else {
                    return nil
                }
                offset += 24 + Int(bytes[offset + 23])
            }
            extended = true
        default:
            return nil
        }
        guard offset == end else { return nil }
        self.bytes = bytes
        count = Int(bytes[base + 3])
    }

    /// An iterator from the first report.
    public func makeIterator() -> Iterator { Iterator(bytes: bytes, extended: extended, offset: bytes.startIndex + 4, remaining: count) }
}
