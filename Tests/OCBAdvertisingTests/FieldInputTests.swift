// Cases A1-A5 of Fixtures/vectors/field-inputs.md: the AD bytes and the values expected there.
import OCBAdvertising
import OCBCore
import Testing

@Suite struct FieldInputTests {
    static func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }

    @Test func a1OddByteCountUUIDList() throws {
        let event = Self.hex("04 3e 28 02 01 00 00 66 55 44 33 22 11 1c 02 01 06 03 03 aa f1 14 02 20 32 2d 86 21 27 00 bc fe d5 ff 38 3a 59 21 89 01 00 00 c5")
        // H4 indicator, event code, length, subevent, num reports, event type, address type, address (6), data length.
        let length = Int(event[13])
        let ad = Array(event[14..<(14 + length)])
        #expect(Int8(bitPattern: event[14 + length]) == -59)
        let data = AdvertisingData(bytes: ad)
        #expect(data.flags == AdvertisingFlags(rawValue: 0x06))
        #expect(data.structures[1] == .completeServiceUUIDs16([BluetoothUUID(0xF1AA)]))
        let expected: [UInt16] = [0x3220, 0x862D, 0x2721, 0xBC00, 0xD5FE, 0x38FF, 0x593A, 0x8921, 0x0001]
        #expect(data.structures[2] == .incompleteServiceUUIDs16(expected.map { BluetoothUUID($0) }))
        #expect(data.structures.count == 3)
        #expect(data.diagnostics == [AdvertisingDataError(kind: .malformedRemainder(type: 0x02, count: 1), offset: 27)])
        #expect(throws: AdvertisingDataError(kind: .malformedRemainder(type: 0x02, count: 1), offset: 27)) {
            try AdvertisingData(bytes: ad, mode: .strict)
        }
    }

    @Test func a1VariantThreeByteList() {
        let data = AdvertisingData(bytes: Self.hex("04 03 02 01 00"))
        #expect(data.structures == [.completeServiceUUIDs16([BluetoothUUID(0x0102)])])
        #expect(data.diagnostics == [AdvertisingDataError(kind: .malformedRemainder(type: 0x03, count: 1), offset: 4)])
    }

    @Test func a2LastStructureRunsPastTheEnd() {
        let bytes = Self.hex("1a ff c3 03 5f ef 35 42 b3 49 0f bb 00 26 01 01 6d 2a b2 63 d8 2e 02 0a 00 00 f2 02 01 c6 f8")
        #expect(bytes.count == 31)
        let data = AdvertisingData(bytes: bytes)
        #expect(data.manufacturerData == [ManufacturerData(companyID: 0x03C3, payload: Array(bytes[4..<27]))])
        #expect(data.manufacturerData.first?.payload.count == 23)
        #expect(data.flags?.rawValue == 0xC6)
        #expect(data.structures.count == 2)
        #expect(data.diagnostics == [AdvertisingDataError(kind: .truncatedStructure(length: 0xF8, available: 0), offset: 30)])
        #expect(throws: AdvertisingDataError(kind: .truncatedStructure(length: 0xF8, available: 0), offset: 30)) {
            try AdvertisingData(bytes: bytes, mode: .strict)
        }

        let short = AdvertisingData(bytes: Self.hex("02 01 06 20 ff aa bb"))
        #expect(short.flags == [.leGeneralDiscoverable, .brEDRNotSupported])
        #expect(short.structures.count == 1)
        #expect(short.diagnostics.map(\.offset) == [3])
    }

    @Test func a3ManufacturerDataWithOnlyACompanyID() {
        let data = AdvertisingData(bytes: Self.hex("02 01 06 03 ff 90 05 08 16 d2 fc 40 00 14 01 64"))
        #expect(data.manufacturerData == [ManufacturerData(companyID: 0x0590, payload: [])])
        #expect(data.serviceData == [BluetoothUUID(0xFCD2): [0x40, 0x00, 0x14, 0x01, 0x64]])
        #expect(data.diagnostics.isEmpty)

        for payload in ["02 ff 4c", "01 ff"] {
            let bytes = Self.hex(payload)
            let odd = AdvertisingData(bytes: bytes)
            #expect(odd.manufacturerData.isEmpty)
            #expect(odd.structures == [.raw(type: 0xFF, data: Array(bytes.dropFirst(2)))])
            #expect(odd.diagnostics == [AdvertisingDataError(kind: .missingCompanyID(length: bytes.count - 2), offset: 0)])
        }
    }

    @Test func a4SeveralUUIDsAndThirtyTwoBitLists() throws {
        let data = AdvertisingData(bytes: Self.hex("02 01 06 05 03 e0 ff e7 fe 0b ff 65 0b 88 a0 11 22 33 44 55 66"))
        #expect(data.serviceUUIDs == [BluetoothUUID(0xFFE0), BluetoothUUID(0xFEE7)])
        #expect(data.manufacturerData == [ManufacturerData(companyID: 0x0B65, payload: Self.hex("88 a0 11 22 33 44 55 66"))])

        let list32 = AdvertisingData(bytes: Self.hex("09 05 78 56 34 12 0f 1e 2d 3c"))
        #expect(list32.structures == [.completeServiceUUIDs32([BluetoothUUID(uuid32: 0x1234_5678), BluetoothUUID(uuid32: 0x3C2D_1E0F)])])
        #expect(list32.serviceUUIDs.map(\.uuidString128) == ["12345678-0000-1000-8000-00805F9B34FB",
                                                              "3C2D1E0F-0000-1000-8000-00805F9B34FB"])
        #expect(list32.serviceUUIDs.map(\.description) == ["12345678", "3C2D1E0F"])
    }

    @Test func a5MergeOfAdvertisingDataAndScanResponse() {
        let advertising = Self.hex("04 3e 13 02 01 00 00 66 55 44 33 22 11 07 02 01 06 03 03 0f 18 c4")
        let response = Self.hex("04 3e 16 02 01 04 00 66 55 44 33 22 11 0a 05 09 54 45 53 54 03 03 0a 18 c3")
        let adBytes = Array(advertising[14..<(14 + Int(advertising[13]))])
        let srBytes = Array(response[14..<(14 + Int(response[13]))])
        let merged = MergedAdvertisement(advertisingData: AdvertisingData(bytes: adBytes), scanResponse: AdvertisingData(bytes: srBytes))
        #expect(merged.localName == "TEST")
        #expect(merged.serviceUUIDs == [BluetoothUUID(0x180F), BluetoothUUID(0x180A)])
        #expect(merged.flags?.rawValue == 0x06)
        #expect(merged.advertisingData.bytes == Self.hex("02 01 06 03 03 0f 18"))
        #expect(merged.scanResponse?.bytes == Self.hex("05 09 54 45 53 54 03 03 0a 18"))
    }

    @Test func mergeRulesForTypesInBoth() {
        let advertising = AdvertisingData(structures: [
            .shortenedLocalName(AdvertisedName("TE")), .txPowerLevel(-4),
            .serviceData16(ServiceData(uuid: BluetoothUUID(0xFEAA), data: [1])),
            .manufacturerSpecificData(ManufacturerData(companyID: 1, payload: [])),
        ])
        let response = AdvertisingData(structures: [
            .shortenedLocalName(AdvertisedName("TES")), .txPowerLevel(8),
            .serviceData16(ServiceData(uuid: BluetoothUUID(0xFEAA), data: [2])),
            .serviceData16(ServiceData(uuid: BluetoothUUID(0xFCD2), data: [3])),
            .manufacturerSpecificData(ManufacturerData(companyID: 2, payload: [])),
        ])
        let merged = MergedAdvertisement(advertisingData: advertising, scanResponse: response)
        #expect(merged.localName == "TES")
        #expect(merged.txPowerLevel == -4)
        #expect(merged.serviceData == [BluetoothUUID(0xFEAA): [1], BluetoothUUID(0xFCD2): [3]])
        #expect(merged.manufacturerData.map(\.companyID) == [1, 2])
        let complete = MergedAdvertisement(advertisingData: AdvertisingData(structures: [.completeLocalName(AdvertisedName("Full"))]),
                                           scanResponse: response)
        #expect(complete.localName == "Full")
        #expect(MergedAdvertisement(advertisingData: advertising).localName == "TE")
    }

    @Test func paddingEndsTheDataQuietly() {
        let data = AdvertisingData(bytes: Self.hex("02 01 06 00 00 00 05 ff ff"))
        #expect(data.structures == [.flags(AdvertisingFlags(rawValue: 0x06))])
        #expect(data.diagnostics.isEmpty)
        #expect(AdvertisingData(bytes: []).structures.isEmpty)
    }
}
