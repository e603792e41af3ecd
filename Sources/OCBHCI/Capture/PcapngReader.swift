// Reads pcapng files: sections, interfaces with their link types and time resolutions, enhanced and simple packets.

import OCBCore

/// Parses pcapng (draft-ietf-opsawg-pcapng): blocks of type (32 bits), total length (32 bits), body,
/// total length again, in the byte order the Section Header Block's byte-order magic 0x1A2B3C4D gives.
/// Read: Section Header (0x0A0D0D0A), Interface Description (1; link type, snap length, if_tsresol),
/// Enhanced Packet (6), Simple Packet (3). Other blocks are skipped.
enum PcapngReader {
    private struct Interface {
        var linkType: UInt32
        var snapLength: UInt32
        /// if_tsresol: bit 7 clear = 10^-n seconds, set = 2^-n seconds. Default 6 (microseconds).
        var resolution: UInt8 = 6
    }

    static let sectionHeaderType: UInt32 = 0x0A0D_0D0A

    static func read(_ bytes: [UInt8]) throws(CaptureError) -> CaptureFile {
        guard bytes.count >= 28 else { throw .truncatedHeader(needed: 28, available: bytes.count) }
        var records: [CaptureRecord] = []
        var interfaces: [Interface] = []
        var bigEndian = false
        var offset = 0
        while offset < bytes.count {
            let remaining = bytes.count - offset
            guard remaining >= 12 else {
                return CaptureFile(format: .pcapng, records: records,
                                   error: .truncatedRecord(number: records.count + 1, offset: offset, needed: 12, available: remaining))
            }
            let typeBytes = Array(bytes[offset..<(offset + 4)])
            if typeBytes == [0x0A, 0x0D, 0x0D, 0x0A] {
                switch Array(bytes[(offset + 8)..<(offset + 12)]) {
                case [0x1A, 0x2B, 0x3C, 0x4D]: bigEndian = true
                case [0x4D, 0x3C, 0x2B, 0x1A]: bigEndian = false
                default:
                    return CaptureFile(format: .pcapng, records: records,
                                       error: .malformedBlock(offset: offset, reason: "bad byte-order magic"))
                }
                interfaces = []
            }
            var header = EndianReader(ByteReader(bytes[offset..<(offset + 8)]), bigEndian: bigEndian)
            guard let type = try? header.readUInt32(), let length32 = try? header.readUInt32() else { break }
            let length = Int(length32)
            guard length >= 12, length % 4 == 0 else {
                return CaptureFile(format: .pcapng, records: records,
                                   error: .malformedBlock(offset: offset, reason: "block length \(length) is not a multiple of 4 of at least 12"))
            }
            guard length <= remaining else {
                return CaptureFile(format: .pcapng, records: records,
                                   error: .truncatedRecord(number: records.count + 1, offset: offset, needed: length, available: remaining))
            }
            let body = EndianReader(ByteReader(bytes[(offset + 8)..<(offset + length - 4)]), bigEndian: bigEndian)
            do {
                switch type {
                case 1:
                    interfaces.append(try interface(body))
                case 6:
                    records.append(try enhancedPacket(body, interfaces: interfaces, offset: offset))
                case 3:
                    records.append(try simplePacket(body, interfaces: interfaces, offset: offset))
                default:
                    break
                }
            } catch {
                return CaptureFile(format: .pcapng, records: records, error: error)
            }
            offset += length
        }
        return CaptureFile(format: .pcapng, records: records, error: nil)
    }

    private static func interface(_ body: EndianReader) throws(CaptureError) -> Interface {
        var body = body
        do {
            let linkType = UInt32(try body.readUInt16())
            try body.reader.skip(2)
            var result = Interface(linkType: linkType, snapLength: try body.readUInt32())
            while body.reader.remaining >= 4 {
                let code = try body.readUInt16()
                let length = Int(try body.readUInt16())
                if code == 0 { break }
                let value = try body.reader.readBytes(length)
                try body.reader.skip((4 - length % 4) % 4)
                if code == 9, let resolution = value.first { result.resolution = resolution }
            }
            return result
        } catch {
            throw .malformedBlock(offset: body.reader.offset, reason: "interface description: \(error)")
        }
    }

    private static func enhancedPacket(_ body: EndianReader, interfaces: [Interface], offset: Int) throws(CaptureError) -> CaptureRecord {
        var body = body
        do {
            let id = try body.readUInt32()
            let high = UInt64(try body.readUInt32())
            let low = UInt64(try body.readUInt32())
            let captured = Int(try body.readUInt32())
            let original = Int(try body.readUInt32())
            let data = try body.reader.readBytes(captured)
            guard let interface = interfaces.indices.contains(Int(id)) ? interfaces[Int(id)] : nil else {
                throw CaptureError.malformedBlock(offset: offset, reason: "enhanced packet names interface \(id), which is not described")
            }
            return CapturePayload.record(linkType: interface.linkType, data: data, originalLength: original,
                                         timestamp: microseconds(high << 32 | low, resolution: interface.resolution),
                                         interface: id)
        } catch let error as CaptureError {
            throw error
        } catch {
            throw .malformedBlock(offset: offset, reason: "enhanced packet: \(error)")
        }
    }

    private static func simplePacket(_ body: EndianReader, interfaces: [Interface], offset: Int) throws(CaptureError) -> CaptureRecord {
        var body = body
        guard let interface = interfaces.first else {
            throw .malformedBlock(offset: offset, reason: "simple packet before any interface description")
        }
        guard let original = try? body.readUInt32() else {
            throw .malformedBlock(offset: offset, reason: "simple packet without its length")
        }
        var count = min(Int(original), body.reader.remaining)
        if interface.snapLength > 0 { count = min(count, Int(interface.snapLength)) }
        let data = (try? body.reader.readBytes(count)) ?? []
        return CapturePayload.record(linkType: interface.linkType, data: data, originalLength: Int(original),
                                     timestamp: 0, interface: 0)
    }

    /// Converts a timestamp in if_tsresol units to microseconds, without trapping on any value.
    static func microseconds(_ units: UInt64, resolution: UInt8) -> Int64 {
        let exponent = Int(resolution & 0x7F)
        let (high, low) = units.multipliedFullWidth(by: 1_000_000)
        if resolution & 0x80 != 0 {
            // units / 2^exponent seconds.
            switch exponent {
            case 0: return Int64(bitPattern: low)
            case 1..<64: return Int64(bitPattern: high << UInt64(64 - exponent) | low >> UInt64(exponent))
            default: return Int64(bitPattern: high >> UInt64(min(exponent - 64, 63)))
            }
        }
        if exponent <= 6 {
            var factor: UInt64 = 1
            for _ in 0..<(6 - exponent) { factor &*= 10 }
            return Int64(bitPattern: units &* factor)
        }
        guard exponent - 6 <= 19 else { return 0 }
        var divisor: UInt64 = 1
        for _ in 0..<(exponent - 6) { divisor &*= 10 }
        return Int64(bitPattern: units / divisor)
    }
}
