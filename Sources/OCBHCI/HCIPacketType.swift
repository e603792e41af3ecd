// The HCI packet indicator that prefixes each packet on UART (H4) and in btsnoop H4 captures.

/// The HCI packet type, the one-byte indicator of the UART transport (Core v5.4 Vol 4 Part A §2).
///
/// 0x01 command, 0x02 ACL data, 0x03 synchronous (SCO) data, 0x04 event, 0x05 ISO data.
public enum HCIPacketType: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// 0x01: HCI Command packet (host to controller).
    case command = 0x01
    /// 0x02: HCI ACL Data packet (both directions).
    case acl = 0x02
    /// 0x03: HCI Synchronous Data packet (SCO/eSCO); recognised and passed over by an LE central.
    case sco = 0x03
    /// 0x04: HCI Event packet (controller to host).
    case event = 0x04
    /// 0x05: HCI ISO Data packet; recognised and passed over.
    case iso = 0x05

    public var description: String {
        switch self {
        case .command: "command"
        case .acl: "ACL"
        case .sco: "SCO"
        case .event: "event"
        case .iso: "ISO"
        }
    }
}
