// Tests of BluetoothUUID: widths, Base UUID expansion, text and wire forms (Core v5.4 Vol 3 Part B §2.5.1).
import OCBCore
import Testing

@Suite struct BluetoothUUIDTests {
    @Test func sixteenBitEqualsItsBaseUUIDExpansion() throws {
        let short = BluetoothUUID(0x180F)
        let full = try #require(BluetoothUUID("0000180F-0000-1000-8000-00805F9B34FB"))
        #expect(short == full)
        #expect(short.hashValue == full.hashValue)
        #expect(Set([short, full, BluetoothUUID(uuid32: 0x180F)]).count == 1)
        #expect(short.uuidString128 == "0000180F-0000-1000-8000-00805F9B34FB")
    }

    @Test func parsesEveryTextForm() throws {
        #expect(BluetoothUUID("180F") == BluetoothUUID(0x180F))
        #expect(BluetoothUUID("180f") == BluetoothUUID(0x180F))
        #expect(BluetoothUUID("0x180F") == BluetoothUUID(0x180F))
        #expect(BluetoothUUID("0000180F") == BluetoothUUID(0x180F))
        #expect(BluetoothUUID("12345678") == BluetoothUUID(uuid32: 0x1234_5678))
        #expect(BluetoothUUID("0000180f-0000-1000-8000-00805f9b34fb") == BluetoothUUID(0x180F))
        #expect(BluetoothUUID("0000180F00001000800000805F9B34FB") == BluetoothUUID(0x180F))
        let vendor = try #require(BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E"))
        #expect(vendor.high == 0x6E40_0001_B5A3_F393 && vendor.low == 0xE0A9_E50E_24DC_CA9E)
    }

    @Test(arguments: ["", "18F", "180G", "+80F", "-80F", "18 0F", "0000180F-0000-1000-8000-00805F9B34F",
                      "0000180F0-000-1000-8000-00805F9B34FB", "0000180F-0000-1000-8000-00805F9B34FBA"])
    func rejectsMalformedText(_ text: String) {
        #expect(BluetoothUUID(text) == nil)
    }

    @Test func printsShortestCanonicalForm() throws {
        #expect(BluetoothUUID(0x180F).description == "180F")
        #expect(BluetoothUUID(0x0001).description == "0001")
        #expect(BluetoothUUID(uuid32: 0x1234_5678).description == "12345678")
        #expect(try #require(BluetoothUUID("6e400001-b5a3-f393-e0a9-e50e24dcca9e")).description
            == "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
        // Not on the Base UUID: full form even though the top bits are small.
        #expect(try #require(BluetoothUUID("0000180F-0000-1000-8000-00805F9B34FC")).description
            == "0000180F-0000-1000-8000-00805F9B34FC")
    }

    @Test func wireFormIsLittleEndian() throws {
        #expect(BluetoothUUID(0x180F).littleEndianBytes == [0x0F, 0x18])
        #expect(BluetoothUUID(uuid32: 0x1234_5678).littleEndianBytes == [0x78, 0x56, 0x34, 0x12])
        #expect(BluetoothUUID(littleEndianBytes: [0x0F, 0x18]) == BluetoothUUID(0x180F))
        #expect(BluetoothUUID(littleEndianBytes: [0x78, 0x56, 0x34, 0x12]) == BluetoothUUID(uuid32: 0x1234_5678))
        // field-inputs.md G3: 0000BEEF-1234-4ABC-9DEF-0123456789AB on the wire.
        let wire: [UInt8] = [0xab, 0x89, 0x67, 0x45, 0x23, 0x01, 0xef, 0x9d, 0xbc, 0x4a, 0x34, 0x12, 0xef, 0xbe, 0x00, 0x00]
        let uuid = try #require(BluetoothUUID(littleEndianBytes: wire))
        #expect(uuid.description == "0000BEEF-1234-4ABC-9DEF-0123456789AB")
        #expect(uuid.littleEndianBytes == wire)
        #expect(BluetoothUUID(littleEndianBytes: [1, 2, 3]) == nil)
        #expect(BluetoothUUID(0x180F).littleEndianBytes(width: 16)?.count == 16)
        #expect(BluetoothUUID(0x180F).littleEndianBytes(width: 4) == [0x0F, 0x18, 0, 0])
        #expect(uuid.littleEndianBytes(width: 2) == nil)
        #expect(BluetoothUUID(uuid32: 0x1234_5678).littleEndianBytes(width: 2) == nil)
    }

    @Test func widthsAndShorthands() {
        #expect(BluetoothUUID(0x180F).shortestWidth == 2)
        #expect(BluetoothUUID(uuid32: 0x1234_5678).shortestWidth == 4)
        #expect(BluetoothUUID(uuid32: 0x1234_5678).uuid16 == nil)
        #expect(BluetoothUUID(0x180F).uuid32 == 0x180F)
        #expect(BluetoothUUID(high: 1, low: 2).shortestWidth == 16)
    }
}
