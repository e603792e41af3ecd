// The in-place view of advertising data: structures as (type, range), the one-pass fields, agreeing with the full parse.

import FuzzSupport
import OCBAdvertising
import OCBCore
import Testing

@Suite struct AdvertisingDataViewTests {
    @Test func structuresAreTypesAndRangesInOrder() {
        // Flags 0x06, Complete List of 16-bit UUIDs 0x180F, Complete Local Name "Pi" (Core Supplement v11 Part A §1).
        let view = AdvertisingDataView([0x02, 0x01, 0x06, 0x03, 0x03, 0x0F, 0x18, 0x03, 0x09, 0x50, 0x69])
        #expect(view.map(\.type) == [0x01, 0x03, 0x09])
        #expect(view.map(\.value) == [2..<3, 5..<7, 9..<11])
        let fields = view.fields()
        #expect(fields.flags == 0x06)
        #expect(fields.serviceUUIDCount == 1)
        #expect(fields.localName.map(view.string) == "Pi" && fields.isLocalNameComplete)
        #expect(view.serviceUUIDs == [BluetoothUUID(0x180F)])
        // 16-bit Service Solicitation UUIDs 0x1812 (0x14) and 128-bit ones (0x15), one each: two solicited.
        let solicitations = AdvertisingDataView([0x03, 0x14, 0x12, 0x18, 0x11, 0x15] + (0..<16).map { UInt8($0) })
        let solicited = solicitations.fields()
        #expect(solicited.solicitedServiceUUIDCount == 2 && solicited.serviceUUIDCount == 0)
        // 128-bit UUIDs are little-endian on the wire (Vol 3 Part B §2.5.1): octet 0 is the last of the text form.
        #expect(solicitations.solicitedServiceUUIDs == [BluetoothUUID(0x1812), BluetoothUUID("0F0E0D0C-0B0A-0908-0706-050403020100")!])
        // Service Data 16-bit 0x180A (01 02), again 0x180A (03: the first wins), 32-bit 0x0000FEED (empty data),
        // Manufacturer Specific Data company 0x0059 (Nordic) with AA (Core Supplement v11 Part A §1.4, §1.11).
        let services = AdvertisingDataView([0x05, 0x16, 0x0A, 0x18, 0x01, 0x02, 0x04, 0x16, 0x0A, 0x18, 0x03,
                                            0x05, 0x20, 0xED, 0xFE, 0x00, 0x00, 0x04, 0xFF, 0x59, 0x00, 0xAA])
        #expect(services.serviceData == [BluetoothUUID(0x180A): [0x01, 0x02], BluetoothUUID(0xFEED): []])
        #expect(services.manufacturerData(services.fields()) == ManufacturerData(companyID: 0x0059, payload: [0xAA]))
    }

    @Test func paddingAndACutStructureEndTheWalk() {
        // A Length of 0 ends the data (Vol 3 Part C §11): what follows is padding.
        #expect(AdvertisingDataView([0x02, 0x01, 0x06, 0x00, 0x03, 0x09, 0x41]).map(\.type) == [0x01])
        // A structure whose Length runs past the end: the walk stops at its offset; what came before stays.
        var iterator = AdvertisingDataView([0x02, 0x01, 0x06, 0x05, 0x09, 0x41]).makeIterator()
        #expect(iterator.next()?.type == 0x01)
        #expect(iterator.next() == nil)
        #expect(iterator.stoppedAt == 3)
        #expect(AdvertisingDataView([]).fields() == AdvertisingDataView.Fields())
        // A Length-1 structure has an empty value; the short ones of their kind count for nothing.
        let short = AdvertisingDataView([0x01, 0xFF, 0x02, 0x16, 0x0F, 0x01, 0x0A]).fields()
        #expect(short.manufacturerDataCount == 0 && short.serviceDataCount == 0 && short.txPowerLevel == nil)
    }

    @Test func theFirstWellFormedOfEachFieldCountsAsInTheFullParse() {
        // Found by the advertising-view fuzz target: a TX Power Level, then a malformed second one of two octets.
        let power: [UInt8] = [0x02, 0x0A, 0x05, 0x03, 0x0A, 0x01, 0x02]
        #expect(AdvertisingDataView(power).fields().txPowerLevel == 5)
        #expect(AdvertisingData(bytes: power).txPowerLevel == 5)
        // A malformed TX Power Level of two octets first: the well-formed one after it counts.
        #expect(AdvertisingDataView([0x03, 0x0A, 0x01, 0x02, 0x02, 0x0A, 0xF8]).fields().txPowerLevel == -8)
        // Two Complete Local Names: the first; a Shortened one before a Complete one: the Complete one.
        let names = AdvertisingDataView([0x02, 0x09, 0x41, 0x02, 0x09, 0x42])
        #expect(names.fields().localName.map(names.string) == "A")
        let both = AdvertisingDataView([0x02, 0x08, 0x53, 0x02, 0x09, 0x43, 0x02, 0x08, 0x54])
        #expect(both.fields().localName.map(both.string) == "C" && both.fields().isLocalNameComplete)
        #expect(AdvertisingDataView([0x03, 0x01, 0x06, 0x00, 0x02, 0x01, 0x1A]).fields().flags == 0x1A, "two-octet Flags are malformed")
    }

    @Test func agreesWithTheFullParseOnEveryCapturedPayloadAndMutations() {
        var payloads = AdvertisingDataFuzzTests.corpus
        #expect(payloads.count > 50)
        var random = FuzzRandom(seed: 0x0CB)
        for payload in AdvertisingDataFuzzTests.corpus { payloads.append(random.mutate(payload)); payloads.append(random.mutate(random.mutate(payload))) }
        for bytes in payloads {
            let view = AdvertisingDataView(bytes)
            let fields = view.fields()
            let parsed = AdvertisingData(bytes: bytes)
            #expect(fields.localName.map(view.string) == parsed.localName, "\(bytes)")
            #expect(fields.isLocalNameComplete == parsed.isLocalNameComplete)
            #expect(fields.flags == parsed.flags?.rawValue, "\(bytes)")
            #expect(view.serviceUUIDs == parsed.serviceUUIDs, "\(bytes)")
            #expect(view.solicitedServiceUUIDs == parsed.solicitedServiceUUIDs, "\(bytes)")
            #expect(view.serviceData == parsed.serviceData, "\(bytes)")
            #expect(view.manufacturerData(fields) == parsed.manufacturerData.first, "\(bytes)")
            #expect(fields.txPowerLevel == parsed.txPowerLevel, "\(bytes)")
            #expect(fields.manufacturerDataCount == parsed.manufacturerData.count, "\(bytes)")
            #expect((fields.solicitedServiceUUIDCount == 0) == parsed.solicitedServiceUUIDs.isEmpty, "\(bytes)")
            #expect((fields.serviceDataCount == 0) == parsed.serviceData.isEmpty, "\(bytes)")
            #expect((fields.serviceUUIDCount == 0) == parsed.serviceUUIDs.isEmpty, "\(bytes)")
            if let range = fields.manufacturerData, let first = parsed.manufacturerData.first {
                #expect(UInt16(bytes[range.lowerBound]) | UInt16(bytes[range.lowerBound + 1]) << 8 == first.companyID)
                #expect(Array(bytes[(range.lowerBound + 2)..<range.upperBound]) == first.payload)
            }
        }
    }
}
