// One HCI packet as it crosses a transport: its type indicator and its bytes, not yet decoded.

/// An HCI packet of any type, undecoded (Core v5.4 Vol 4 Part E §5.4).
///
/// `bytes` is the packet without the H4 indicator: for a command the 2-byte opcode, the 1-byte
/// parameter length and the parameters; for an event the event code, the 1-byte length and the
/// parameters; for ACL the 4-byte header and the data. Transports, H4 framing and capture files
/// move these; decoding into commands, events and ACL packets happens on demand.
public struct HCIPacket: Hashable, Sendable {
    /// The packet type (the H4 indicator).
    public var type: HCIPacketType
    /// The packet's bytes without the indicator.
    public var bytes: [UInt8]

    /// Makes a packet of `type` from its bytes (without the indicator).
    public init(type: HCIPacketType, bytes: [UInt8]) {
        self.type = type
        self.bytes = bytes
    }

    /// The packet as H4 puts it on a UART: the indicator byte, then the bytes.
    public var h4Bytes: [UInt8] { [type.rawValue] + bytes }
}
