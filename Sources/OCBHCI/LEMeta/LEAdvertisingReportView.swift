// The reports of one LE Advertising Report event read where they lie in the packet's bytes: the scan path's no-copy decode.

import OCBCore

/// The reports of one LE Advertising Report event packet (LE Meta 0x3E, subevent 0x02; Core v5.4 Vol 4 Part E
/// §7.7.65.2), read in place: each report's fields are read from the packet's bytes when it is reached and its data is
/// a slice of them, so walking an event allocates nothing.
///
/// Packet layout (no H4 indicator): Event_Code 0x3E (1), Parameter_Total_Length (1), Subevent_Code 0x02 (1),
/// Num_Reports (1, at least 1), then each report whole before the next: Event_Type (1), Address_Type (1), Address (6,
/// little-endian), Data_Length (1), Data (Data_Length bytes), RSSI (1, int8 dBm; 127 "not available" is nil).
///
/// Only a well-formed event has a view: the parameter length matches the packet, and the reports fill it exactly.
/// Anything else (a report cut short, bytes left over) has none, and goes to ``HCIEvent/init(bytes:)``, which keeps the
/// whole reports and names the field at fault.
public struct LEAdvertisingReportView: Sequence, Sendable {
    /// One report, as the event carries it.
    public struct Report: Sendable {
        /// The PDU type (Event_Type).
        public var eventType: LEAdvertisingEventType
        /// The advertiser's address type (Address_Type).
        public var addressType: AddressType
        /// The advertiser's address.
        public var address: BluetoothAddress
        /// The advertising or scan response data (AD structures), a slice of the packet's bytes.
        public var data: ArraySlice<UInt8>
        /// RSSI in dBm, nil when the controller reports 127 ("not available").
        public var rssi: Int8?
    }

    /// Walks the reports in event order.
    public struct Iterator: IteratorProtocol, Sendable {
        fileprivate let bytes: [UInt8]
        fileprivate var offset: Int
        fileprivate var remaining: Int

        /// The next report; nil after the last. The bounds were checked by ``LEAdvertisingReportView/init(eventPacket:)``.
        public mutating func next() -> Report? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            let start = offset
            var address: UInt64 = 0
            for index in 0..<6 { address |= UInt64(bytes[start + 2 + index]) << (8 * index) }
            let dataStart = start + 9
            let dataEnd = dataStart + Int(bytes[start + 8])
            offset = dataEnd + 1
            let rssi = Int8(bitPattern: bytes[dataEnd])
            return Report(eventType: LEAdvertisingEventType(rawValue: bytes[start]), addressType: AddressType(rawValue: bytes[start + 1]),
                          address: BluetoothAddress(value: address), data: bytes[dataStart..<dataEnd], rssi: rssi == 127 ? nil : rssi)
        }
    }

    private let bytes: [UInt8]
    /// Num_Reports.
    public let count: Int

    /// A view of `bytes` (an event packet without its H4 indicator), or nil when it is not a well-formed LE Advertising
    /// Report event (see the type's description). Reads each report's Data_Length once, to check the bounds.
    public init?(eventPacket bytes: [UInt8]) {
        guard bytes.count >= 4, bytes[0] == 0x3E, bytes[2] == 0x02, Int(bytes[1]) == bytes.count - 2, bytes[3] > 0 else { return nil }
        var offset = 4
        for _ in 0..<bytes[3] {
            // Event_Type, Address_Type, Address (6), Data_Length: 9 bytes, then the data and RSSI.
            guard offset + 10 <= bytes.count else { return nil }
            offset += 10 + Int(bytes[offset + 8])
        }
        guard offset == bytes.count else { return nil }
        self.bytes = bytes
        count = Int(bytes[3])
    }

    /// An iterator from the first report.
    public func makeIterator() -> Iterator { Iterator(bytes: bytes, offset: 4, remaining: count) }
}
