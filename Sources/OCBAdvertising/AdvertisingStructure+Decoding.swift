// Decoding one AD structure's type and data into a typed value, with the faults found.
import OCBCore

extension AdvertisingStructure {
    /// Decodes the data of a structure of AD type `type` whose Length octet is at `offset`.
    ///
    /// Returns the typed value (or ``raw(type:data:)`` when the data does not fit the type's format) and the faults
    /// found; never throws or traps, whatever the bytes.
    public static func decode(type: UInt8, data: [UInt8], offset: Int = 0) -> (AdvertisingStructure, [AdvertisingDataError]) {
        var issues: [AdvertisingDataError] = []
        let raw = AdvertisingStructure.raw(type: type, data: data)
        func invalid() -> (AdvertisingStructure, [AdvertisingDataError]) {
            (raw, [AdvertisingDataError(kind: .invalidLength(type: type, length: data.count), offset: offset)])
        }
        func uuids(width: Int) -> [BluetoothUUID] {
            let whole = data.count / width
            let remainder = data.count % width
            if remainder != 0 {
                issues.append(AdvertisingDataError(kind: .malformedRemainder(type: type, count: remainder),
                                                   offset: offset + 2 + whole * width))
            }
            return (0..<whole).compactMap { index in
                BluetoothUUID(littleEndianBytes: Array(data[(index * width)..<(index * width + width)]))
            }
        }
        func addresses() -> [BluetoothAddress] {
            let whole = data.count / 6
            if data.count % 6 != 0 {
                issues.append(AdvertisingDataError(kind: .malformedRemainder(type: type, count: data.count % 6),
                                                   offset: offset + 2 + whole * 6))
            }
            return (0..<whole).compactMap { BluetoothAddress(littleEndianBytes: Array(data[($0 * 6)..<($0 * 6 + 6)])) }
        }
        func serviceData(width: Int) -> ServiceData? {
            guard data.count >= width, let uuid = BluetoothUUID(littleEndianBytes: Array(data[0..<width])) else { return nil }
            return ServiceData(uuid: uuid, data: Array(data[width...]))
        }
        var reader = ByteReader(data)

        let value: AdvertisingStructure
        switch type {
        case 0x01:
            guard data.count == 1 else { return invalid() }
            value = .flags(AdvertisingFlags(rawValue: data[0]))
        case 0x02: value = .incompleteServiceUUIDs16(uuids(width: 2))
        case 0x03: value = .completeServiceUUIDs16(uuids(width: 2))
        case 0x04: value = .incompleteServiceUUIDs32(uuids(width: 4))
        case 0x05: value = .completeServiceUUIDs32(uuids(width: 4))
        case 0x06: value = .incompleteServiceUUIDs128(uuids(width: 16))
        case 0x07: value = .completeServiceUUIDs128(uuids(width: 16))
        case 0x08: value = .shortenedLocalName(AdvertisedName(bytes: data))
        case 0x09: value = .completeLocalName(AdvertisedName(bytes: data))
        case 0x0A:
            guard data.count == 1 else { return invalid() }
            value = .txPowerLevel(Int8(bitPattern: data[0]))
        case 0x0D:
            guard data.count == 3, let cod = try? reader.readUInt24() else { return invalid() }
            value = .classOfDevice(cod)
        case 0x0E, 0x0F, 0x10, 0x1D, 0x1E:
            guard data.count == 16 else { return invalid() }
            switch type {
            case 0x0E: value = .simplePairingHashC192(data)
            case 0x0F: value = .simplePairingRandomizerR192(data)
            case 0x10: value = .securityManagerTKValue(data)
            case 0x1D: value = .simplePairingHashC256(data)
            default: value = .simplePairingRandomizerR256(data)
            }
        case 0x11:
            guard data.count == 1 else { return invalid() }
            value = .securityManagerOOBFlags(data[0])
        case 0x12:
            guard data.count == 4, let minimum = try? reader.readUInt16(), let maximum = try? reader.readUInt16() else { return invalid() }
            value = .peripheralConnectionIntervalRange(PeripheralConnectionIntervalRange(minimum: minimum, maximum: maximum))
        case 0x14: value = .serviceSolicitationUUIDs16(uuids(width: 2))
        case 0x15: value = .serviceSolicitationUUIDs128(uuids(width: 16))
        case 0x1F: value = .serviceSolicitationUUIDs32(uuids(width: 4))
        case 0x16, 0x20, 0x21:
            let width = type == 0x16 ? 2 : (type == 0x20 ? 4 : 16)
            guard let service = serviceData(width: width) else { return invalid() }
            value = type == 0x16 ? .serviceData16(service) : (type == 0x20 ? .serviceData32(service) : .serviceData128(service))
        case 0x17:
            guard data.count >= 6 else { return invalid() }
            value = .publicTargetAddresses(addresses())
        case 0x18:
            guard data.count >= 6 else { return invalid() }
            value = .randomTargetAddresses(addresses())
        case 0x19:
            guard data.count == 2, let appearance = try? reader.readUInt16() else { return invalid() }
            value = .appearance(appearance)
        case 0x1A:
            guard data.count == 2, let interval = try? reader.readUInt16() else { return invalid() }
            value = .advertisingInterval(interval)
        case 0x1B:
            guard data.count == 7, let address = try? reader.readAddress(), let typeOctet = try? reader.readUInt8() else { return invalid() }
            value = .leBluetoothDeviceAddress(LEDeviceAddress(address: address, typeOctet: typeOctet))
        case 0x1C:
            guard data.count == 1 else { return invalid() }
            value = .leRole(LERole(rawValue: data[0]))
        case 0x24:
            guard let uri = AdvertisedURI(data: data) else {
                return (raw, [AdvertisingDataError(kind: .invalidURI, offset: offset)])
            }
            value = .uri(uri)
        case 0x27: value = .leSupportedFeatures(data)
        case 0x28:
            guard data.count == 7, let map = try? reader.readBytes(5), let instant = try? reader.readUInt16() else { return invalid() }
            value = .channelMapUpdateIndication(ChannelMapUpdateIndication(channelMap: map, instant: instant))
        case 0x29: value = .pbADV(data)
        case 0x2A: value = .meshMessage(data)
        case 0x2B: value = .meshBeacon(data)
        case 0x2F:
            if data.count == 3, let interval = try? reader.readUInt24() {
                value = .advertisingIntervalLong(LongAdvertisingInterval(value: interval, octets: 3))
            } else if data.count == 4, let interval = try? reader.readUInt32() {
                value = .advertisingIntervalLong(LongAdvertisingInterval(value: interval, octets: 4))
            } else {
                return invalid()
            }
        case 0x30: value = .broadcastName(AdvertisedName(bytes: data))
        case 0x31: value = .encryptedData(data)
        case 0xFF:
            guard data.count >= 2, let company = try? reader.readUInt16() else {
                return (raw, [AdvertisingDataError(kind: .missingCompanyID(length: data.count), offset: offset)])
            }
            value = .manufacturerSpecificData(ManufacturerData(companyID: company, payload: reader.readRemaining()))
        default:
            value = raw
        }
        return (value, issues)
    }
}
