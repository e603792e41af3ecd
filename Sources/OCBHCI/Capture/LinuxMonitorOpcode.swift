// The record opcodes of the Linux Bluetooth monitor channel, as btmon -w writes them into btsnoop datalink 2001.

/// A Linux monitor record opcode (the low 16 bits of btsnoop flags in datalink 2001, or the
/// second big-endian 16-bit field of the pcap link type 254 pseudo-header).
///
/// Values from BlueZ `src/shared/btsnoop.h` (BTSNOOP_OPCODE_*). Unknown values are kept.
public struct LinuxMonitorOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 16-bit opcode.
    public var rawValue: UInt16
    /// Wraps a raw opcode.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 0: a controller was added (payload: type, bus, address, name).
    public static let newIndex = Self(rawValue: 0)
    /// 1: a controller was removed.
    public static let deleteIndex = Self(rawValue: 1)
    /// 2: HCI command, host to controller.
    public static let commandPacket = Self(rawValue: 2)
    /// 3: HCI event, controller to host.
    public static let eventPacket = Self(rawValue: 3)
    /// 4: ACL data, host to controller.
    public static let aclTxPacket = Self(rawValue: 4)
    /// 5: ACL data, controller to host.
    public static let aclRxPacket = Self(rawValue: 5)
    /// 6: SCO data, host to controller.
    public static let scoTxPacket = Self(rawValue: 6)
    /// 7: SCO data, controller to host.
    public static let scoRxPacket = Self(rawValue: 7)
    /// 8: a controller was opened (brought up).
    public static let openIndex = Self(rawValue: 8)
    /// 9: a controller was closed.
    public static let closeIndex = Self(rawValue: 9)
    /// 10: controller information (address, manufacturer).
    public static let indexInfo = Self(rawValue: 10)
    /// 11: vendor diagnostic data.
    public static let vendorDiagnostic = Self(rawValue: 11)
    /// 12: a system note (text).
    public static let systemNote = Self(rawValue: 12)
    /// 13: a user-space log message.
    public static let userLogging = Self(rawValue: 13)
    /// 14: a management control socket was opened.
    public static let controlOpen = Self(rawValue: 14)
    /// 15: a management control socket was closed.
    public static let controlClose = Self(rawValue: 15)
    /// 16: a management command.
    public static let controlCommand = Self(rawValue: 16)
    /// 17: a management event.
    public static let controlEvent = Self(rawValue: 17)
    /// 18: ISO data, host to controller.
    public static let isoTxPacket = Self(rawValue: 18)
    /// 19: ISO data, controller to host.
    public static let isoRxPacket = Self(rawValue: 19)

    /// The HCI packet type and direction this opcode carries, or nil for non-packet records.
    public var packetTypeAndDirection: (HCIPacketType, CaptureDirection)? {
        switch rawValue {
        case 2: (.command, .sent)
        case 3: (.event, .received)
        case 4: (.acl, .sent)
        case 5: (.acl, .received)
        case 6: (.sco, .sent)
        case 7: (.sco, .received)
        case 18: (.iso, .sent)
        case 19: (.iso, .received)
        default: nil
        }
    }

    public var description: String { "monitor opcode \(rawValue)" }
}
