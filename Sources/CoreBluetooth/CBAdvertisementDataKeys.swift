// The keys of the advertisementData dictionary given to centralManager(_:didDiscover:advertisementData:rssi:).

/// Local name (AD types 0x08 Shortened / 0x09 Complete Local Name, Core Supplement v11 Part A §1.2): `String` (NSString).
public let CBAdvertisementDataLocalNameKey: String = "kCBAdvDataLocalName"
/// Manufacturer Specific Data (AD type 0xFF, CSS Part A §1.4): `Data` whose first two bytes are the company
/// identifier, little-endian as on air, followed by the payload.
public let CBAdvertisementDataManufacturerDataKey: String = "kCBAdvDataManufacturerData"
/// Service Data (AD types 0x16/0x20/0x21, CSS Part A §1.11): `[CBUUID: Data]`.
public let CBAdvertisementDataServiceDataKey: String = "kCBAdvDataServiceData"
/// Service UUIDs (AD types 0x02-0x07, CSS Part A §1.1): `[CBUUID]`.
public let CBAdvertisementDataServiceUUIDsKey: String = "kCBAdvDataServiceUUIDs"
/// Service UUIDs found in Apple's "overflow" area (best effort): `[CBUUID]`. Raw value as in Apple's SDK.
public let CBAdvertisementDataOverflowServiceUUIDsKey: String = "kCBAdvDataHashedServiceUUIDs"
/// TX Power Level (AD type 0x0A, CSS Part A §1.5), dBm: `NSNumber`.
public let CBAdvertisementDataTxPowerLevelKey: String = "kCBAdvDataTxPowerLevel"
/// Whether the advertising event type is connectable (Core v5.4 Vol 4 Part E §7.7.65.2/§7.7.65.13): `NSNumber` (Bool).
public let CBAdvertisementDataIsConnectable: String = "kCBAdvDataIsConnectable"
/// Service Solicitation UUIDs (AD types 0x14/0x15/0x1F, CSS Part A §1.10): `[CBUUID]`.
public let CBAdvertisementDataSolicitedServiceUUIDsKey: String = "kCBAdvDataSolicitedServiceUUIDs"
