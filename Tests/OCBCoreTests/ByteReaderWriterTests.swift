// Tests of the bounds-checked ByteReader (typed short-read errors) and the little-endian ByteWriter.
import OCBCore
import Testing

@Suite struct ByteReaderWriterTests {
    @Test func readsLittleEndianIntegers() throws {
        var reader = ByteReader([0x01, 0x34, 0x12, 0x56, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0xC5])
        #expect(try reader.readUInt8() == 0x01)
        #expect(try reader.readUInt16() == 0x1234)
        #expect(try reader.readUInt24() == 0x12_3456)
        #expect(try reader.readUInt32() == 0x1234_5678)
        #expect(try reader.readInt8() == -59)
        #expect(reader.isAtEnd && reader.remaining == 0)
        var long = ByteReader([8, 7, 6, 5, 4, 3, 2, 1])
        #expect(try long.readUInt64() == 0x0102_0304_0506_0708)
    }

    @Test func readsBigEndianIntegers() throws {
        var reader = ByteReader([0x12, 0x34, 0x12, 0x34, 0x56, 0x78, 0, 0, 0, 0, 0, 0, 0x01, 0x02])
        #expect(try reader.readUInt16BigEndian() == 0x1234)
        #expect(try reader.readUInt32BigEndian() == 0x1234_5678)
        #expect(try reader.readUInt64BigEndian() == 0x0102)
    }

    @Test func shortReadThrowsWithOffsetAndLeavesPositionAlone() throws {
        var reader = ByteReader([0x01, 0x02, 0x03])
        _ = try reader.readUInt8()
        #expect(throws: ByteReaderError(offset: 1, needed: 4, available: 2)) { try reader.readUInt32() }
        #expect(reader.offset == 1)
        #expect(throws: ByteReaderError(offset: 1, needed: 6, available: 2)) { try reader.readAddress() }
        #expect(throws: ByteReaderError(offset: 1, needed: 3, available: 2)) { try reader.readBytes(3) }
        #expect(throws: ByteReaderError(offset: 1, needed: -1, available: 2)) { try reader.readBytes(-1) }
        #expect(throws: ByteReaderError(offset: 1, needed: Int.max, available: 2)) { try reader.skip(Int.max) }
        #expect(try reader.readBytes(2) == [0x02, 0x03])
        #expect(throws: ByteReaderError(offset: 3, needed: 1, available: 0)) { try reader.readUInt8() }
        #expect(reader.readRemaining() == [])
    }

    @Test func readsUUIDsOfEachWidth() throws {
        var reader = ByteReader([0x0F, 0x18, 0x78, 0x56, 0x34, 0x12])
        #expect(try reader.readUUID(width: 2) == BluetoothUUID(0x180F))
        #expect(try reader.readUUID(width: 3) == nil)
        #expect(reader.offset == 2)
        #expect(try reader.readUUID(width: 4) == BluetoothUUID(uuid32: 0x1234_5678))
        #expect(throws: ByteReaderError(offset: 6, needed: 16, available: 0)) { try reader.readUUID(width: 16) }
    }

    @Test func readerStartsAtZeroOverSlices() throws {
        let bytes: [UInt8] = [9, 9, 0xAA, 0xBB]
        var reader = ByteReader(bytes[2...])
        #expect(reader.offset == 0 && reader.remaining == 2)
        #expect(try reader.readUInt16() == 0xBBAA)
    }

    @Test func writerWritesLittleEndian() throws {
        var writer = ByteWriter()
        writer.write(UInt8(0x01))
        writer.write(Int8(-59))
        writer.write(UInt16(0x1234))
        writer.writeUInt24(0xAB12_3456)
        writer.write(UInt32(0x1234_5678))
        writer.write(UInt64(0x0102_0304_0506_0708))
        writer.writeBigEndian(UInt16(0x1234))
        writer.writeBigEndian(UInt32(0x1234_5678))
        writer.writeBigEndian(UInt64(1))
        writer.write(BluetoothUUID(0x180F))
        writer.write(contentsOf: [0xEE])
        #expect(writer.bytes == [0x01, 0xC5, 0x34, 0x12, 0x56, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12,
                                 8, 7, 6, 5, 4, 3, 2, 1, 0x12, 0x34, 0x12, 0x34, 0x56, 0x78,
                                 0, 0, 0, 0, 0, 0, 0, 1, 0x0F, 0x18, 0xEE])
    }

    @Test func hexRoundTripAndRejects() {
        #expect(Hex.bytes("0x0a FF:10-20") == [0x0A, 0xFF, 0x10, 0x20])
        #expect(Hex.string([0x0A, 0xFF], separator: " ") == "0a ff")
        #expect(Hex.string([0x00, 0x5A, 0xC3]) == "005ac3")
        #expect(Hex.string([0x01], separator: ":") == "01")
        #expect(Hex.string([UInt8]()) == "")
        #expect(Hex.string([0xDE, 0xAD, 0xBE, 0xEF][1...], separator: " : ") == "ad : be : ef")
        // A sequence without contiguous storage goes the gathered way, to the same text.
        #expect(Hex.string((0xFD...0xFF).lazy.map { UInt8($0) }, separator: "-") == "fd-fe-ff")
        #expect(Hex.string(stride(from: UInt8(0), to: 0, by: 1)) == "")
        #expect(Hex.string(Array(0...255).map(UInt8.init)).count == 512)
        #expect(Hex.string(Array(0...255).map(UInt8.init)).hasSuffix("fdfeff"))
        #expect(Hex.bytes("abc") == nil)
        #expect(Hex.bytes("+a") == nil)
        #expect(Hex.bytes("zz") == nil)
        #expect(Hex.bytes("") == [])
    }

    @Test func upperCaseHexIsZeroPaddedToTheDigitsAsked() {
        #expect(Hex.uppercase(UInt8(0x0A), digits: 2) == "0A")
        #expect(Hex.uppercase(UInt16(0x2A), digits: 4) == "002A")
        #expect(Hex.uppercase(UInt32(0x1234_5678), digits: 4) == "12345678")
        #expect(Hex.uppercase(UInt16(0), digits: 0) == "0")
        #expect(Hex.uppercase(UInt64.max, digits: 4) == "FFFFFFFFFFFFFFFF")
        #expect(Hex.uppercase(UInt8(0xAB), digits: 20) == "000000000000000000AB", "padding past 16 places")
        #expect(Hex.uppercase(-0x2A, digits: 4) == "0-2A", "a negative value keeps String(radix:)'s spelling")
    }

    /// The table-driven writer gives `String(radix:uppercase:)` padded with zeros, for 1,000 seeded values of every
    /// width and each number of places from 0 to 17.
    @Test func upperCaseHexIsStringRadixPadded() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for round in 0..<1_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = seed >> (seed % 64)
            let digits = round % 18
            let text = String(value, radix: 16, uppercase: true)
            #expect(Hex.uppercase(value, digits: digits) == String(repeating: "0", count: max(0, digits - text.count)) + text)
        }
    }

    /// A writer given too little room writes nothing and says so.
    @Test func hexWritersGivenTooLittleRoomWriteNothing() {
        var room = [UInt8](repeating: 0x2E, count: 3)
        let upper = room.withUnsafeMutableBufferPointer { Hex.writeUppercase(0x1234, digits: 4, into: $0) }
        let lower = room.withUnsafeMutableBufferPointer { text in
            [UInt8](arrayLiteral: 0xAB, 0xCD).withUnsafeBufferPointer { bytes in
                ":".utf8.withContiguousStorageIfAvailable { Hex.writeLowercase(bytes, separator: $0, into: text) } ?? -1
            }
        }
        #expect(upper == 0 && lower == 0 && room == [0x2E, 0x2E, 0x2E])
    }
}
