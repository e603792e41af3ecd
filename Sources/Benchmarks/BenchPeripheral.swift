// The connected peripheral behind BenchController for the notification-path benchmark: one GATT service, then a stream of notifications.

/// What ``BenchController`` plays in the notification-path benchmark: one advertiser that accepts a connection
/// (handle 0x0040) and serves a four-attribute GATT database over ATT_MTU 23, then, once the host writes 0x0001 to the
/// CCCD, writes `notifications` Handle Value Notifications (Core v5.4 Vol 3 Part F §3.4.7.1, 20-byte values: 0x00,
/// then a little-endian counter in 3 bytes) at once, one per ACL packet, and an end-marker notification every 5 ms after them.
///
/// The database (Vol 3 Part G §3.1-3.3):
/// - 0x0001 Primary Service 0x180D (Heart Rate), group end 0x0004
/// - 0x0002 Characteristic: Notify, value handle 0x0003, UUID 0x2A37 (Heart Rate Measurement)
/// - 0x0003 the value
/// - 0x0004 Client Characteristic Configuration (0x2902)
///
/// Every request it has no answer for gets an Error Response (Attribute Not Found, or Request Not Supported), and
/// every ACL packet from the host a Number Of Completed Packets event (Vol 4 Part E §7.7.19), so ACL credits come
/// back as a controller's would.
struct BenchPeripheral {
    /// The connection handle of the link.
    static let handle: UInt16 = 0x0040
    /// The value handle the notifications name.
    static let valueHandle: UInt16 = 0x0003
    /// The first byte of the end marker's value (the stream's values start with 0x00).
    static let markerByte: UInt8 = 0xEE

    /// How many notifications the stream holds.
    let notifications: Int
    private var fragments: [UInt8] = []
    private var expected = 0

    init(notifications: Int) { self.notifications = notifications }

    /// The events that answer `opcode` instead of a plain Command Complete, or nil for the plain one.
    /// LE Set Scan Enable (0x200C) on: Command Complete, then one ADV_IND report from C0:00:00:00:00:01 named "Bench".
    /// LE Create Connection (0x200D): Command Status, then LE Connection Complete (§7.7.65.1, central, 30 ms interval).
    /// Disconnect (0x0406): Command Status, then Disconnection Complete (reason 0x16).
    func answer(_ opcode: UInt16, _ parameters: [UInt8]) -> [UInt8]? {
        switch opcode {
        case 0x200C where parameters.first == 0x01:
            let data: [UInt8] = [0x02, 0x01, 0x06, 0x06, 0x09] + Array("Bench".utf8)
            var report: [UInt8] = [0x3E, UInt8(12 + data.count), 0x02, 0x01, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0xC0,
                                   UInt8(data.count)]
            report += data
            report.append(0xC4)
            return Self.commandComplete(opcode, [0x00]) + [0x04] + report
        case 0x200D:
            let address = Array(parameters.dropFirst(5).prefix(7))
            guard address.count == 7 else { return Self.commandStatus(opcode, 0x12) }
            let complete: [UInt8] = [0x04, 0x3E, 19, 0x01, 0x00, UInt8(Self.handle & 0xFF), UInt8(Self.handle >> 8), 0x00]
                + address + [24, 0, 0, 0, 0xF4, 0x01, 0x00]
            return Self.commandStatus(opcode, 0x00) + complete
        case 0x0406:
            return Self.commandStatus(opcode, 0x00) + [0x04, 0x05, 4, 0x00, UInt8(Self.handle & 0xFF), UInt8(Self.handle >> 8), 0x16]
        default:
            return nil
        }
    }

    /// Takes one ACL packet's payload from the host (H4 type byte and ACL header removed; `first` from the Packet
    /// Boundary flag): the Number Of Completed Packets for it, the ATT response of a whole L2CAP frame on CID 0x0004,
    /// and whether the host just turned notifications on.
    mutating func receiveACL(_ payload: [UInt8], first: Bool) -> (reply: [UInt8], subscribed: Bool) {
        let completed: [UInt8] = [0x04, 0x13, 5, 0x01, UInt8(Self.handle & 0xFF), UInt8(Self.handle >> 8), 0x01, 0x00]
        if first {
            fragments = payload
            expected = payload.count >= 2 ? Int(payload[0]) | Int(payload[1]) << 8 : 0
        } else {
            fragments += payload
        }
        guard fragments.count >= 4, fragments.count - 4 >= expected else { return (completed, false) }
        let cid = Int(fragments[2]) | Int(fragments[3]) << 8
        let pdu = Array(fragments[4..<(4 + expected)])
        fragments = []
        guard cid == 0x0004, !pdu.isEmpty else { return (completed, false) }
        let (response, subscribed) = Self.respond(pdu)
        return (response.isEmpty ? completed : completed + Self.aclFrame(response), subscribed)
    }

    /// The whole stream: `notifications` notifications of the value handle, one H4 ACL packet each.
    func stream() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(notifications * 28)
        for index in 0..<notifications {
            var value = [UInt8](repeating: 0x5A, count: 20)
            value[0] = 0x00
            value[1] = UInt8(index & 0xFF)
            value[2] = UInt8(index >> 8 & 0xFF)
            value[3] = UInt8(index >> 16 & 0xFF)
            bytes += Self.aclFrame(Self.notification(value))
        }
        return bytes
    }

    /// The end marker: one notification whose value starts with ``markerByte``.
    func marker() -> [UInt8] {
        Self.aclFrame(Self.notification([Self.markerByte] + [UInt8](repeating: 0, count: 19)))
    }

    private static func notification(_ value: [UInt8]) -> [UInt8] {
        [0x1B, UInt8(valueHandle & 0xFF), UInt8(valueHandle >> 8)] + value
    }

    /// An ATT PDU of at most 23 bytes as one H4 ACL packet (PB 0b10, first automatically flushable) on CID 0x0004.
    private static func aclFrame(_ pdu: [UInt8]) -> [UInt8] {
        let l2cap = UInt16(pdu.count)
        let acl = l2cap + 4
        return [0x02, UInt8(handle & 0xFF), UInt8(handle >> 8) | 0x20, UInt8(acl & 0xFF), UInt8(acl >> 8),
                UInt8(l2cap & 0xFF), UInt8(l2cap >> 8), 0x04, 0x00] + pdu
    }

    /// The server's answer to one ATT PDU, and whether it turned notifications on (Vol 3 Part F §3.4).
    private static func respond(_ pdu: [UInt8]) -> (response: [UInt8], subscribed: Bool) {
        func u16(_ offset: Int) -> UInt16 { offset + 1 < pdu.count ? UInt16(pdu[offset]) | UInt16(pdu[offset + 1]) << 8 : 0 }
        func error(_ code: UInt8) -> [UInt8] { [0x01, pdu[0], pdu.count > 2 ? pdu[1] : 0, pdu.count > 2 ? pdu[2] : 0, code] }
        let start = u16(1), end = u16(3), type = u16(5)
        switch pdu[0] {
        case 0x02: return ([0x03, 23, 0], false)  // Exchange MTU: the server's Rx MTU is 23
        case 0x10 where type == 0x2800 && start <= 0x0001 && end >= 0x0001:
            return ([0x11, 6, 0x01, 0x00, 0x04, 0x00, 0x0D, 0x18], false)
        case 0x08 where type == 0x2803 && start <= 0x0002 && end >= 0x0002:
            return ([0x09, 7, 0x02, 0x00, 0x10, 0x03, 0x00, 0x37, 0x2A], false)
        case 0x04 where start <= 0x0004 && end >= 0x0004:
            return ([0x05, 0x01, 0x04, 0x00, 0x02, 0x29], false)
        case 0x12:
            let subscribed = u16(1) == 0x0004 && pdu.count >= 5 && pdu[3] & 0x01 != 0
            return ([0x13], subscribed)
        case 0x10, 0x08, 0x04, 0x06: return (error(0x0A), false)  // Attribute Not Found
        case 0x52, 0x1D, 0x1E, 0x03, 0x13, 0x1B: return ([], false)  // commands, responses, confirmations: none
        default: return (error(0x06), false)  // Request Not Supported
        }
    }

    private static func commandComplete(_ opcode: UInt16, _ returned: [UInt8]) -> [UInt8] {
        [0x04, 0x0E, UInt8(3 + returned.count), 0x01, UInt8(opcode & 0xFF), UInt8(opcode >> 8)] + returned
    }

    private static func commandStatus(_ opcode: UInt16, _ status: UInt8) -> [UInt8] {
        [0x04, 0x0F, 4, status, 0x01, UInt8(opcode & 0xFF), UInt8(opcode >> 8)]
    }
}
