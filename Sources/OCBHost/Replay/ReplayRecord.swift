// One HCI packet of a recording as a replay plays or expects it: its record number, time and direction.

import OCBHCI

/// A packet of a capture, for ``StrictReplay`` and ``TolerantReplay``.
///
/// `number` is the record's position in the file counted from 1, as tshark and Wireshark number frames, so a
/// mismatch names the frame a user finds in Wireshark. `timestamp` is microseconds since 1970 (``CaptureRecord``).
public struct ReplayRecord: Hashable, Sendable {
    /// The record number in the capture file, from 1.
    public var number: Int
    /// Capture time in microseconds since 1970-01-01 UTC.
    public var timestamp: Int64
    /// Sent by the host (a command, outgoing ACL) or received from the controller (an event, incoming ACL).
    public var direction: CaptureDirection
    /// The packet.
    public var packet: HCIPacket

    /// Makes a record from its parts.
    public init(number: Int, timestamp: Int64, direction: CaptureDirection, packet: HCIPacket) {
        self.number = number
        self.timestamp = timestamp
        self.direction = direction
        self.packet = packet
    }

    /// The HCI packets of a capture, numbered as the file numbers them; records holding no HCI packet (monitor notes,
    /// index records) keep their number but are left out; SCO and ISO data are left out too (no LE central sends them).
    public static func records(of capture: CaptureFile) -> [ReplayRecord] {
        var result: [ReplayRecord] = []
        result.reserveCapacity(capture.records.count)
        for (index, record) in capture.records.enumerated() {
            guard let packet = record.packet else { continue }
            switch packet.type {
            case .command, .event, .acl:
                result.append(ReplayRecord(number: index + 1, timestamp: record.timestamp, direction: record.direction, packet: packet))
            default:
                continue
            }
        }
        return result
    }
}
