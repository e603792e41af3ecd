// What cbtool shows of one advertiser: its address, RSSI and decoded advertising data, as plain values.

import OCBAdvertising
import OCBCore

/// One advertiser as `cbtool scan` and `cbtool decode` print it; plain values, no CoreBluetooth types.
///
/// Built from a ``MergedAdvertisement`` (advertising data + scan response, Core v5.4 Vol 3 Part C §11) with
/// ``init(address:addressType:rssi:isConnectable:advertisement:)``, or field by field from whatever the caller has
/// (e.g. CoreBluetooth's advertisement dictionary) with the memberwise initializer.
public struct AdvertiserSnapshot: Hashable, Sendable {
    /// The address text ("C4:7C:8D:6A:3F:21") or, where the address is hidden, an identifier.
    public var address: String
    /// "public", "random", … when known.
    public var addressType: String?
    /// Last RSSI in dBm, nil when unknown.
    public var rssi: Int?
    /// The local name (complete beats shortened).
    public var name: String?
    /// Connectable advertising, when known.
    public var isConnectable: Bool?
    /// Flags AD (Supplement Part A §1.3), when present.
    public var flags: UInt8?
    /// Complete and incomplete service UUID lists, united.
    public var serviceUUIDs: [BluetoothUUID]
    /// Solicited service UUIDs.
    public var solicitedServiceUUIDs: [BluetoothUUID]
    /// Service data, in order.
    public var serviceData: [ServiceData]
    /// Manufacturer specific data, in order.
    public var manufacturerData: [ManufacturerData]
    /// TX power level in dBm.
    public var txPowerLevel: Int8?
    /// Appearance (Assigned Numbers §2.6).
    public var appearance: UInt16?
    /// True when the controller could not receive the whole extended advertising chain (Core v5.4 Vol 4 Part E
    /// §7.7.65.13 Data_Status "truncated"): the values are of the part that came.
    public var isTruncated = false

    /// Makes a snapshot from plain values.
    public init(address: String, addressType: String? = nil, rssi: Int? = nil, name: String? = nil,
                isConnectable: Bool? = nil, flags: UInt8? = nil, serviceUUIDs: [BluetoothUUID] = [],
                solicitedServiceUUIDs: [BluetoothUUID] = [], serviceData: [ServiceData] = [],
                manufacturerData: [ManufacturerData] = [], txPowerLevel: Int8? = nil, appearance: UInt16? = nil) {
        self.address = address
        self.addressType = addressType
        self.rssi = rssi
        self.name = name
        self.isConnectable = isConnectable
        self.flags = flags
        self.serviceUUIDs = serviceUUIDs
        self.solicitedServiceUUIDs = solicitedServiceUUIDs
        self.serviceData = serviceData
        self.manufacturerData = manufacturerData
        self.txPowerLevel = txPowerLevel
        self.appearance = appearance
    }

    /// Makes a snapshot from a merged advertisement (the merging rules are ``MergedAdvertisement``'s).
    public init(address: BluetoothAddress, addressType: AddressType?, rssi: Int?, isConnectable: Bool?,
                advertisement: MergedAdvertisement) {
        var serviceData = advertisement.advertisingData.serviceDataList
        for extra in advertisement.scanResponse?.serviceDataList ?? [] where !serviceData.contains(where: { $0.uuid == extra.uuid }) {
            serviceData.append(extra)
        }
        self.init(address: address.description, addressType: addressType?.description, rssi: rssi,
                  name: advertisement.localName, isConnectable: isConnectable, flags: advertisement.flags?.rawValue,
                  serviceUUIDs: advertisement.serviceUUIDs, solicitedServiceUUIDs: advertisement.solicitedServiceUUIDs,
                  serviceData: serviceData, manufacturerData: advertisement.manufacturerData,
                  txPowerLevel: advertisement.txPowerLevel, appearance: advertisement.appearance)
    }
}
