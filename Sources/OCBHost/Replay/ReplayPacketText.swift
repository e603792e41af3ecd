// One line naming an HCI packet for replay diagnostics: its kind, opcode or event, connection and channel, and its bytes.

import OCBCore
import OCBHCI

/// Describes a packet in one line: `command 0x200B LE Set Scan Parameters: 01 0b 20 07 …`,
/// `event 0x0E Command Complete (0x0C03 Reset): …`, `ACL handle 0x0040 CID 0x0004 ATT opcode 0x0A: …`.
/// The bytes are the packet's H4 form (indicator first), so a byte offset in a ``ReplayMismatch`` points into them;
/// at most 64 bytes are shown (then "… N bytes").
public enum ReplayPacketText {
    /// The line for `packet`.
    public static func describe(_ packet: HCIPacket) -> String {
        let bytes = packet.bytes
        let head: String
        switch packet.type {
        case .command:
            if bytes.count >= 2 {
                head = "command " + HCIOpcode(rawValue: UInt16(bytes[0]) | UInt16(bytes[1]) << 8).description
            } else {
                head = "command (cut short)"
            }
        case .event:
            if let code = bytes.first {
                var text = "event 0x" + Hex.uppercase(code, digits: 2)
                if code == 0x0E, bytes.count >= 5 {
                    text += " Command Complete (" + HCIOpcode(rawValue: UInt16(bytes[3]) | UInt16(bytes[4]) << 8).description + ")"
                } else if code == 0x0F, bytes.count >= 6 {
                    text += " Command Status (" + HCIOpcode(rawValue: UInt16(bytes[4]) | UInt16(bytes[5]) << 8).description + ")"
                } else if code == 0x3E, bytes.count >= 3 {
                    text += " LE Meta subevent 0x" + Hex.uppercase(bytes[2], digits: 2)
                }
                head = text
            } else {
                head = "event (empty)"
            }
        case .acl:
            if bytes.count >= 8 {
                let handle = (UInt16(bytes[0]) | UInt16(bytes[1]) << 8) & 0x0FFF
                let cid = UInt16(bytes[6]) | UInt16(bytes[7]) << 8
                var text = "ACL handle 0x" + Hex.uppercase(handle, digits: 4) + " CID 0x" + Hex.uppercase(cid, digits: 4)
                if cid == 0x0004, bytes.count >= 9 { text += " ATT opcode 0x" + Hex.uppercase(bytes[8], digits: 2) }
                head = text
            } else {
                head = "ACL"
            }
        default:
            head = packet.type.description
        }
        let h4 = packet.h4Bytes
        let shown = Hex.string(h4.prefix(64), separator: " ")
        return head + ": " + shown + (h4.count > 64 ? " … \(h4.count) bytes" : "")
    }
}
