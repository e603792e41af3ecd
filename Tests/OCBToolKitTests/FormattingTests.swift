// The formatting helpers: SIG value decoding, the GATT tree, advertiser lines, JSON text.

import OCBAdvertising
import OCBCore
import OCBGATT
import OCBToolKit
import Testing

@Suite("formatting")
struct FormattingTests {
    /// Handles and company identifiers: "0x" and four upper-case hex digits, whatever the value (Core v5.4 Vol 3 Part F
    /// §3.2.2: handles are 16 bits), and a company's assigned name (Assigned Numbers §7) before its code.
    @Test func handlesAreFourUppercaseHexDigits() {
        #expect(GATTText.handle(UInt16(0x000E)) == "0x000E")
        #expect(GATTText.handle(UInt16(0)) == "0x0000")
        #expect(GATTText.handle(UInt16(0xABCD)) == "0xABCD")
        #expect(GATTText.handle(UInt16.max) == "0xFFFF")
        #expect(GATTText.company(0x004C) == "Apple, Inc. (0x004C)")
        #expect(GATTText.company(0xF000) == "company 0xF000", "unassigned")
    }

    @Test("Heart Rate Measurement: 8-bit bpm, contact, RR intervals in 1/1024 s")
    func heartRate8() {
        // Flags 0x16: UINT8 value, sensor contact supported and detected (bits 1-2 = 0b11), RR present (bit 4).
        // 0x48 = 72 bpm; RR 0x0334 = 820/1024 s = 0.80078 s, 0x039A = 922/1024 s = 0.90039 s.
        let value: [UInt8] = [0x16, 0x48, 0x34, 0x03, 0x9A, 0x03]
        let measurement = HeartRateMeasurement(bytes: value)
        #expect(measurement?.beatsPerMinute == 72)
        #expect(measurement?.sensorContact == .detected)
        #expect(measurement?.rrIntervals == [820, 922])
        #expect(GATTValueDecoder.describe(value, uuid: BluetoothUUID(0x2A37)) == "72 bpm, contact detected, RR 0.801 s 0.900 s")
    }

    @Test("Heart Rate Measurement: 16-bit bpm with energy expended; truncated values are not decoded")
    func heartRate16() {
        // Flags 0x09: UINT16 value (bit 0), energy expended present (bit 3); 0x012C = 300 bpm, 0x000A = 10 kJ.
        #expect(GATTValueDecoder.describe([0x09, 0x2C, 0x01, 0x0A, 0x00], uuid: BluetoothUUID(0x2A37)) == "300 bpm, energy 10 kJ")
        // Contact supported but not detected (bits 1-2 = 0b10).
        #expect(HeartRateMeasurement(bytes: [0x04, 0x50])?.sensorContact == .notDetected)
        #expect(HeartRateMeasurement(bytes: [0x09, 0x2C, 0x01, 0x0A]) == nil)
        #expect(HeartRateMeasurement(bytes: [0x01, 0x2C]) == nil)
        #expect(HeartRateMeasurement(bytes: []) == nil)
    }

    @Test("battery level, strings, CCCD, appearance, presentation format")
    func knownValues() {
        #expect(GATTValueDecoder.describe([87], uuid: BluetoothUUID(0x2A19)) == "87 %")
        // Device Name padded with NULs (a fixed-size field): the padding is not part of the name; a NUL inside is kept
        // (and escaped where printed), and bytes that are not UTF-8 are no string.
        #expect(GATTValueDecoder.describe([0x50, 0x69, 0x00, 0x00], uuid: BluetoothUUID(0x2A00)) == "\"Pi\"")
        #expect(GATTValueDecoder.describe([0x50, 0x00, 0x69], uuid: BluetoothUUID(0x2A00)) == "\"P\u{00}i\"")
        #expect(GATTValueDecoder.describe([0x00, 0x00], uuid: BluetoothUUID(0x2A00)) == "\"\"")
        #expect(GATTValueDecoder.describe([0xFF, 0x00], uuid: BluetoothUUID(0x2A00)) == nil)
        #expect(GATTValueDecoder.describe([101], uuid: BluetoothUUID(0x2A19)) == "101 % (invalid: above 100)")
        #expect(GATTValueDecoder.describe([87, 0], uuid: BluetoothUUID(0x2A19)) == nil)
        #expect(GATTValueDecoder.describe(Array("Polar H10".utf8), uuid: BluetoothUUID(0x2A00)) == "\"Polar H10\"")
        #expect(GATTValueDecoder.describe([0xFF, 0xFE], uuid: BluetoothUUID(0x2A29)) == nil)
        #expect(GATTValueDecoder.describe([0x01, 0x00], uuid: BluetoothUUID(0x2902)) == "notifications on, indications off")
        #expect(GATTValueDecoder.describe([0x02, 0x00], uuid: BluetoothUUID(0x2902)) == "notifications off, indications on")
        // 0x0341 = category 13 (Heart Rate Sensor), subcategory 1 (Heart Rate Belt), Assigned Numbers §2.6.
        #expect(GATTValueDecoder.describe([0x41, 0x03], uuid: BluetoothUUID(0x2A01)) == "Heart Rate Sensor: Heart Rate Belt (0x0341)")
        #expect(GATTValueDecoder.text([0x01, 0xFF], uuid: BluetoothUUID(0xFFF1)) == "01 ff")
        // 0x2904: format 0x04 uint8, exponent 0, unit 0x27AD percentage, name space 0x01, description 0x0000.
        #expect(GATTValueDecoder.describe([0x04, 0x00, 0xAD, 0x27, 0x01, 0x00, 0x00], uuid: BluetoothUUID(0x2904))
                == "format uint8, exponent 0, unit percentage (0x27AD)")
    }

    @Test("presentation-format decoding: sint16 × 10^-2 °C, SFLOAT, utf8s, too short")
    func presentationFormat() {
        let celsius = PresentationFormat(format: 0x0E, exponent: -2, unit: 0x272F)
        // 0x0866 = 2150 → 21.50.
        #expect(celsius.decode([0x66, 0x08]) == "21.5 Celsius temperature (degree Celsius)")
        #expect(celsius.decode([0x66]) == nil)
        #expect(PresentationFormat(format: 0x0E).decode([0xFE, 0xFF]) == "-2")
        // SFLOAT 0xF07D: exponent -1, mantissa 125 → 12.5 (IEEE 11073-20601 §8.3).
        #expect(PresentationFormat(format: 0x16).decode([0x7D, 0xF0]) == "12.5")
        #expect(PresentationFormat(format: 0x16).decode([0xFF, 0x07]) == nil)
        #expect(PresentationFormat(format: 0x19).decode(Array("ok".utf8)) == "\"ok\"")
        #expect(PresentationFormat(format: 0x1B).decode([1]) == nil)
        // A characteristic with a 0x2904 descriptor is decoded through it.
        let characteristic = GATTTreeCharacteristic(
            GATTCharacteristic(declarationHandle: 0x20, valueHandle: 0x21, endHandle: 0x22, properties: [.read],
                               uuid: BluetoothUUID("6E400003-B5A3-F393-E0A9-E50E24DCCA9E") ?? BluetoothUUID(0)),
            value: [0x66, 0x08],
            descriptors: [GATTTreeDescriptor(GATTDescriptor(handle: 0x22, uuid: BluetoothUUID(0x2904)), value: [0x0E, 0xFE, 0x2F, 0x27, 0x01, 0x00, 0x00])])
        #expect(GATTTreePrinter.characteristicLine(characteristic).hasSuffix("[read] = 21.5 Celsius temperature (degree Celsius)"))
    }

    @Test("the GATT tree: services, includes, characteristics with properties and values, descriptors")
    func tree() {
        let services = [
            GATTTreeService(GATTService(uuid: BluetoothUUID(0x1800), isPrimary: true, startHandle: 0x0001, endHandle: 0x0005), characteristics: [
                GATTTreeCharacteristic(GATTCharacteristic(declarationHandle: 0x0002, valueHandle: 0x0003, endHandle: 0x0005,
                                                          properties: [.read], uuid: BluetoothUUID(0x2A00)), value: Array("H10".utf8)),
            ]),
            GATTTreeService(GATTService(uuid: BluetoothUUID(0x180D), isPrimary: true, startHandle: 0x0010, endHandle: 0x0016),
                            includes: [GATTTreeInclude(GATTIncludedService(declarationHandle: 0x0011, uuid: BluetoothUUID(0x180F),
                                                                           startHandle: 0x0020, endHandle: 0x0023))],
                            characteristics: [
                GATTTreeCharacteristic(GATTCharacteristic(declarationHandle: 0x0012, valueHandle: 0x0013, endHandle: 0x0014,
                                                          properties: [.notify], uuid: BluetoothUUID(0x2A37)),
                                       value: [0x00, 0x3C],
                                       descriptors: [GATTTreeDescriptor(GATTDescriptor(handle: 0x0014, uuid: BluetoothUUID(0x2902)), value: [0x01, 0x00])]),
            ]),
        ]
        #expect(GATTTreePrinter.lines(services) == [
            "service 0x0001-0x0005 1800 Generic Access (primary)",
            "  characteristic 0x0002 value 0x0003 2A00 Device Name [read] = \"H10\"",
            "service 0x0010-0x0016 180D Heart Rate (primary)",
            "  include 0x0011 → 0x0020-0x0023 180F Battery Service",
            "  characteristic 0x0012 value 0x0013 2A37 Heart Rate Measurement [notify] = 60 bpm",
            "    descriptor 0x0014 2902 Client Characteristic Configuration = notifications on, indications off",
        ])
        let collector = LineCollector()
        GATTTreePrinter.emit(services, to: collector.sink(.jsonLines), extra: ["peer": "C4:7C:8D:6A:3F:21"])
        #expect(collector.lines.count == 4)
        #expect(collector.lines[3].hasPrefix(#"{"decoded":"60 bpm","descriptors":[{"decoded":"notifications on, indications off","handle":20,"#))
    }

    @Test("advertiser line: flags, name, iBeacon with the company name, from the lock capture's advertising data")
    func advertiserIBeacon() throws {
        // ADV_IND payload of frame 352 of lock-legacy-adv-discovery-indications.btsnoop (Fixtures/expected/advertising)
        // and its SCAN_RSP (frame 353): 128-bit service 00001803-494C-…, Complete Local Name "RDL51822".
        let adv = AdvertisingData(bytes: Hex.bytes("0201061aff4c000215fda50693a4e24fb1afcfc6eb0764782500050006b0") ?? [])
        let scan = AdvertisingData(bytes: Hex.bytes("11070000484345544349474f4c4903180000090952444c3531383232") ?? [])
        let address = try #require(BluetoothAddress("DC:FC:77:87:35:FF"))
        let snapshot = AdvertiserSnapshot(address: address, addressType: .random, rssi: -73, isConnectable: true,
                                          advertisement: MergedAdvertisement(advertisingData: adv, scanResponse: scan))
        #expect(AdvertiserFormatter.line(snapshot) == "DC:FC:77:87:35:FF (random) -73 dBm \"RDL51822\" connectable; "
                + "flags 0x06 (LE General Discoverable, BR/EDR Not Supported); services 00001803-494C-4F47-4943-544543480000; "
                + "Apple, Inc. (0x004C) iBeacon FDA50693-A4E2-4FB1-AFCF-C6EB07647825 major 5 minor 6 power -80 dBm")
        let json = AdvertiserFormatter.json(snapshot).text
        #expect(json.contains(#""iBeacon":{"major":5,"measuredPower":-80,"minor":6,"uuid":"FDA50693-A4E2-4FB1-AFCF-C6EB07647825"}"#))
        #expect(json.hasPrefix(#"{"address":"DC:FC:77:87:35:FF","addressType":"random","appearance":null,"connectable":true,"#))
        #expect(!json.contains("truncated"))
        // The same advertisement as the part of a chain the controller could not receive whole.
        var cut = snapshot
        cut.isTruncated = true
        #expect(AdvertiserFormatter.line(cut).hasPrefix("DC:FC:77:87:35:FF (random) -73 dBm \"RDL51822\" connectable "
                                                        + "(truncated: the controller received only part of it); flags 0x06"))
        #expect(AdvertiserFormatter.json(cut).text.contains(#""truncated":true"#))
    }

    @Test("advertiser line: Eddystone-URL, service names, TX power")
    func advertiserEddystone() {
        // 03 03 AAFE (16-bit UUID list: FEAA), 0E 16 AAFE 10 EB 03 "example" 07 (URL frame, tx -21 dBm, "https://", ".com"),
        // 02 0A 04 (TX power 4 dBm).
        let data = AdvertisingData(bytes: Hex.bytes("0303aafe0e16aafe10eb036578616d706c6507020a04") ?? [])
        let snapshot = AdvertiserSnapshot(address: BluetoothAddress.zero, addressType: .public, rssi: nil, isConnectable: false,
                                          advertisement: MergedAdvertisement(advertisingData: data))
        let items = AdvertiserFormatter.items(snapshot)
        #expect(items.contains("Eddystone-URL https://example.com tx -21 dBm"))
        #expect(items.contains("tx power 4 dBm"))
        #expect(items.first?.hasPrefix("services FEAA") == true)
    }

    /// Every kind of decoded item as fixed text (the format these lines had before they were written piece by piece:
    /// "UUID name", "company 0x…" for an unassigned identifier, "(empty)" for no bytes), in the text line, `items`
    /// and the JSON line alike.
    @Test("advertiser items of every kind: fixed text in the line, the items and the JSON line")
    func everyKindOfItem() throws {
        let custom = try #require(BluetoothUUID("0CB10001-7E57-4C0D-A9E5-0123456789AB"))
        let snapshot = AdvertiserSnapshot(
            address: "C0:00:00:00:00:01", addressType: "random", rssi: -60, name: "Q\"x", isConnectable: true, flags: 0x06,
            serviceUUIDs: [BluetoothUUID(0x180D), BluetoothUUID(0x180F), custom], solicitedServiceUUIDs: [BluetoothUUID(0x1812)],
            serviceData: [ServiceData(uuid: BluetoothUUID(0x180F), data: [0x64]), ServiceData(uuid: BluetoothUUID(0xFFF0), data: [])],
            manufacturerData: [ManufacturerData(companyID: 0xF000, payload: [0x01, 0x02]), ManufacturerData(companyID: 0x004C, payload: [])],
            txPowerLevel: -8, appearance: 0x0341)
        let items = [
            "flags 0x06 (LE General Discoverable, BR/EDR Not Supported)",
            "services 180D Heart Rate, 180F Battery Service, 0CB10001-7E57-4C0D-A9E5-0123456789AB",
            "solicits 1812 Human Interface Device",
            "service data 180F Battery Service: 64",
            "service data FFF0: (empty)",
            "company 0xF000: 01 02",
            "Apple, Inc. (0x004C): (empty)",
            "tx power -8 dBm",
            "appearance Heart Rate Sensor: Heart Rate Belt",
        ]
        #expect(AdvertiserFormatter.items(snapshot) == items)
        #expect(AdvertiserFormatter.line(snapshot) == "C0:00:00:00:00:01 (random) -60 dBm \"Q\"x\" connectable; " + items.joined(separator: "; "))
        let line = AdvertiserFormatter.jsonLine(snapshot, time: "T")
        #expect(line.contains(#""decoded":["flags 0x06 (LE General Discoverable, BR/EDR Not Supported)","services 180D Heart Rate, "#))
        #expect(line.contains(#""manufacturerData":[{"company":61440,"companyName":null,"data":"0102"},{"company":76,"companyName":"Apple, Inc.","data":""}]"#))
        #expect(line.contains(#""name":"Q\"x","rssi":-60,"serviceData":[{"data":"64","uuid":"180F"},{"data":"","uuid":"FFF0"}]"#))
        var unnamed = snapshot
        unnamed.appearance = 0xFFC0
        #expect(AdvertiserFormatter.items(unnamed).last == "appearance 0xFFC0")
    }

    @Test("JSON text: sorted keys, escapes, integers exact")
    func json() {
        let value: JSONValue = ["b": 1, "a": ["x\n\"y\u{01}", .null, true], "c": .double(.nan)]
        #expect(value.text == #"{"a":["x\n\"y\u0001",null,true],"b":1,"c":null}"#)
        #expect(JSONValue.integer(UInt64.max).text == String(Int64.max))
    }
}
