// Sans-I/O btsnoop writer (datalink 1002, H4): records in, file bytes out, incrementally.

import BluetoothCore

/// Builds a btsnoop v1 file of datalink 1002 (H4 with indicator), layout in ``BtsnoopFormat``.
///
/// The file header is in ``bytes`` from the start; each ``append(_:)`` adds one record. Take the
/// bytes written so far with ``takeBytes()`` to stream them to a file (Host's `BtsnoopFileWriter` does),
/// or keep appending and read ``bytes`` at the end for an in-memory file.
///
/// Each record: original length, included length, flags (bit 0: 0 sent / 1 received; bit 1 set for
/// commands and events), cumulative drops, timestamp (microseconds since 0000-01-01), then the H4 bytes.
/// A record read from a 1002 file is written back byte for byte.
public struct BtsnoopWriter: Sendable {
    /// Bytes produced and not yet taken.
    public private(set) var bytes: [UInt8]

    /// Starts a file: ``bytes`` holds the 16-byte header ("btsnoop\0", version 1, datalink 1002).
    public init() { bytes = Self.fileHeader }

    /// The 16-byte file header for datalink 1002.
    public static var fileHeader: [UInt8] {
        var writer = ByteWriter(capacity: BtsnoopFormat.headerLength)
        writer.write(contentsOf: BtsnoopFormat.magic)
        writer.writeBigEndian(BtsnoopFormat.version)
        writer.writeBigEndian(BtsnoopFormat.datalinkH4)
        return writer.bytes
    }

    /// The bytes of one record, or nil when the record holds no HCI packet (monitor notes and index
    /// records cannot be expressed in datalink 1002).
    ///
    /// The included bytes are the packet's H4 bytes; the original length adds back however many bytes the
    /// source capture had cut (``CaptureRecord/originalLength`` minus its stored data); drops and timestamp are kept.
    public static func recordBytes(_ record: CaptureRecord) -> [UInt8]? {
        guard let packet = record.packet else { return nil }
        let data = packet.h4Bytes
        let cut = max(0, record.originalLength - record.data.count)
        let flags: UInt32 = UInt32(record.direction.rawValue) | (packet.type == .command || packet.type == .event ? 2 : 0)
        var writer = ByteWriter(capacity: BtsnoopFormat.recordHeaderLength + data.count)
        writer.writeBigEndian(UInt32(truncatingIfNeeded: data.count &+ cut))
        writer.writeBigEndian(UInt32(truncatingIfNeeded: data.count))
        writer.writeBigEndian(flags)
        writer.writeBigEndian(record.cumulativeDrops)
        writer.writeBigEndian(UInt64(bitPattern: record.timestamp &+ BtsnoopFormat.unixEpochOffset))
        writer.write(contentsOf: data)
        return writer.bytes
    }

    /// Appends one record; returns false (and writes nothing) when it holds no HCI packet.
    @discardableResult
    public mutating func append(_ record: CaptureRecord) -> Bool {
        guard let recordBytes = Self.recordBytes(record) else { return false }
        bytes.append(contentsOf: recordBytes)
        return true
    }

    /// Appends a packet seen at `timestamp` (microseconds since 1970-01-01 UTC) going `direction`.
    public mutating func append(_ packet: HCIPacket, direction: CaptureDirection, timestamp: Int64) {
        append(CaptureRecord(timestamp: timestamp, direction: direction, packet: packet))
    }

    /// Returns the bytes produced since the last call (the header first) and forgets them.
    public mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// A whole btsnoop 1002 file holding `records` (records without a packet are left out).
    public static func file<S: Sequence>(_ records: S) -> [UInt8] where S.Element == CaptureRecord {
        var writer = BtsnoopWriter()
        for record in records { writer.append(record) }
        return writer.bytes
    }
}
