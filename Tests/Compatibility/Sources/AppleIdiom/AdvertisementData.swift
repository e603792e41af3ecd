// Advertisement data: every CBAdvertisementData* key read from centralManager(_:didDiscover:advertisementData:rssi:).
import CoreBluetooth

/// A typed view of the advertisement dictionary a central manager reports for a discovered peripheral.
struct Advertisement {
    var localName: String?
    var manufacturerData: Data?
    var serviceData: [CBUUID: Data]
    var serviceUUIDs: [CBUUID]
    var overflowServiceUUIDs: [CBUUID]
    var solicitedServiceUUIDs: [CBUUID]
    var txPowerLevel: Int?
    var isConnectable: Bool

    init(_ advertisementData: [String: Any]) {
        localName = advertisementData[CBAdvertisementDataLocalNameKey] as? String
        manufacturerData = advertisementData[CBAdvertisementDataManufacturerDataKey] as? Data
        serviceData = advertisementData[CBAdvertisementDataServiceDataKey] as? [CBUUID: Data] ?? [:]
        serviceUUIDs = advertisementData[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID] ?? []
        overflowServiceUUIDs = advertisementData[CBAdvertisementDataOverflowServiceUUIDsKey] as? [CBUUID] ?? []
        solicitedServiceUUIDs = advertisementData[CBAdvertisementDataSolicitedServiceUUIDsKey] as? [CBUUID] ?? []
        txPowerLevel = (advertisementData[CBAdvertisementDataTxPowerLevelKey] as? NSNumber)?.intValue
        isConnectable = (advertisementData[CBAdvertisementDataIsConnectable] as? NSNumber)?.boolValue ?? false
    }
}
