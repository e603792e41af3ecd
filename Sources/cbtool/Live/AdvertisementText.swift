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
    /// identifier when it has none) and address type. One pass over the dictionary's entries (a discovery has a few of
    /// Apple's nine keys; looking each key up hashed every one, present or not, for every line of a scan).
    static func snapshot(address: String, addressType: String?, advertisement: [String: Any], rssi: Int) -> AdvertiserSnapshot {
        var snapshot = AdvertiserSnapshot(address: address, addressType: addressType, rssi: rssi == 127 ? nil : rssi,
                                          name: nil, isConnectable: nil, serviceUUIDs: [], solicitedServiceUUIDs: [],
                                          serviceData: [], manufacturerData: [], txPowerLevel: nil)
        var overflow: [BluetoothUUID] = []
        for (key, value) in advertisement {
            switch key {
            case CBAdvertisementDataManufacturerDataKey:
                if let data = value as? Data, data.count >= 2 {
                    let bytes = [UInt8](data)
                    snapshot.manufacturerData = [OCBAdvertising.ManufacturerData(companyID: UInt16(bytes[0]) | UInt16(bytes[1]) << 8,
                                                                                 payload: Array(bytes.dropFirst(2)))]
                }
            case CBAdvertisementDataServiceDataKey:
                snapshot.serviceData = (value as? [CBUUID: Data] ?? [:])
                    .map { ServiceData(uuid: $0.key.bluetoothUUID, data: [UInt8]($0.value)) }
                    .sorted { $0.uuid.description < $1.uuid.description }
            case CBAdvertisementDataServiceUUIDsKey:
                snapshot.serviceUUIDs = (value as? [CBUUID] ?? []).map(\.bluetoothUUID)
            case CBAdvertisementDataOverflowServiceUUIDsKey:
                overflow = (value as? [CBUUID] ?? []).map(\.bluetoothUUID)
            case CBAdvertisementDataSolicitedServiceUUIDsKey:
                snapshot.solicitedServiceUUIDs = (value as? [CBUUID] ?? []).map(\.bluetoothUUID)
            case CBAdvertisementDataTxPowerLevelKey:
                snapshot.txPowerLevel = (value as? NSNumber).map { Int8(clamping: $0.intValue) }
            case CBAdvertisementDataLocalNameKey:
                snapshot.name = value as? String
            case CBAdvertisementDataIsConnectable:
                snapshot.isConnectable = (value as? NSNumber)?.boolValue
            case CBAdvertisementDataIsTruncatedKey:
                snapshot.isTruncated = (value as? NSNumber)?.boolValue ?? false
            default:
                continue
            }
        }
        // Overflow service UUIDs follow the advertised ones, whichever entry came first.
        snapshot.serviceUUIDs += overflow
        return snapshot
    }
}
