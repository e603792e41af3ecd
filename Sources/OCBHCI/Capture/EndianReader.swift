// A ByteReader that reads integers in a chosen byte order, for pcap and pcapng (either endianness).

import OCBCore

/// Reads 16- and 32-bit integers big- or little-endian through a bounds-checked ``ByteReader``.
struct EndianReader {
    var reader: ByteReader
    var bigEndian: Bool

    init(_ reader: ByteReader, bigEndian: Bool) {
        self.reader = reader
        self.bigEndian = bigEndian
    }

    mutating func readUInt16() throws(ByteReaderError) -> UInt16 {
        bigEndian ? try reader.readUInt16BigEndian() : try reader.readUInt16()
    }

    mutating func readUInt32() throws(ByteReaderError) -> UInt32 {
        bigEndian ? try reader.readUInt32BigEndian() : try reader.readUInt32()
    }
}
