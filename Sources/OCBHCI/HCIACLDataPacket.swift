// The HCI ACL Data packet: connection handle, Packet_Boundary and Broadcast flags, and a fragment of an L2CAP PDU.

import OCBCore

/// An HCI ACL Data packet (Core v5.4 Vol 4 Part E §5.4.2).
///
/// Layout (little-endian): Handle (12 bits) | PB_Flag (2 bits) | BC_Flag (2 bits) as one 16-bit field,
/// Data_Total_Length (16 bits), then that many data bytes.
public struct HCIACLDataPacket: Hashable, Sendable {
    /// Packet_Boundary_Flag (Vol 4 Part E §5.4.2).
    public enum PacketBoundary: UInt8, Sendable {
        /// 0b00: first non-automatically-flushable packet (host to controller only).
        case firstNonFlushable = 0b00
        /// 0b01: continuing fragment of a higher-layer message.
        case continuing = 0b01
        /// 0b10: first automatically flushable packet (the start of an L2CAP PDU on LE).
        case firstFlushable = 0b10
        /// 0b11: a complete automatically flushable L2CAP PDU (not used on LE-U).
        case complete = 0b11
    }

    /// Connection_Handle, 0x0000...0x0EFF.
    public var handle: ConnectionHandle
    /// Packet_Boundary_Flag.
    public var packetBoundary: PacketBoundary
    /// Broadcast_Flag, 2 bits (0b00 point-to-point on LE).
    public var broadcast: UInt8
    /// The data bytes (a fragment of an L2CAP PDU).
    public var data: [UInt8]

    /// Makes a packet.
    public init(handle: ConnectionHandle, packetBoundary: PacketBoundary, broadcast: UInt8 = 0, data: [UInt8]) {
        self.handle = ConnectionHandle(field: handle.rawValue)
        self.packetBoundary = packetBoundary
        self.broadcast = broadcast & 0b11
        self.data = data
    }

    /// Decodes a packet without its H4 indicator. Throws ``ByteReaderError`` when the header is short
    /// or fewer data bytes follow than Data_Total_Length announces; extra trailing bytes are ignored.
    public init(bytes: [UInt8]) throws(ByteReaderError) {
        var reader = ByteReader(bytes)
        let field = try reader.readUInt16()
        let length = Int(try reader.readUInt16())
        handle = ConnectionHandle(field: field)
        packetBoundary = PacketBoundary(rawValue: UInt8(truncatingIfNeeded: field >> 12) & 0b11) ?? .continuing
        broadcast = UInt8(truncatingIfNeeded: field >> 14) & 0b11
        data = try reader.readBytes(length)
    }

    /// The packet's bytes without the H4 indicator.
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 4 + data.count)
        let flags = UInt16(packetBoundary.rawValue) << 12 | UInt16(broadcast & 0b11) << 14
        writer.write(handle.rawValue & 0x0FFF | flags)
        writer.write(UInt16(truncatingIfNeeded: data.count))
        writer.write(contentsOf: data)
        return writer.bytes
    }
}
