// A little-endian byte writer for building packets and PDUs.

/// Appends little-endian integers and byte runs to a growing buffer.
///
/// The counterpart of ``ByteReader`` for outgoing data; integers are written least significant
/// byte first as every Bluetooth wire format requires (Core v5.4 Vol 1 Part E §2.9).
public struct ByteWriter: Sendable {
    /// Everything written so far.
    public private(set) var bytes: [UInt8]

    /// Starts an empty buffer, optionally reserving room for `capacity` bytes.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends one byte.
    public mutating func write(_ value: UInt8) { bytes.append(value) }

    /// Appends one signed byte (two's complement), e.g. a TX power in dBm.
    public mutating func write(_ value: Int8) { bytes.append(UInt8(bitPattern: value)) }

    /// Appends a 16-bit value, little-endian.
    public mutating func write(_ value: UInt16) { writeLittleEndian(UInt64(value), count: 2) }

    /// Appends the low 24 bits of `value`, little-endian.
    public mutating func writeUInt24(_ value: UInt32) { writeLittleEndian(UInt64(value), count: 3) }

    /// Appends a 32-bit value, little-endian.
    public mutating func write(_ value: UInt32) { writeLittleEndian(UInt64(value), count: 4) }

    /// Appends a 64-bit value, little-endian.
    public mutating func write(_ value: UInt64) { writeLittleEndian(value, count: 8) }

    /// Appends a 16-bit value, big-endian.
    public mutating func writeBigEndian(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a 32-bit value, big-endian (btsnoop headers).
    public mutating func writeBigEndian(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Appends a 64-bit value, big-endian (btsnoop timestamps).
    public mutating func writeBigEndian(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Appends bytes as they are.
    public mutating func write<C: Sequence>(contentsOf run: C) where C.Element == UInt8 { bytes.append(contentsOf: run) }

    /// Appends a device address in wire order (least significant byte first).
    public mutating func write(_ address: BluetoothAddress) { bytes.append(contentsOf: address.littleEndianBytes) }

    /// Appends a UUID in its shortest little-endian wire form (2, 4 or 16 bytes).
    public mutating func write(_ uuid: BluetoothUUID) { bytes.append(contentsOf: uuid.littleEndianBytes) }

    private mutating func writeLittleEndian(_ value: UInt64, count: Int) {
        for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(index * 8))) }
    }
}
