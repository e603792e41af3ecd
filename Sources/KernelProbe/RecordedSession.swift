// What a btsnoop recording of a kernel-mode session holds: scan commands, advertising reports, connections, ATT PDUs.

import OCBCore
import OCBHCI

/// The facts the recording checks look for, pulled out of a capture's records (btsnoop 1002: H4 bytes, flags bit 0
/// direction, bit 1 command/event).
struct RecordedSession {
    /// One ATT PDU carried in a start fragment of an ACL packet on CID 0x0004 (Core v5.4 Vol 3 Part A §3.1).
    struct ATTPDU: Equatable {
        var direction: CaptureDirection
        var opcode: UInt8
        var parameters: [UInt8]
    }

    /// Commands by direction and opcode, with their parameters.
    var commands: [(direction: CaptureDirection, opcode: HCIOpcode, parameters: [UInt8])] = []
    /// Event records by direction.
    var eventDirections: [CaptureDirection] = []
    /// Advertising reports (legacy or extended) by direction and advertiser.
    var advertisingReports: [(direction: CaptureDirection, address: BluetoothAddress)] = []
    /// LE (Enhanced) Connection Complete events by direction, role (0 central, 1 peripheral) and peer.
    var connections: [(direction: CaptureDirection, role: UInt8, peer: BluetoothAddress)] = []
    /// ATT PDUs on CID 4.
    var att: [ATTPDU] = []
    /// Records whose btsnoop flags disagree with their packet type and direction (bit 1 set for commands and events
    /// only, bit 0 = direction), as "record N: ...".
    var flagMismatches: [String] = []
    /// Timestamps in file order (microseconds since 1970).
    var timestamps: [Int64] = []

    init(_ records: [CaptureRecord]) {
        for (number, record) in records.enumerated() {
            timestamps.append(record.timestamp)
            guard let packet = record.packet else { continue }
            let isCommandOrEvent = packet.type == .command || packet.type == .event
            let expectedFlags = UInt32(record.direction.rawValue) | (isCommandOrEvent ? 2 : 0)
            if record.flags != expectedFlags { flagMismatches.append("record \(number): flags \(record.flags), want \(expectedFlags)") }
            switch packet.type {
            case .command: addCommand(packet.bytes, record.direction)
            case .event: addEvent(packet.bytes, record.direction)
            case .acl: addACL(packet.bytes, record.direction)
            default: break
            }
        }
    }

    private mutating func addCommand(_ bytes: [UInt8], _ direction: CaptureDirection) {
        var reader = ByteReader(bytes)
        guard let opcode = try? reader.readUInt16(), let length = try? reader.readUInt8(),
              let parameters = try? reader.readBytes(Int(length)) else { return }
        commands.append((direction, HCIOpcode(rawValue: opcode), parameters))
    }

    private mutating func addEvent(_ bytes: [UInt8], _ direction: CaptureDirection) {
        eventDirections.append(direction)
        guard case .leMeta(let meta)? = try? HCIEvent(bytes: bytes) else { return }
        switch meta {
        case .advertisingReport(let event):
            for report in event.reports { advertisingReports.append((direction, report.address)) }
        case .extendedAdvertisingReport(let event):
            for report in event.reports { advertisingReports.append((direction, report.address)) }
        case .connectionComplete(let complete), .enhancedConnectionComplete(let complete), .enhancedConnectionCompleteV2(let complete):
            connections.append((direction, complete.role, complete.peerAddress))
        default:
            break
        }
    }

    private mutating func addACL(_ bytes: [UInt8], _ direction: CaptureDirection) {
        guard let packet = try? HCIACLDataPacket(bytes: bytes), packet.packetBoundary != .continuing else { return }
        var reader = ByteReader(packet.data)
        guard let _ = try? reader.readUInt16(), let channel = try? reader.readUInt16(), channel == 0x0004,
              let opcode = try? reader.readUInt8() else { return }
        att.append(ATTPDU(direction: direction, opcode: opcode, parameters: reader.readRemaining()))
    }

    /// The Enable parameter (first byte) of every LE Set Scan Enable (0x200C) and LE Set Extended Scan Enable (0x2042)
    /// command sent `direction`.
    func scanEnables(_ direction: CaptureDirection) -> [UInt8] {
        commands.filter { $0.direction == direction && ($0.opcode == .leSetScanEnable || $0.opcode == .leSetExtendedScanEnable) }
            .compactMap(\.parameters.first)
    }
}
