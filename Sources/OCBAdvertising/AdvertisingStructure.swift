// One AD structure decoded into a typed value, and its encoding back to bytes.
import OCBCore

/// One AD structure (Core v5.4 Vol 3 Part C §11; formats in Core Specification Supplement Part A §1).
///
/// On the wire: Length (1 octet, counting the type and data), AD Type (1 octet), data (Length - 1 octets).
/// Integers are little-endian. Each case names its AD type; ``raw(type:data:)`` holds unknown types and
/// known types whose data does not fit their format. Encoding a value (``bytes``) gives back the octets it
/// was decoded from.
public enum AdvertisingStructure: Hashable, Sendable {
    /// 0x01 Flags, 1 octet.
    case flags(AdvertisingFlags)
    /// 0x02 Incomplete List of 16-bit Service Class UUIDs (2 octets each).
    case incompleteServiceUUIDs16([BluetoothUUID])
    /// 0x03 Complete List of 16-bit Service Class UUIDs.
    case completeServiceUUIDs16([BluetoothUUID])
    /// 0x04 Incomplete List of 32-bit Service Class UUIDs (4 octets each).
    case incompleteServiceUUIDs32([BluetoothUUID])
    /// 0x05 Complete List of 32-bit Service Class UUIDs.
    case completeServiceUUIDs32([BluetoothUUID])
    /// 0x06 Incomplete List of 128-bit Service Class UUIDs (16 octets each).
    case incompleteServiceUUIDs128([BluetoothUUID])
    /// 0x07 Complete List of 128-bit Service Class UUIDs.
    case completeServiceUUIDs128([BluetoothUUID])
    /// 0x08 Shortened Local Name.
    case shortenedLocalName(AdvertisedName)
    /// 0x09 Complete Local Name.
    case completeLocalName(AdvertisedName)
    /// 0x0A TX Power Level, 1 octet, dBm (-127...+127).
    case txPowerLevel(Int8)
    /// 0x0D Class of Device, 3 octets (Assigned Numbers §2.8).
    case classOfDevice(UInt32)
    /// 0x0E Simple Pairing Hash C-192, 16 octets.
    case simplePairingHashC192([UInt8])
    /// 0x0F Simple Pairing Randomizer R-192, 16 octets.
    case simplePairingRandomizerR192([UInt8])
    /// 0x10 Security Manager TK Value, 16 octets.
    case securityManagerTKValue([UInt8])
    /// 0x11 Security Manager Out of Band Flags, 1 octet (bit 0 OOB data present, bit 1 LE supported (host),
    /// bit 2 simultaneous LE and BR/EDR (host), bit 3 address type 0 public / 1 random).
    case securityManagerOOBFlags(UInt8)
    /// 0x12 Peripheral Connection Interval Range, 4 octets (1.25 ms units).
    case peripheralConnectionIntervalRange(PeripheralConnectionIntervalRange)
    /// 0x14 List of 16-bit Service Solicitation UUIDs.
    case serviceSolicitationUUIDs16([BluetoothUUID])
    /// 0x15 List of 128-bit Service Solicitation UUIDs.
    case serviceSolicitationUUIDs128([BluetoothUUID])
    /// 0x16 Service Data - 16-bit UUID.
    case serviceData16(ServiceData)
    /// 0x17 Public Target Address: one or more public device addresses (6 octets each).
    case publicTargetAddresses([BluetoothAddress])
    /// 0x18 Random Target Address: one or more random device addresses (6 octets each).
    case randomTargetAddresses([BluetoothAddress])
    /// 0x19 Appearance, 2 octets (category << 6 | subcategory, Assigned Numbers §2.6).
    case appearance(UInt16)
    /// 0x1A Advertising Interval, 2 octets, 0.625 ms units.
    case advertisingInterval(UInt16)
    /// 0x1B LE Bluetooth Device Address, 7 octets.
    case leBluetoothDeviceAddress(LEDeviceAddress)
    /// 0x1C LE Role, 1 octet.
    case leRole(LERole)
    /// 0x1D Simple Pairing Hash C-256, 16 octets.
    case simplePairingHashC256([UInt8])
    /// 0x1E Simple Pairing Randomizer R-256, 16 octets.
    case simplePairingRandomizerR256([UInt8])
    /// 0x1F List of 32-bit Service Solicitation UUIDs.
    case serviceSolicitationUUIDs32([BluetoothUUID])
    /// 0x20 Service Data - 32-bit UUID.
    case serviceData32(ServiceData)
    /// 0x21 Service Data - 128-bit UUID.
    case serviceData128(ServiceData)
    /// 0x24 URI.
    case uri(AdvertisedURI)
    /// 0x27 LE Supported Features: the feature bit field (Core v5.4 Vol 6 Part B §4.6), little-endian, any length
    /// (trailing zero octets may be omitted).
    case leSupportedFeatures([UInt8])
    /// 0x28 Channel Map Update Indication, 7 octets.
    case channelMapUpdateIndication(ChannelMapUpdateIndication)
    /// 0x29 PB-ADV (Mesh Protocol), kept raw.
    case pbADV([UInt8])
    /// 0x2A Mesh Message (Mesh Protocol), kept raw.
    case meshMessage([UInt8])
    /// 0x2B Mesh Beacon (Mesh Protocol), kept raw.
    case meshBeacon([UInt8])
    /// 0x2F Advertising Interval - long, 3 or 4 octets, 0.625 ms units.
    case advertisingIntervalLong(LongAdvertisingInterval)
    /// 0x30 Broadcast Name (UTF-8, 4...32 octets by the Public Broadcast Profile; any length accepted).
    case broadcastName(AdvertisedName)
    /// 0x31 Encrypted Advertising Data (Randomizer, payload, MIC), kept raw.
    case encryptedData([UInt8])
    /// 0xFF Manufacturer Specific Data: company identifier then payload.
    case manufacturerSpecificData(ManufacturerData)
    /// Any other AD type, or a known type whose data does not fit its format; kept as received.
    case raw(type: UInt8, data: [UInt8])

    /// The AD type byte.
    public var type: UInt8 {
        switch self {
        case .flags: 0x01
        case .incompleteServiceUUIDs16: 0x02
        case .completeServiceUUIDs16: 0x03
        case .incompleteServiceUUIDs32: 0x04
        case .completeServiceUUIDs32: 0x05
        case .incompleteServiceUUIDs128: 0x06
        case .completeServiceUUIDs128: 0x07
        case .shortenedLocalName: 0x08
        case .completeLocalName: 0x09
        case .txPowerLevel: 0x0A
        case .classOfDevice: 0x0D
        case .simplePairingHashC192: 0x0E
        case .simplePairingRandomizerR192: 0x0F
        case .securityManagerTKValue: 0x10
        case .securityManagerOOBFlags: 0x11
        case .peripheralConnectionIntervalRange: 0x12
        case .serviceSolicitationUUIDs16: 0x14
        case .serviceSolicitationUUIDs128: 0x15
        case .serviceData16: 0x16
        case .publicTargetAddresses: 0x17
        case .randomTargetAddresses: 0x18
        case .appearance: 0x19
        case .advertisingInterval: 0x1A
        case .leBluetoothDeviceAddress: 0x1B
        case .leRole: 0x1C
        case .simplePairingHashC256: 0x1D
        case .simplePairingRandomizerR256: 0x1E
        case .serviceSolicitationUUIDs32: 0x1F
        case .serviceData32: 0x20
        case .serviceData128: 0x21
        case .uri: 0x24
        case .leSupportedFeatures: 0x27
        case .channelMapUpdateIndication: 0x28
        case .pbADV: 0x29
        case .meshMessage: 0x2A
        case .meshBeacon: 0x2B
        case .advertisingIntervalLong: 0x2F
        case .broadcastName: 0x30
        case .encryptedData: 0x31
        case .manufacturerSpecificData: 0xFF
        case .raw(let type, _): type
        }
    }

    /// The AD type as an ``ADType``.
    public var adType: ADType { ADType(rawValue: type) }

    /// The data octets (after the type). UUIDs that do not fit the list's width are left out.
    public var data: [UInt8] {
        var writer = ByteWriter()
        switch self {
        case .flags(let flags): writer.write(flags.rawValue)
        case .incompleteServiceUUIDs16(let uuids), .completeServiceUUIDs16(let uuids), .serviceSolicitationUUIDs16(let uuids):
            for uuid in uuids { writer.write(contentsOf: uuid.littleEndianBytes(width: 2) ?? []) }
        case .incompleteServiceUUIDs32(let uuids), .completeServiceUUIDs32(let uuids), .serviceSolicitationUUIDs32(let uuids):
            for uuid in uuids { writer.write(contentsOf: uuid.littleEndianBytes(width: 4) ?? []) }
        case .incompleteServiceUUIDs128(let uuids), .completeServiceUUIDs128(let uuids), .serviceSolicitationUUIDs128(let uuids):
            for uuid in uuids { writer.write(contentsOf: uuid.littleEndianBytes(width: 16) ?? []) }
        case .shortenedLocalName(let name), .completeLocalName(let name), .broadcastName(let name):
            writer.write(contentsOf: name.bytes)
        case .txPowerLevel(let level): writer.write(level)
        case .classOfDevice(let value): writer.writeUInt24(value)
        case .simplePairingHashC192(let bytes), .simplePairingRandomizerR192(let bytes), .securityManagerTKValue(let bytes),
             .simplePairingHashC256(let bytes), .simplePairingRandomizerR256(let bytes), .leSupportedFeatures(let bytes),
             .pbADV(let bytes), .meshMessage(let bytes), .meshBeacon(let bytes), .encryptedData(let bytes):
            writer.write(contentsOf: bytes)
        case .securityManagerOOBFlags(let flags): writer.write(flags)
        case .peripheralConnectionIntervalRange(let range):
            writer.write(range.minimum)
            writer.write(range.maximum)
        case .serviceData16(let service): Self.write(service, width: 2, to: &writer)
        case .serviceData32(let service): Self.write(service, width: 4, to: &writer)
        case .serviceData128(let service): Self.write(service, width: 16, to: &writer)
        case .publicTargetAddresses(let addresses), .randomTargetAddresses(let addresses):
            for address in addresses { writer.write(address) }
        case .appearance(let value), .advertisingInterval(let value): writer.write(value)
        case .leBluetoothDeviceAddress(let value):
            writer.write(value.address)
            writer.write(value.typeOctet)
        case .leRole(let role): writer.write(role.rawValue)
        case .uri(let uri): writer.write(contentsOf: uri.data)
        case .channelMapUpdateIndication(let indication):
            writer.write(contentsOf: indication.channelMap)
            writer.write(indication.instant)
        case .advertisingIntervalLong(let interval):
            if interval.octets == 3 { writer.writeUInt24(interval.value) } else { writer.write(interval.value) }
        case .manufacturerSpecificData(let manufacturer):
            writer.write(manufacturer.companyID)
            writer.write(contentsOf: manufacturer.payload)
        case .raw(_, let data): writer.write(contentsOf: data)
        }
        return writer.bytes
    }

    /// The whole structure: Length, AD Type, data. Data longer than 254 octets cannot be represented; it is cut
    /// to 254 so the length octet stays truthful.
    public var bytes: [UInt8] {
        let body = data.prefix(254)
        return [UInt8(truncatingIfNeeded: body.count + 1), type] + body
    }

    private static func write(_ service: ServiceData, width: Int, to writer: inout ByteWriter) {
        writer.write(contentsOf: service.uuid.littleEndianBytes(width: width) ?? service.uuid.littleEndianBytes(width: 16) ?? [])
        writer.write(contentsOf: service.data)
    }
}
