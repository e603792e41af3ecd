// An advertisement as CoreBluetooth gives it (advertisementData dictionary) turned into CBToolKit's AdvertiserSnapshot.

import OCBAdvertising
import OCBCore
import OCBToolKit
import CoreBluetooth
import Foundation

/// Builds the snapshot `cbtool scan` prints from `centralManager(_:didDiscover:advertisementData:rssi:)`.
enum AdvertisementText {
    /// The snapshot: address and type from the Linux extension of CBPeripheral, then the dictionary's keys
    /// (local name, manufacturer data with its company identifier, service data sorted by UUID, service UUIDs
    /// followed by overflow ones, solicited UUIDs, TX power, connectable). Flags and appearance are not in
    /// CoreBluetooth's dictionary, so they are absent. Values of unexpected types are ignored.
    static func snapshot(_ peripheral: CBPeripheral, advertisement: [String: Any], rssi: Int) -> AdvertiserSnapshot {
        snapshot(address: CentralSession.name(peripheral), addressType: peripheral.addressType, advertisement: advertisement, rssi: rssi)
    }

    /// ``snapshot(_:advertisement:rssi:)`` of a peripheral known by its address (`CBPeripheral.address`, or its
    /// identifier when it has none) and address type.
    static func snapshot(address: String, addressType: String?, advertisement: [String: Any], rssi: Int) -> AdvertiserSnapshot {
        var manufacturer: [OCBAdvertising.ManufacturerData] = []
        if let data = advertisement[CBAdvertisementDataManufacturerDataKey] as? Data, data.count >= 2 {
            let bytes = [UInt8](data)
            manufacturer.append(OCBAdvertising.ManufacturerData(companyID: UInt16(bytes[0]) | UInt16(bytes[1]) << 8,
                                                             payload: Array(bytes.dropFirst(2))))
        }
        let serviceData = (advertisement[CBAdvertisementDataServiceDataKey] as? [CBUUID: Data] ?? [:])
            .map { ServiceData(uuid: $0.key.bluetoothUUID, data: [UInt8]($0.value)) }
            .sorted { $0.uuid.description < $1.uuid.description }
        let services = (advertisement[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID] ?? [])
            + (advertisement[CBAdvertisementDataOverflowServiceUUIDsKey] as? [CBUUID] ?? [])
        let power = (advertisement[CBAdvertisementDataTxPowerLevelKey] as? NSNumber).map { Int8(clamping: $0.intValue) }
        var snapshot = AdvertiserSnapshot(
            address: address, addressType: addressType, rssi: rssi == 127 ? nil : rssi,
            name: advertisement[CBAdvertisementDataLocalNameKey] as? String,
            isConnectable: (advertisement[CBAdvertisementDataIsConnectable] as? NSNumber)?.boolValue,
            serviceUUIDs: services.map(\.bluetoothUUID),
            solicitedServiceUUIDs: (advertisement[CBAdvertisementDataSolicitedServiceUUIDsKey] as? [CBUUID] ?? []).map(\.bluetoothUUID),
            serviceData: serviceData, manufacturerData: manufacturer, txPowerLevel: power)
        snapshot.isTruncated = (advertisement[CBAdvertisementDataIsTruncatedKey] as? NSNumber)?.boolValue ?? false
        return snapshot
    }
}
