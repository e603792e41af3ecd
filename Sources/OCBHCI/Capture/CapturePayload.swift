// Turns one stored pcap/pcapng packet of a Bluetooth link type into a capture record.

/// Decodes the stored bytes of one pcap or pcapng packet of link type 187, 201 or 254.
enum CapturePayload {
    /// Makes the record for `data` of `linkType`; unknown link types and unrecognised bytes give a raw record with no packet.
    static func record(linkType: UInt32, data: [UInt8], originalLength: Int, timestamp: Int64, interface: UInt32) -> CaptureRecord {
        switch linkType {
        case CaptureLinkType.bluetoothH4WithPseudoHeader:
            guard data.count >= 4 else {
                return CaptureRecord(timestamp: timestamp, direction: .received, packet: nil, data: data,
                                     originalLength: originalLength, adapterIndex: interface)
            }
            let word = UInt32(data[0]) << 24 | UInt32(data[1]) << 16 | UInt32(data[2]) << 8 | UInt32(data[3])
            return CaptureRecord(timestamp: timestamp, direction: word & 1 == 0 ? .sent : .received,
                                 packet: HCIPacket(h4: data[4...]), data: data, originalLength: originalLength,
                                 flags: word, adapterIndex: interface)
        case CaptureLinkType.bluetoothH4:
            let packet = HCIPacket(h4: data[...])
            return CaptureRecord(timestamp: timestamp, direction: inferredDirection(packet?.type), packet: packet,
                                 data: data, originalLength: originalLength, adapterIndex: interface)
        case CaptureLinkType.bluetoothLinuxMonitor:
            guard data.count >= 4 else {
                return CaptureRecord(timestamp: timestamp, direction: .received, packet: nil, data: data,
                                     originalLength: originalLength, adapterIndex: interface)
            }
            let index = UInt32(data[0]) << 8 | UInt32(data[1])
            let opcode = LinuxMonitorOpcode(rawValue: UInt16(data[2]) << 8 | UInt16(data[3]))
            return monitorRecord(opcode: opcode, adapterIndex: index, payload: Array(data[4...]), data: data,
                                 originalLength: originalLength, timestamp: timestamp, flags: 0, drops: 0)
        default:
            return CaptureRecord(timestamp: timestamp, direction: .received, packet: nil, data: data,
                                 originalLength: originalLength, adapterIndex: interface)
        }
    }

    /// A Linux monitor record: packet opcodes give a packet and direction; other opcodes a raw record (direction `.received`).
    static func monitorRecord(opcode: LinuxMonitorOpcode, adapterIndex: UInt32, payload: [UInt8], data: [UInt8],
                              originalLength: Int, timestamp: Int64, flags: UInt32, drops: UInt32) -> CaptureRecord {
        let typed = opcode.packetTypeAndDirection
        return CaptureRecord(timestamp: timestamp, direction: typed?.1 ?? .received,
                             packet: typed.map { HCIPacket(type: $0.0, bytes: payload) }, data: data,
                             originalLength: originalLength, cumulativeDrops: drops, flags: flags,
                             adapterIndex: adapterIndex, monitorOpcode: opcode)
    }

    /// Link type 187 has no direction: commands are sent, everything else is taken as received.
    static func inferredDirection(_ type: HCIPacketType?) -> CaptureDirection {
        type == .command ? .sent : .received
    }
}
