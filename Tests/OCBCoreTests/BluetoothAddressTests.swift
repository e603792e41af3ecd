// Tests of BluetoothAddress and AddressType: text form, wire order and random sub-types (Core v5.4 Vol 6 Part B §1.3).
import OCBCore
import Testing

@Suite struct BluetoothAddressTests {
    @Test func parsesEitherCaseAndPrintsUpperCase() throws {
        let address = try #require(BluetoothAddress("aa:Bb:cC:dd:EE:0f"))
        #expect(address.bytes == [0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0x0F])
        #expect(address.description == "AA:BB:CC:DD:EE:0F")
        #expect(BluetoothAddress("11-22-33-44-55-66")?.description == "11:22:33:44:55:66")
    }

    @Test(arguments: ["", "11:22:33:44:55", "11:22:33:44:55:66:77", "11:22:33:44:55:6", "11:22:33:44:55:6G",
                      "+1:22:33:44:55:66", "-1:22:33:44:55:66", "11:22:33-44:55:66", "112:2:33:44:55:66",
                      "11:22:33:44:55:66 ", "11:22:33:44:55:6\u{E9}", "11;22;33;44;55;66", "11-22-33-44-55:66"])
    func rejectsMalformedText(_ text: String) {
        #expect(BluetoothAddress(text) == nil)
    }

    @Test func wireOrderIsLittleEndian() throws {
        // field-inputs.md: 11:22:33:44:55:66 is `66 55 44 33 22 11` on the wire.
        let address = try #require(BluetoothAddress(littleEndianBytes: [0x66, 0x55, 0x44, 0x33, 0x22, 0x11]))
        #expect(address.description == "11:22:33:44:55:66")
        #expect(address.littleEndianBytes == [0x66, 0x55, 0x44, 0x33, 0x22, 0x11])
        var writer = ByteWriter()
        writer.write(address)
        #expect(writer.bytes == [0x66, 0x55, 0x44, 0x33, 0x22, 0x11])
        var reader = ByteReader([0x66, 0x55, 0x44, 0x33, 0x22, 0x11])
        #expect(try reader.readAddress() == address)
        #expect(BluetoothAddress(littleEndianBytes: [1, 2, 3]) == nil)
        #expect(BluetoothAddress(bytes: [1, 2, 3, 4, 5, 6, 7]) == nil)
    }

    @Test func randomSubtypeFromTopTwoBits() throws {
        #expect(try #require(BluetoothAddress("C0:00:00:00:00:01")).randomSubtype == .static)
        #expect(try #require(BluetoothAddress("FF:FF:FF:FF:FF:FF")).randomSubtype == .static)
        #expect(try #require(BluetoothAddress("40:00:00:00:00:01")).randomSubtype == .resolvablePrivate)
        #expect(try #require(BluetoothAddress("7F:00:00:00:00:01")).randomSubtype == .resolvablePrivate)
        #expect(try #require(BluetoothAddress("3F:00:00:00:00:01")).randomSubtype == .nonResolvablePrivate)
        #expect(try #require(BluetoothAddress("80:00:00:00:00:01")).randomSubtype == .reserved)
    }

    @Test func addressTypesAsHCIReportsThem() {
        #expect(AddressType(rawValue: 0x00) == .public)
        #expect(AddressType(rawValue: 0x01) == .random)
        #expect(AddressType(rawValue: 0x02) == .publicIdentity)
        #expect(AddressType(rawValue: 0x03) == .randomIdentity)
        #expect(AddressType(rawValue: 0xFF) == .other(0xFF))
        for raw: UInt8 in [0, 1, 2, 3, 0x10, 0xFF] { #expect(AddressType(rawValue: raw).rawValue == raw) }
        #expect(AddressType.random.isRandom && AddressType.randomIdentity.isRandom)
        #expect(!AddressType.public.isRandom && !AddressType.publicIdentity.isRandom)
    }

    @Test func ordersAndHashesByValue() throws {
        let low = try #require(BluetoothAddress("00:00:00:00:00:01"))
        let high = try #require(BluetoothAddress("00:00:00:00:01:00"))
        #expect(low < high)
        #expect(Set([low, try #require(BluetoothAddress("00:00:00:00:00:01"))]).count == 1)
    }
}

@Suite struct BluetoothAddressValueTests {
    @Test func theNumberIsThePrintedOrderAndOrdersAddresses() throws {
        let address = try #require(BluetoothAddress("AA:BB:CC:DD:EE:FF"))
        #expect(address.value == 0xAABB_CCDD_EEFF)
        #expect(address.bytes == [0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF])
        #expect(address.littleEndianBytes == [0xFF, 0xEE, 0xDD, 0xCC, 0xBB, 0xAA])
        #expect(BluetoothAddress(value: 0xAABB_CCDD_EEFF) == address)
        #expect(BluetoothAddress(value: 0xFFFF_AABB_CCDD_EEFF) == address, "bits above 48 are ignored")
        // The wire order from a slice of a larger packet (an HCI event's Address field at offset 3).
        let packet: [UInt8] = [0x02, 0x01, 0x00, 0xFF, 0xEE, 0xDD, 0xCC, 0xBB, 0xAA, 0x1E]
        #expect(BluetoothAddress(littleEndianBytes: packet[3..<9]) == address)
        #expect(BluetoothAddress(littleEndianBytes: packet[3..<8]) == nil)
        #expect(try #require(BluetoothAddress("00:00:00:00:00:01")) < address)
        #expect(try #require(BluetoothAddress("C1:00:00:00:00:00")).randomSubtype == .static)
    }
}
