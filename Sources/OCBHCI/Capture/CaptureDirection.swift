// Which way a captured packet went: from the host to the controller or back.

/// The direction of a captured HCI packet, seen from the host.
///
/// btsnoop stores it in flags bit 0 (0 sent, 1 received); pcap link type 201 in the 4-byte
/// big-endian pseudo-header (0 sent, 1 received); the Linux monitor format in the opcode
/// (e.g. 4 ACL TX, 5 ACL RX).
public enum CaptureDirection: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// Sent by the host to the controller (commands, outgoing ACL).
    case sent = 0
    /// Received by the host from the controller (events, incoming ACL).
    case received = 1

    public var description: String {
        switch self {
        case .sent: "sent"
        case .received: "received"
        }
    }
}
