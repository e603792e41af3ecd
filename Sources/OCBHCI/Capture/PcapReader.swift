// Reads classic libpcap files (either byte order, micro- or nanosecond) of the Bluetooth link types.

import OCBCore

/// Parses a libpcap file: a 24-byte header (magic, version 2.4, thiszone, sigfigs, snaplen, link type)
/// then records of a 16-byte header (seconds, micro- or nanoseconds, included length, original length)
/// and the included bytes. Source: tcpdump.org pcap file format (draft-ietf-opsawg-pcap).
enum PcapReader {
    /// Magic numbers read big-endian from the first four bytes, with (bigEndian, nanosecond).
    static func kind(of magic: [UInt8]) -> (bigEndian: Bool, nanosecond: Bool)? {
        switch magic {
        case [0xA1, 0xB2, 0xC3, 0xD4]: (true, false)
        case [0xD4, 0xC3, 0xB2, 0xA1]: (false, false)
        case [0xA1, 0xB2, 0x3C, 0x4D]: (true, true)
        case [0x4D, 0x3C, 0xB2, 0xA1]: (false, true)
        default: nil
        }
    }

    static func read(_ bytes: [UInt8]) throws(CaptureError) -> CaptureFile {
        guard bytes.count >= 24, let kind = kind(of: Array(bytes[0..<4])) else {
            throw .truncatedHeader(needed: 24, available: bytes.count)
        }
        var reader = EndianReader(ByteReader(bytes), bigEndian: kind.bigEndian)
        let linkType: UInt32
        do {
            try reader.reader.skip(20)
            linkType = try reader.readUInt32() & 0x0FFF_FFFF
        } catch {
            throw .truncatedHeader(needed: 24, available: bytes.count)
        }
        guard [CaptureLinkType.bluetoothH4, CaptureLinkType.bluetoothH4WithPseudoHeader,
               CaptureLinkType.bluetoothLinuxMonitor].contains(linkType) else { throw .unsupportedLinkType(linkType) }
        var records: [CaptureRecord] = []
        var failure: CaptureError?
        while !reader.reader.isAtEnd {
            let start = reader.reader.offset
            do {
                try reader.reader.require(16)
                let seconds = Int64(try reader.readUInt32())
                let fraction = Int64(try reader.readUInt32())
                let included = Int(try reader.readUInt32())
                let original = Int(try reader.readUInt32())
                let data = try reader.reader.readBytes(included)
                let stamp = seconds * 1_000_000 + (kind.nanosecond ? fraction / 1000 : fraction)
                records.append(CapturePayload.record(linkType: linkType, data: data, originalLength: original,
                                                     timestamp: stamp, interface: 0))
            } catch {
                failure = .truncatedRecord(number: records.count + 1, offset: start, needed: error.needed, available: error.available)
                break
            }
        }
        return CaptureFile(format: .pcap(linkType: linkType, nanosecond: kind.nanosecond, bigEndian: kind.bigEndian),
                           records: records, error: failure)
    }
}
