// Tests of the generated assigned-number tables against values of the Bluetooth SIG Assigned Numbers document.
@testable import OCBCore
import Testing

@Suite struct AssignedNumbersTests {
    @Test func uuidNames() throws {
        // Every key of the generated table is a UUID, and no two are one UUID (the table is keyed by UUID, not text).
        #expect(AssignedNumbers.uuidNames.count == AssignedNumbers.parse(AssignedNumbers.uuidNameTable).count)
        #expect(AssignedNumbers.name(for: BluetoothUUID(0x2A37)) == "Heart Rate Measurement")
        #expect(AssignedNumbers.name(for: BluetoothUUID(0x180F)) == "Battery Service")
        #expect(AssignedNumbers.name(for: try #require(BluetoothUUID("0000180F-0000-1000-8000-00805F9B34FB"))) == "Battery Service")
        #expect(AssignedNumbers.name(for: BluetoothUUID(0x2800)) == "Primary Service")
        #expect(AssignedNumbers.name(for: BluetoothUUID(0x2801)) == "Secondary Service")
        #expect(AssignedNumbers.name(for: BluetoothUUID(0x2802)) == "Include")
        #expect(AssignedNumbers.name(for: BluetoothUUID(0x2803)) == "Characteristic")
        #expect(AssignedNumbers.name(for: BluetoothUUID(0x2902)) == "Client Characteristic Configuration")
        #expect(AssignedNumbers.name(for: BluetoothUUID(0x2A00)) == "Device Name")
        #expect(AssignedNumbers.name(for: BluetoothUUID(0xFEAA)) == "Eddystone")
        #expect(AssignedNumbers.name(for: BluetoothUUID(high: 0x0123, low: 0x4567)) == nil)
    }

    @Test func companyNames() {
        #expect(AssignedNumbers.companyName(0x004C) == "Apple, Inc.")
        #expect(AssignedNumbers.companyName(0x0006) == "Microsoft")
        #expect(AssignedNumbers.companyName(0x0059) == "Nordic Semiconductor ASA")
        // The table's first and last entries, and one past the last assigned (keys are parsed as numbers).
        #expect(AssignedNumbers.companyName(0x0000) == "Ericsson AB")
        #expect(AssignedNumbers.companyName(0x0D53) == "Luxottica Group S.p.A")
        #expect(AssignedNumbers.companyName(0xFFFF)?.hasPrefix("Bluetooth SIG Specification Reserved Default Vendor ID") == true)
        #expect(AssignedNumbers.companyName(0x0D54) == nil)
    }

    @Test func appearanceNames() {
        #expect(AssignedNumbers.appearanceName(0x0341) == "Heart Rate Sensor: Heart Rate Belt")
        #expect(AssignedNumbers.appearanceName(0x0340) == "Heart Rate Sensor")
        #expect(AssignedNumbers.appearanceName(0x033F) == "Thermometer")  // 0x0C << 6 | unknown 0x3F
        #expect(AssignedNumbers.appearanceName(0x03C1) == "Human Interface Device: Keyboard")
        #expect(AssignedNumbers.appearanceName(0xFFC0) == nil)
    }

    @Test func adTypeNames() {
        #expect(AssignedNumbers.adTypeName(0x01) == "Flags")
        #expect(AssignedNumbers.adTypeName(0x09) == "Complete Local Name")
        #expect(AssignedNumbers.adTypeName(0x16) == "Service Data 16-bit UUID")
        #expect(AssignedNumbers.adTypeName(0xFF) == "Manufacturer Specific Data")
        #expect(AssignedNumbers.adTypeName(0x0B) == nil)
    }

    @Test func uriSchemes() {
        #expect(AssignedNumbers.uriScheme(0x0001) == "")
        #expect(AssignedNumbers.uriScheme(0x0016) == "http:")
        #expect(AssignedNumbers.uriScheme(0x0017) == "https:")
        #expect(AssignedNumbers.uriSchemeCodePoint("https:") == 0x0017)
        #expect(AssignedNumbers.uriScheme(0x0000) == nil)
    }

    @Test func unitNames() {
        #expect(AssignedNumbers.name(for: BluetoothUUID(0x27AD)) == "percentage")
    }
}
