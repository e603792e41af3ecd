// Sans-I/O btsnoop writer (datalinks 1001, 1002 and 2001): records in, file bytes out, incrementally.

import OCBCore

/// Builds a btsnoop v1 file of datalink 1001 (HCI), 1002 (H4, the default) or 2001 (Linux monitor), layout in
/// ``BtsnoopFormat`` and ``BtsnoopDatalink``.
///
/// The file header is in ``bytes`` from the start; each ``append(_:)`` adds one record. Take the
/// bytes written so far with ``takeBytes()`` to stream them to a file (Host's `BtsnoopFileWriter` does),
/// or keep appending and read ``bytes`` at the end for an in-memory file.
///
/// File header (16 bytes, big-endian): "btsnoop\0", version 1, datalink (1001, 1002 or 2001).
/// Each record (big-endian): original length, included length, flags, cumulative drops (32 bits each),
/// timestamp (64 bits, microseconds since 0000-01-01), then the included bytes:
/// - 1002: the H4 bytes (indicator, packet); flags bit 0 the direction (0 sent by the host, 1 received),
///   bit 1 set for commands and events. A record read from a 1002 file is written back byte for byte.
/// - 1001: the packet without indicator; flags as for 1002. SCO and ISO packets have no place in this layout
///   (a reader takes every packet with bit 1 clear for ACL) and are skipped.
/// - 2001: the packet without indicator; flags = adapter index << 16 | monitor opcode (BlueZ `src/shared/btsnoop.h`:
///   2 command, 3 event, 4 ACL tx, 5 ACL rx, 6 SCO tx, 7 SCO rx, 18 ISO tx, 19 ISO rx). The opcode comes from the
///   packet type and the record's direction; commands are always 2 and events 3 (the directions HCI gives them).
///   Records that hold no packet but carry a ``CaptureRecord/monitorOpcode`` (index records, notes, logs, read
///   from a monitor capture) are written with that opcode and their monitor payload.
///
/// Timestamps and cumulative drops are written as the records hold them. Records that cannot be expressed in
/// the datalink (no packet; SCO/ISO in 1001; no packet and no monitor opcode in 2001) are skipped and counted
/// in ``skippedCount``.
public struct BtsnoopWriter: Sendable {
    /// Bytes produced and not yet taken.
    public private(set) var bytes: [UInt8]
    /// The datalink of the file being written (in its header and every record).
    public let datalink: BtsnoopDatalink
    /// How many records ``append(_:)`` skipped because the datalink cannot express them.
    public private(set) var skippedCount = 0

    /// Starts a file of `datalink` (default 1002, H4): ``bytes`` holds the 16-byte header.
    public init(datalink: BtsnoopDatalink = .h4) {
        self.datalink = datalink
        bytes = Self.fileHeader(datalink: datalink)
    }

    /// The 16-byte file header for datalink 1002.
    public static var fileHeader: [UInt8] { fileHeader(datalink: .h4) }

    /// The 16-byte file header: "btsnoop\0", version 1 and `datalink`'s number, big-endian.
    public static func fileHeader(datalink: BtsnoopDatalink) -> [UInt8] {
        var writer = ByteWriter(capacity: BtsnoopFormat.headerLength)
        writer.write(contentsOf: BtsnoopFormat.magic)
        writer.writeBigEndian(BtsnoopFormat.version)
        writer.writeBigEndian(datalink.rawValue)
        return writer.bytes
    }

    /// The bytes of one record in `datalink` (default 1002), or nil when the datalink cannot express it
    /// (see ``BtsnoopWriter``).
    ///
    /// The original length adds back however many bytes the source capture had cut (``CaptureRecord/originalLength``
    /// minus its stored data); drops and timestamp are kept.
    public static func recordBytes(_ record: CaptureRecord, datalink: BtsnoopDatalink = .h4) -> [UInt8]? {
        guard let (data, flags) = content(of: record, datalink: datalink) else { return nil }
        let cut = max(0, record.originalLength - record.data.count)
        var writer = ByteWriter(capacity: BtsnoopFormat.recordHeaderLength + data.count)
        writer.writeBigEndian(UInt32(truncatingIfNeeded: data.count &+ cut))
        writer.writeBigEndian(UInt32(truncatingIfNeeded: data.count))
        writer.writeBigEndian(flags)
        writer.writeBigEndian(record.cumulativeDrops)
        writer.writeBigEndian(UInt64(bitPattern: record.timestamp &+ BtsnoopFormat.unixEpochOffset))
        writer.write(contentsOf: data)
        return writer.bytes
    }

    /// Appends one record; returns false (writes nothing, counts it in ``skippedCount``) when the datalink cannot express it.
    @discardableResult
    public mutating func append(_ record: CaptureRecord) -> Bool {
        guard let recordBytes = Self.recordBytes(record, datalink: datalink) else {
            skippedCount += 1
            return false
        }
        bytes.append(contentsOf: recordBytes)
        return true
    }

    /// Appends a packet seen at `timestamp` (microseconds since 1970-01-01 UTC) going `direction`; returns false
    /// (and counts it) when the datalink cannot express it (SCO/ISO in 1001).
    @discardableResult
    public mutating func append(_ packet: HCIPacket, direction: CaptureDirection, timestamp: Int64) -> Bool {
        append(CaptureRecord(timestamp: timestamp, direction: direction, packet: packet))
    }

    /// Returns the bytes produced since the last call (the header first) and forgets them.
    public mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// A whole btsnoop file of `datalink` (default 1002) holding `records`; records it cannot express are left out.
    public static func file<S: Sequence>(_ records: S, datalink: BtsnoopDatalink = .h4) -> [UInt8]
    where S.Element == CaptureRecord {
        var writer = BtsnoopWriter(datalink: datalink)
        for record in records { writer.append(record) }
        return writer.bytes
    }

    /// The included bytes and flags of `record` in `datalink`, or nil when it cannot be expressed.
    private static func content(of record: CaptureRecord, datalink: BtsnoopDatalink) -> (data: [UInt8], flags: UInt32)? {
        switch datalink {
        case .h4:
            guard let packet = record.packet else { return nil }
            return (packet.h4Bytes, snoopFlags(packet.type, record.direction))
        case .hci:
            guard let packet = record.packet, packet.type != .sco, packet.type != .iso else { return nil }
            return (packet.bytes, snoopFlags(packet.type, record.direction))
        case let .monitor(index):
            if let packet = record.packet {
                return (packet.bytes, UInt32(index) << 16 | UInt32(monitorOpcode(packet.type, record.direction).rawValue))
            }
            guard let opcode = record.monitorOpcode else { return nil }
            return (monitorPayload(of: record, opcode: opcode), UInt32(index) << 16 | UInt32(opcode.rawValue))
        }
    }

    /// Flags of datalinks 1001 and 1002: bit 0 the direction, bit 1 set for commands and events.
    private static func snoopFlags(_ type: HCIPacketType, _ direction: CaptureDirection) -> UInt32 {
        UInt32(direction.rawValue) | (type == .command || type == .event ? 2 : 0)
    }

    /// The monitor opcode of a packet: 2 command, 3 event, 4/5 ACL, 6/7 SCO, 18/19 ISO (tx when sent, rx when received).
    private static func monitorOpcode(_ type: HCIPacketType, _ direction: CaptureDirection) -> LinuxMonitorOpcode {
        let sent = direction == .sent
        switch type {
        case .command: return .commandPacket
        case .event: return .eventPacket
        case .acl: return sent ? .aclTxPacket : .aclRxPacket
        case .sco: return sent ? .scoTxPacket : .scoRxPacket
        case .iso: return sent ? .isoTxPacket : .isoRxPacket
        }
    }

    /// The monitor payload of a non-packet record. A btsnoop 2001 record stores it as `data` (its flags are
    /// `adapterIndex << 16 | opcode`); a pcap/pcapng link type 254 record (flags 0) stores the 4-byte pseudo-header
    /// (adapter index, opcode, big-endian) before it, which is dropped. Both forms have flags 0 only for a New Index
    /// record (opcode 0) on adapter 0, whose payload is 16 bytes (type, bus, address, name): 20 bytes there mean
    /// the pseudo-header is present.
    private static func monitorPayload(of record: CaptureRecord, opcode: LinuxMonitorOpcode) -> [UInt8] {
        let index = UInt16(truncatingIfNeeded: record.adapterIndex)
        let header: [UInt8] = [UInt8(index >> 8), UInt8(index & 0xFF), UInt8(opcode.rawValue >> 8), UInt8(opcode.rawValue & 0xFF)]
        let snoopFlags = UInt32(index) << 16 | UInt32(opcode.rawValue)
        guard record.data.starts(with: header) else { return record.data }
        let fromPcap = record.flags != snoopFlags || (snoopFlags == 0 && record.data.count == header.count + 16)
        return fromPcap ? Array(record.data.dropFirst(header.count)) : record.data
    }
}
