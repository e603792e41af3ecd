// A bounds-checked little-endian reader over bytes that come from outside (air, controller, file).

/// Reads little-endian integers and byte runs from a byte buffer without ever trapping.
///
/// Every read checks the bounds first and throws ``ByteReaderError`` (with the offset of the
/// failed read) instead of reading past the end. Multi-byte integers are little-endian, the
/// byte order of every Bluetooth wire format (Core v5.4 Vol 1 Part E §2.9).
public struct ByteReader: Sendable {
    /// The whole input.
    public let bytes: [UInt8]
    /// Offset of the next byte to read, from the start of ``bytes``.
    public private(set) var offset: Int

    /// Starts reading `bytes` at offset 0.
    public init<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        self.bytes = Array(bytes)
        self.offset = 0
    }

    /// Number of bytes not yet read.
    public var remaining: Int { bytes.count - offset }

    /// True when every byte has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// Throws ``ByteReaderError`` unless `count` more bytes are available.
    public func require(_ count: Int) throws(ByteReaderError) {
        guard count >= 0, count <= remaining else {
            throw ByteReaderError(offset: offset, needed: count, available: remaining)
        }
    }

    /// Reads one byte. Throws ``ByteReaderError`` at the end of input.
    public mutating func readUInt8() throws(ByteReaderError) -> UInt8 {
        try require(1)
        let value = bytes[offset]
        offset += 1
        return value
    }

    /// Reads one byte as a two's-complement signed value (e.g. RSSI, TX power in dBm).
    public mutating func readInt8() throws(ByteReaderError) -> Int8 {
        Int8(bitPattern: try readUInt8())
    }

    /// Reads a 16-bit little-endian unsigned integer.
    public mutating func readUInt16() throws(ByteReaderError) -> UInt16 {
        UInt16(truncatingIfNeeded: try readLittleEndian(2))
    }

    /// Reads a 24-bit little-endian unsigned integer (e.g. Class of Device, SDU intervals).
    public mutating func readUInt24() throws(ByteReaderError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readLittleEndian(3))
    }

    /// Reads a 32-bit little-endian unsigned integer.
    public mutating func readUInt32() throws(ByteReaderError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readLittleEndian(4))
    }

    /// Reads a 64-bit little-endian unsigned integer.
    public mutating func readUInt64() throws(ByteReaderError) -> UInt64 {
        try readLittleEndian(8)
    }

    /// Reads a big-endian 16-bit unsigned integer (used by a few formats outside Bluetooth, e.g. pcap headers in network order).
    public mutating func readUInt16BigEndian() throws(ByteReaderError) -> UInt16 {
        try require(2)
        let value = UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
        offset += 2
        return value
    }

    /// Reads a big-endian 32-bit unsigned integer (btsnoop files are big-endian).
    public mutating func readUInt32BigEndian() throws(ByteReaderError) -> UInt32 {
        try require(4)
        var value: UInt32 = 0
        for index in offset..<(offset + 4) { value = value << 8 | UInt32(bytes[index]) }
        offset += 4
        return value
    }

    /// Reads a big-endian 64-bit unsigned integer (btsnoop timestamps).
    public mutating func readUInt64BigEndian() throws(ByteReaderError) -> UInt64 {
        try require(8)
        var value: UInt64 = 0
        for index in offset..<(offset + 8) { value = value << 8 | UInt64(bytes[index]) }
        offset += 8
        return value
    }

    /// Reads `count` bytes as they are. Throws ``ByteReaderError`` if fewer remain.
    public mutating func readBytes(_ count: Int) throws(ByteReaderError) -> [UInt8] {
        try require(count)
        let run = Array(bytes[offset..<(offset + count)])
        offset += count
        return run
    }

    /// Reads every byte that is left (possibly none).
    public mutating func readRemaining() -> [UInt8] {
        guard offset < bytes.count else { return [] }
        let run = Array(bytes[offset...])
        offset = bytes.count
        return run
    }

    /// Skips `count` bytes. Throws ``ByteReaderError`` if fewer remain.
    public mutating func skip(_ count: Int) throws(ByteReaderError) {
        try require(count)
        offset += count
    }

    /// Reads a 6-byte device address in wire order (least significant byte first).
    public mutating func readAddress() throws(ByteReaderError) -> BluetoothAddress {
        let start = offset
        let run = try readBytes(6)
        guard let address = BluetoothAddress(littleEndianBytes: run) else {
            throw ByteReaderError(offset: start, needed: 6, available: run.count)
        }
        return address
    }

    /// Reads a 2-, 4- or 16-byte little-endian UUID. Throws ``ByteReaderError`` if short; other widths are not UUIDs and read nothing.
    public mutating func readUUID(width: Int) throws(ByteReaderError) -> BluetoothUUID? {
        guard width == 2 || width == 4 || width == 16 else { return nil }
        return BluetoothUUID(littleEndianBytes: try readBytes(width))
    }

    private mutating func readLittleEndian(_ count: Int) throws(ByteReaderError) -> UInt64 {
        try require(count)
        var value: UInt64 = 0
        for index in stride(from: offset + count - 1, through: offset, by: -1) {
            value = value << 8 | UInt64(bytes[index])
        }
        offset += count
        return value
    }
}
