// The snapshot cbtool scan prints, built from the advertisementData dictionary CoreBluetooth gives (Apple's keys).
@testable import cbtool
import CoreBluetooth
import Foundation
import OCBCore
import Testing

@Suite struct AdvertisementTextTests {
    /// Every one of Apple's keys, as the facade fills them for a sensor (Core Supplement v11 Part A: a Complete Local
    /// Name, Manufacturer Specific Data with Company Identifier 0x004C little-endian, 16-bit service UUIDs, Service Data
    /// 0xFEAA, TX Power Level −8 dBm), reads into the snapshot's fields: advertised services before overflow ones,
    /// service data by UUID, RSSI 127 ("not available", Vol 4 Part E §7.7.65.2) as none.
    @Test func everyKeyReadsIntoTheSnapshot() {
        let advertisement: [String: Any] = [
            CBAdvertisementDataLocalNameKey: "Thermo",
            CBAdvertisementDataManufacturerDataKey: Data([0x4C, 0x00, 0x02, 0x15, 0x01]),
            CBAdvertisementDataServiceUUIDsKey: [CBUUID(string: "1809")],
            CBAdvertisementDataOverflowServiceUUIDsKey: [CBUUID(string: "180F")],
            CBAdvertisementDataSolicitedServiceUUIDsKey: [CBUUID(string: "1812")],
            CBAdvertisementDataServiceDataKey: [CBUUID(string: "FEAA"): Data([0x10, 0x00]), CBUUID(string: "180A"): Data([0x01])],
            CBAdvertisementDataTxPowerLevelKey: NSNumber(value: -8),
            CBAdvertisementDataIsConnectable: NSNumber(value: true),
            CBAdvertisementDataIsTruncatedKey: NSNumber(value: true),
        ]
        let snapshot = AdvertisementText.snapshot(address: "C0:11:22:33:44:55", addressType: "random",
                                                  advertisement: advertisement, rssi: 127)
        #expect(snapshot.address == "C0:11:22:33:44:55" && snapshot.addressType == "random" && snapshot.rssi == nil)
        #expect(snapshot.name == "Thermo")
        #expect(snapshot.manufacturerData.map(\.companyID) == [0x004C])
        #expect(snapshot.manufacturerData.first?.payload == [0x02, 0x15, 0x01])
        #expect(snapshot.serviceUUIDs == [BluetoothUUID(0x1809), BluetoothUUID(0x180F)])
        #expect(snapshot.solicitedServiceUUIDs == [BluetoothUUID(0x1812)])
        #expect(snapshot.serviceData.map(\.uuid) == [BluetoothUUID(0x180A), BluetoothUUID(0xFEAA)])
        #expect(snapshot.serviceData.map(\.data) == [[0x01], [0x10, 0x00]])
        #expect(snapshot.txPowerLevel == -8 && snapshot.isConnectable == true && snapshot.isTruncated)
    }

    /// Overflow service UUIDs follow the advertised ones whichever of the two entries a dictionary's iteration meets
    /// first (each dictionary's order depends on its storage: fifty of them, made one by one).
    @Test func overflowServicesFollowTheAdvertisedOnesInAnyOrder() {
        for _ in 0..<50 {
            var advertisement: [String: Any] = [:]
            advertisement[CBAdvertisementDataOverflowServiceUUIDsKey] = [CBUUID(string: "180F")]
            advertisement[CBAdvertisementDataServiceUUIDsKey] = [CBUUID(string: "1809"), CBUUID(string: "181A")]
            let snapshot = AdvertisementText.snapshot(address: "C0:00:00:00:00:02", addressType: "random",
                                                      advertisement: advertisement, rssi: -50)
            #expect(snapshot.serviceUUIDs == [BluetoothUUID(0x1809), BluetoothUUID(0x181A), BluetoothUUID(0x180F)])
        }
    }

    /// A dictionary with only IsConnectable (a name-less beacon's): everything else absent, values of unexpected types
    /// ignored (a one-octet manufacturer data has no Company Identifier).
    @Test func absentAndUnexpectedValuesLeaveFieldsEmpty() {
        let snapshot = AdvertisementText.snapshot(address: "C0:00:00:00:00:01", addressType: nil,
                                                  advertisement: [CBAdvertisementDataIsConnectable: NSNumber(value: false),
                                                                  CBAdvertisementDataManufacturerDataKey: Data([0x4C]),
                                                                  CBAdvertisementDataLocalNameKey: 42],
                                                  rssi: -60)
        #expect(snapshot.rssi == -60 && snapshot.isConnectable == false && snapshot.name == nil)
        #expect(snapshot.manufacturerData.isEmpty && snapshot.serviceUUIDs.isEmpty && snapshot.serviceData.isEmpty)
        #expect(snapshot.txPowerLevel == nil && !snapshot.isTruncated)
    }
}
