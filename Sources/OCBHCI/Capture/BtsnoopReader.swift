// Reads btsnoop files of datalink 1001, 1002 and 2001 into capture records.

import OCBCore

/// Parses a btsnoop file (layout in ``BtsnoopFormat``).
enum BtsnoopReader {
    /// Reads `bytes` (which start with the btsnoop magic). Header problems throw; a record cut short ends
    /// the list and is returned as the file's error after every complete record.
    static func read(_ bytes: [UInt8]) throws(CaptureError) -> CaptureFile {
        var reader = ByteReader(bytes)
        let version: UInt32
        let datalink: UInt32
        do {
            try reader.skip(8)
            version = try reader.readUInt32BigEndian()
            datalink = try reader.readUInt32BigEndian()
        } catch {
            throw .truncatedHeader(needed: BtsnoopFormat.headerLength, available: bytes.count)
        }
        guard version == BtsnoopFormat.version else { throw .unsupportedVersion(version) }
        guard [BtsnoopFormat.datalinkHCI, BtsnoopFormat.datalinkH4, BtsnoopFormat.datalinkMonitor].contains(datalink) else {
            throw .unsupportedDatalink(datalink)
        }
        var records: [CaptureRecord] = []
        var failure: CaptureError?
        while !reader.isAtEnd {
            let start = reader.offset
            do {
                try reader.require(BtsnoopFormat.recordHeaderLength)
                let originalLength = try reader.readUInt32BigEndian()
                let includedLength = try reader.readUInt32BigEndian()
                let flags = try reader.readUInt32BigEndian()
                let drops = try reader.readUInt32BigEndian()
                let stamp = Int64(bitPattern: try reader.readUInt64BigEndian())
                let data = try reader.readBytes(Int(includedLength))
                records.append(record(datalink: datalink, data: data, originalLength: Int(originalLength), flags: flags,
                                      drops: drops, timestamp: stamp &- BtsnoopFormat.unixEpochOffset))
            } catch {
                failure = .truncatedRecord(number: records.count + 1, offset: start, needed: error.needed,
                                           available: error.available)
                break
            }
        }
        return CaptureFile(format: .btsnoop(datalink: datalink), records: records, error: failure)
    }

    private static func record(datalink: UInt32, data: [UInt8], originalLength: Int, flags: UInt32, drops: UInt32,
                               timestamp: Int64) -> CaptureRecord {
        let direction: CaptureDirection = flags & 1 == 0 ? .sent : .received
        switch datalink {
        case BtsnoopFormat.datalinkMonitor:
            return CapturePayload.monitorRecord(opcode: LinuxMonitorOpcode(rawValue: UInt16(truncatingIfNeeded: flags)),
                                                adapterIndex: flags >> 16, payload: data, data: data,
                                                originalLength: originalLength, timestamp: timestamp, flags: flags, drops: drops)
        case BtsnoopFormat.datalinkHCI:
            let type: HCIPacketType = flags & 2 == 0 ? .acl : (direction == .sent ? .command : .event)
            return CaptureRecord(timestamp: timestamp, direction: direction, packet: HCIPacket(type: type, bytes: data),
                                 data: data, originalLength: originalLength, cumulativeDrops: drops, flags: flags)
        default:
            return CaptureRecord(timestamp: timestamp, direction: direction, packet: HCIPacket(h4: data[...]), data: data,
                                 originalLength: originalLength, cumulativeDrops: drops, flags: flags)
        }
    }
}
