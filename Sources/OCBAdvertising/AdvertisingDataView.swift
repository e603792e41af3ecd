// Advertising data read in place: the AD structures as (type, range) and the typed fields of one pass, no allocation.

import OCBCore

/// Advertising or scan response data read where it lies (Core v5.4 Vol 3 Part C §11, Core Supplement v11 Part A §1):
/// each AD structure is `Length (1) | AD Type (1) | AD Data (Length − 1)`. Iterating gives each structure's type and
/// the range of its data within ``bytes``, in order, without copying or allocating; a Length of 0 ends the data
/// (the rest is padding, §11), and a structure that runs past the end ends the walk there (``Iterator/stoppedAt``).
/// ``fields()`` gathers the fields a scanner wants in that same single pass. For the lenient parse that keeps every
/// structure with diagnostics, see ``AdvertisingData``.
public struct AdvertisingDataView: Sequence, Sendable {
    /// The data as received.
    public let bytes: [UInt8]

    /// A view of `bytes` (the array is shared, not copied).
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// One AD structure: its AD Type and where its data lies in ``AdvertisingDataView/bytes``.
    public struct Structure: Sendable, Hashable {
        /// The AD Type (Assigned Numbers §2.3).
        public let type: UInt8
        /// The AD Data's offsets within the view's bytes (empty for a structure of Length 1).
        public let value: Range<Int>
    }

    /// Walks the structures in order.
    public struct Iterator: IteratorProtocol, Sendable {
        private let bytes: [UInt8]
        private var offset = 0
        /// The offset of a structure whose Length runs past the end, once the walk met one; nil otherwise.
        public private(set) var stoppedAt: Int?

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// The next structure, or nil at the end, at a Length of 0, or at a structure cut short.
        public mutating func next() -> Structure? {
            guard offset < bytes.count else { return nil }
            let length = Int(bytes[offset])
            guard length > 0 else { offset = bytes.count; return nil }
            guard length <= bytes.count - offset - 1 else {
                stoppedAt = offset
                offset = bytes.count
                return nil
            }
            let structure = Structure(type: bytes[offset + 1], value: (offset + 2)..<(offset + 1 + length))
            offset += 1 + length
            return structure
        }
    }

    /// An iterator from the first structure.
    public func makeIterator() -> Iterator { Iterator(bytes) }

    /// The scanner's fields in one pass (see ``Fields``).
    public func fields() -> Fields {
        var fields = Fields()
        for structure in self {
            let value = structure.value
            switch structure.type {
            // The first of each, as the full parse chooses: a complete name before any shortened one.
            case 0x09:
                if !fields.isLocalNameComplete { fields.localName = value }
                fields.isLocalNameComplete = true
            case 0x08:
                if fields.localName == nil { fields.localName = value }
            case 0x02...0x07:
                if let width = Self.serviceListWidth(structure.type) { fields.serviceUUIDCount += value.count / width }
            case 0x14, 0x15, 0x1F:
                if let width = Self.solicitationListWidth(structure.type) { fields.solicitedServiceUUIDCount += value.count / width }
            case 0x16, 0x20, 0x21:
                if let width = Self.serviceDataWidth(structure.type), value.count >= width { fields.serviceDataCount += 1 }
            case 0xFF:
                if value.count >= 2 {
                    if fields.manufacturerData == nil { fields.manufacturerData = value }
                    fields.manufacturerDataCount += 1
                }
            // TX Power Level and Flags are one octet each (Supplement Part A §1.3, §1.5); other lengths are malformed.
            case 0x0A: if value.count == 1, fields.txPowerLevel == nil { fields.txPowerLevel = Int8(bitPattern: bytes[value.lowerBound]) }
            case 0x01: if value.count == 1, fields.flags == nil { fields.flags = bytes[value.lowerBound] }
            default: break
            }
        }
        return fields
    }

    /// What a scanner reads of advertising data, as ranges into the bytes and small values (no allocation).
    public struct Fields: Sendable, Hashable {
        /// The first Complete Local Name's data (0x09), else the first Shortened one's (0x08).
        public var localName: Range<Int>?
        /// True when ``localName`` is the complete name.
        public var isLocalNameComplete = false
        /// Service UUIDs listed (0x02-0x07, every width, incomplete and complete lists; the whole UUIDs of a list
        /// whose length is not a multiple of their width; repeats counted).
        public var serviceUUIDCount = 0
        /// Service UUIDs solicited (0x14, 0x1F, 0x15: 16-, 32- and 128-bit lists; whole UUIDs only; repeats counted).
        public var solicitedServiceUUIDCount = 0
        /// Service Data structures (0x16, 0x20, 0x21) long enough for their UUID.
        public var serviceDataCount = 0
        /// The first Manufacturer Specific Data (0xFF) structure's data: Company Identifier (2, little-endian), then
        /// the manufacturer's bytes.
        public var manufacturerData: Range<Int>?
        /// Manufacturer Specific Data structures.
        public var manufacturerDataCount = 0
        /// The first well-formed TX Power Level (0x0A, one octet), dBm.
        public var txPowerLevel: Int8?
        /// The first well-formed Flags (0x01, one octet).
        public var flags: UInt8?

        /// No fields (empty data).
        public init() {}
    }

    /// The service UUIDs of every list (0x02-0x07; the whole ones of a list cut short), in order, without repeats:
    /// what ``AdvertisingData/serviceUUIDs`` gives. Built without an array per UUID.
    public var serviceUUIDs: [BluetoothUUID] { uuids(width: Self.serviceListWidth) }

    /// The solicited service UUIDs of every list (0x14 16-bit, 0x1F 32-bit, 0x15 128-bit; the whole ones of a list cut
    /// short), in order, without repeats: what ``AdvertisingData/solicitedServiceUUIDs`` gives.
    public var solicitedServiceUUIDs: [BluetoothUUID] { uuids(width: Self.solicitationListWidth) }

    /// Service Data by service UUID (0x16 16-bit, 0x20 32-bit, 0x21 128-bit UUID first, then the data; a structure
    /// shorter than its UUID is skipped), the first structure winning for a UUID that comes again: what
    /// ``AdvertisingData/serviceData`` gives.
    public var serviceData: [BluetoothUUID: [UInt8]] {
        var result: [BluetoothUUID: [UInt8]] = [:]
        forEachServiceData { uuid, range in
            if result[uuid] == nil { result[uuid] = Array(bytes[range]) }
        }
        return result
    }

    /// Calls `body` with each Service Data structure's (0x16 16-bit, 0x20 32-bit, 0x21 128-bit) service UUID and the
    /// range of its data after the UUID in the view's bytes, in order, repeats included (``serviceData`` keeps a UUID's
    /// first); a structure shorter than its UUID is skipped. For a consumer that makes its own values of the bytes
    /// (the facade's `[CBUUID: Data]`) without a map of arrays on the way.
    public func forEachServiceData(_ body: (BluetoothUUID, Range<Int>) -> Void) {
        for structure in self {
            guard let width = Self.serviceDataWidth(structure.type) else { continue }
            let value = structure.value
            guard value.count >= width else { continue }
            body(uuid(at: value.lowerBound, width: width), (value.lowerBound + width)..<value.upperBound)
        }
    }

    /// The first Manufacturer Specific Data (0xFF, at least the 2-octet Company Identifier, little-endian): what
    /// ``AdvertisingData/manufacturerData``'s first gives, nil when none. `fields` are this view's (``fields()``); a
    /// range that lies outside the bytes gives nil.
    public func manufacturerData(_ fields: Fields) -> ManufacturerData? {
        guard let range = fields.manufacturerData, range.count >= 2, range.upperBound <= bytes.count, range.lowerBound >= 0
        else { return nil }
        return ManufacturerData(companyID: UInt16(bytes[range.lowerBound]) | UInt16(bytes[range.lowerBound + 1]) << 8,
                                payload: Array(bytes[(range.lowerBound + 2)..<range.upperBound]))
    }

    /// The width in octets of the UUIDs a service UUID list of AD type `type` holds (Core Supplement v11 Part A §1.1:
    /// 0x02/0x03 16-bit, 0x04/0x05 32-bit, 0x06/0x07 128-bit, incomplete and complete); nil for any other type.
    @inline(__always) static func serviceListWidth(_ type: UInt8) -> Int? {
        switch type {
        case 0x02, 0x03: 2
        case 0x04, 0x05: 4
        case 0x06, 0x07: 16
        default: nil
        }
    }

    /// The width of the UUIDs a service solicitation list of AD type `type` holds (Supplement Part A §1.10: 0x14
    /// 16-bit, 0x1F 32-bit, 0x15 128-bit); nil for any other type.
    @inline(__always) static func solicitationListWidth(_ type: UInt8) -> Int? {
        switch type {
        case 0x14: 2
        case 0x1F: 4
        case 0x15: 16
        default: nil
        }
    }

    /// The width of the UUID that leads a Service Data structure of AD type `type` (Supplement Part A §1.11: 0x16
    /// 16-bit, 0x20 32-bit, 0x21 128-bit); nil for any other type.
    @inline(__always) static func serviceDataWidth(_ type: UInt8) -> Int? {
        switch type {
        case 0x16: 2
        case 0x20: 4
        case 0x21: 16
        default: nil
        }
    }

    /// The UUIDs of the lists whose AD type `width` gives a width for (2, 4 or 16), whole ones only, in order,
    /// without repeats.
    private func uuids(width: (UInt8) -> Int?) -> [BluetoothUUID] {
        var uuids: [BluetoothUUID] = []
        for structure in self {
            guard let width = width(structure.type) else { continue }
            var start = structure.value.lowerBound
            while start + width <= structure.value.upperBound {
                let uuid = uuid(at: start, width: width)
                if !uuids.contains(uuid) { uuids.append(uuid) }
                start += width
            }
        }
        return uuids
    }

    /// The UUID of `width` (2, 4 or 16) octets at `start`, little-endian on the wire (Vol 3 Part B §2.5.1); the
    /// caller has checked that they lie within ``bytes``.
    private func uuid(at start: Int, width: Int) -> BluetoothUUID {
        switch width {
        case 2: return BluetoothUUID(UInt16(bytes[start]) | UInt16(bytes[start + 1]) << 8)
        case 4:
            return BluetoothUUID(uuid32: UInt32(bytes[start]) | UInt32(bytes[start + 1]) << 8
                                     | UInt32(bytes[start + 2]) << 16 | UInt32(bytes[start + 3]) << 24)
        default:
            // 16 octets, least significant first: the low half is the first eight.
            var high: UInt64 = 0
            var low: UInt64 = 0
            for index in 0..<8 { low |= UInt64(bytes[start + index]) << (8 * index) }
            for index in 0..<8 { high |= UInt64(bytes[start + 8 + index]) << (8 * index) }
            return BluetoothUUID(high: high, low: low)
        }
    }

    /// The UTF-8 text of ``Fields/localName`` without trailing NUL padding (as ``AdvertisedName/string``); the part of
    /// `range` outside the bytes is left out.
    public func string(_ range: Range<Int>) -> String {
        let range = range.clamped(to: 0..<bytes.count)
        var end = range.upperBound
        while end > range.lowerBound, bytes[end - 1] == 0 { end -= 1 }
        return String(decoding: bytes[range.lowerBound..<end], as: UTF8.self)
    }
}
