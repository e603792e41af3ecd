// H4 framing in the outgoing direction: packets to one byte stream.

/// Frames ``HCIPacket``s for an H4 (UART) transport (Core v5.4 Vol 4 Part A §2): each packet is
/// its one-byte indicator followed by its bytes, packets back to back with nothing between.
public enum H4Encoder {
    /// The H4 bytes of one packet (same as ``HCIPacket/h4Bytes``).
    public static func encode(_ packet: HCIPacket) -> [UInt8] { packet.h4Bytes }

    /// The H4 bytes of several packets, concatenated in order.
    public static func encode<S: Sequence>(_ packets: S) -> [UInt8] where S.Element == HCIPacket {
        var bytes: [UInt8] = []
        for packet in packets {
            bytes.append(packet.type.rawValue)
            bytes.append(contentsOf: packet.bytes)
        }
        return bytes
    }
}
