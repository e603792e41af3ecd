// Every AD type decodes from its spec layout into the expected typed value and encodes back to the same octets.
import OCBAdvertising
import OCBCore
import Testing

@Suite struct RoundTripTests {
    static let sixteen: [UInt8] = Array(0x10...0x1F)
    static let address = BluetoothAddress("11:22:33:44:55:66") ?? .zero

    /// (structure octets, expected value) per AD type, layouts from Core Specification Supplement Part A.
    static let cases: [([UInt8], AdvertisingStructure)] = [
        ([0x02, 0x01, 0x06], .flags([.leGeneralDiscoverable, .brEDRNotSupported])),
        ([0x03, 0x02, 0x0F, 0x18], .incompleteServiceUUIDs16([BluetoothUUID(0x180F)])),
        ([0x05, 0x03, 0x0F, 0x18, 0x0A, 0x18], .completeServiceUUIDs16([BluetoothUUID(0x180F), BluetoothUUID(0x180A)])),
        ([0x05, 0x04, 0x78, 0x56, 0x34, 0x12], .incompleteServiceUUIDs32([BluetoothUUID(uuid32: 0x1234_5678)])),
        ([0x01, 0x05], .completeServiceUUIDs32([])),
        ([0x11, 0x06] + Array(sixteen.reversed()), .incompleteServiceUUIDs128([BluetoothUUID(bigEndianBytes: sixteen) ?? BluetoothUUID(0)])),
        ([0x11, 0x07] + Array(sixteen.reversed()), .completeServiceUUIDs128([BluetoothUUID(bigEndianBytes: sixteen) ?? BluetoothUUID(0)])),
        ([0x03, 0x08, 0x54, 0x45], .shortenedLocalName(AdvertisedName("TE"))),
        ([0x05, 0x09, 0x54, 0x45, 0x53, 0x54], .completeLocalName(AdvertisedName("TEST"))),
        ([0x03, 0x09, 0xFF, 0x00], .completeLocalName(AdvertisedName(bytes: [0xFF, 0x00]))),
        ([0x02, 0x0A, 0xF4], .txPowerLevel(-12)),
        ([0x04, 0x0D, 0x0C, 0x02, 0x5A], .classOfDevice(0x5A_020C)),
        ([0x11, 0x0E] + sixteen, .simplePairingHashC192(sixteen)),
        ([0x11, 0x0F] + sixteen, .simplePairingRandomizerR192(sixteen)),
        ([0x11, 0x10] + sixteen, .securityManagerTKValue(sixteen)),
        ([0x02, 0x11, 0x09], .securityManagerOOBFlags(0x09)),
        ([0x05, 0x12, 0x06, 0x00, 0xFF, 0xFF], .peripheralConnectionIntervalRange(PeripheralConnectionIntervalRange(minimum: 6, maximum: 0xFFFF))),
        ([0x03, 0x14, 0x0D, 0x18], .serviceSolicitationUUIDs16([BluetoothUUID(0x180D)])),
        ([0x11, 0x15] + Array(sixteen.reversed()), .serviceSolicitationUUIDs128([BluetoothUUID(bigEndianBytes: sixteen) ?? BluetoothUUID(0)])),
        ([0x05, 0x16, 0xAA, 0xFE, 0x01, 0x02], .serviceData16(ServiceData(uuid: BluetoothUUID(0xFEAA), data: [1, 2]))),
        ([0x07, 0x17, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11], .publicTargetAddresses([address])),
        ([0x07, 0x18, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11], .randomTargetAddresses([address])),
        ([0x03, 0x19, 0x41, 0x03], .appearance(0x0341)),
        ([0x03, 0x1A, 0xA0, 0x00], .advertisingInterval(0x00A0)),
        ([0x08, 0x1B, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x01], .leBluetoothDeviceAddress(LEDeviceAddress(address: address, typeOctet: 1))),
        ([0x02, 0x1C, 0x02], .leRole(.bothPeripheralPreferred)),
        ([0x11, 0x1D] + sixteen, .simplePairingHashC256(sixteen)),
        ([0x11, 0x1E] + sixteen, .simplePairingRandomizerR256(sixteen)),
        ([0x05, 0x1F, 0x78, 0x56, 0x34, 0x12], .serviceSolicitationUUIDs32([BluetoothUUID(uuid32: 0x1234_5678)])),
        ([0x06, 0x20, 0x78, 0x56, 0x34, 0x12, 0xAB], .serviceData32(ServiceData(uuid: BluetoothUUID(uuid32: 0x1234_5678), data: [0xAB]))),
        ([0x11, 0x21] + Array(sixteen.reversed()), .serviceData128(ServiceData(uuid: BluetoothUUID(bigEndianBytes: sixteen) ?? BluetoothUUID(0), data: []))),
        ([0x06, 0x24, 0x17, 0x2F, 0x2F, 0x61, 0x62], .uri(AdvertisedURI(schemeCodePoint: 0x17, remainder: "//ab"))),
        ([0x03, 0x27, 0x01, 0x40], .leSupportedFeatures([0x01, 0x40])),
        ([0x08, 0x28, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0x34, 0x12], .channelMapUpdateIndication(ChannelMapUpdateIndication(channelMap: [0xFF, 0xFF, 0xFF, 0xFF, 0x1F], instant: 0x1234))),
        ([0x03, 0x29, 0x01, 0x02], .pbADV([1, 2])),
        ([0x03, 0x2A, 0x03, 0x04], .meshMessage([3, 4])),
        ([0x02, 0x2B, 0x00], .meshBeacon([0])),
        ([0x04, 0x2F, 0x00, 0x00, 0x01], .advertisingIntervalLong(LongAdvertisingInterval(value: 0x01_0000, octets: 3))),
        ([0x05, 0x2F, 0x00, 0x00, 0x00, 0x01], .advertisingIntervalLong(LongAdvertisingInterval(value: 0x0100_0000, octets: 4))),
        ([0x05, 0x30, 0x42, 0x63, 0x73, 0x74], .broadcastName(AdvertisedName("Bcst"))),
        ([0x04, 0x31, 0x01, 0x02, 0x03], .encryptedData([1, 2, 3])),
        ([0x04, 0xFF, 0x4C, 0x00, 0x10], .manufacturerSpecificData(ManufacturerData(companyID: 0x004C, payload: [0x10]))),
        ([0x03, 0x3D, 0x01, 0x02], .raw(type: 0x3D, data: [1, 2])),
        ([0x03, 0x0A, 0x01, 0x02], .raw(type: 0x0A, data: [1, 2])),
    ]

    @Test func everyADTypeRoundTrips() {
        for (bytes, expected) in Self.cases {
            let data = AdvertisingData(bytes: bytes)
            #expect(data.structures == [expected], "\(Hex.string(bytes, separator: " "))")
            #expect(expected.bytes == bytes, "\(expected)")
        }
        let all = Self.cases.flatMap(\.0)
        let data = AdvertisingData(bytes: all)
        #expect(data.structures == Self.cases.map(\.1))
        #expect(AdvertisingData(structures: data.structures).bytes == all)
    }

    @Test func typedViewsOfValues() {
        let range = PeripheralConnectionIntervalRange(minimum: 6, maximum: 0xFFFF)
        #expect(range.minimumInterval == .microseconds(7500))
        #expect(range.maximumInterval == nil)
        #expect(AdvertisedURI(schemeCodePoint: 0x17, remainder: "//ab").uri == "https://ab")
        #expect(AdvertisedURI(schemeCodePoint: 0x01, remainder: "x").uri == "x")
        #expect(AdvertisedURI("http://example.org").schemeCodePoint == 0x16)
        #expect(LongAdvertisingInterval(value: 1600, octets: 3).interval == .seconds(1))
        #expect(LEDeviceAddress(address: Self.address, typeOctet: 0).addressType == .public)
        #expect(AdvertisingStructure.txPowerLevel(0).adType == .txPowerLevel)
        #expect(ADType.completeLocalName.description == "Complete Local Name")
    }

    @Test func uriSchemeAboveU007FIsTwoOctets() {
        // U+0080 encodes as C2 80 in UTF-8 (CSS Part A §1.18).
        let data = AdvertisingData(bytes: [0x04, 0x24, 0xC2, 0x80, 0x78])
        #expect(data.structures == [.uri(AdvertisedURI(schemeCodePoint: 0x80, remainder: "x"))])
        #expect(data.structures.first?.bytes == [0x04, 0x24, 0xC2, 0x80, 0x78])
        #expect(AdvertisingData(bytes: [0x03, 0x24, 0xC2, 0x00]).diagnostics == [AdvertisingDataError(kind: .invalidURI, offset: 0)])
    }

    @Test func wrongLengthsAreKeptRawWithADiagnostic() throws {
        let data = AdvertisingData(bytes: [0x02, 0x19, 0x41, 0x02, 0x01, 0x06])
        #expect(data.structures == [.raw(type: 0x19, data: [0x41]), .flags(AdvertisingFlags(rawValue: 6))])
        #expect(data.diagnostics == [AdvertisingDataError(kind: .invalidLength(type: 0x19, length: 1), offset: 0)])
        #expect(throws: AdvertisingDataError(kind: .invalidLength(type: 0x19, length: 1), offset: 0)) {
            try AdvertisingData(bytes: [0x02, 0x19, 0x41, 0x02, 0x01, 0x06], mode: .strict)
        }
        let clean = try AdvertisingData(bytes: [0x02, 0x01, 0x06], mode: .strict)
        #expect(clean.flags?.rawValue == 6)
    }
}
