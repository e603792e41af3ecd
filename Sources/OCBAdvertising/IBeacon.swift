// The iBeacon format: a typed view on Apple manufacturer data.
import OCBCore

/// An iBeacon advertisement, read from Manufacturer Specific Data of company 0x004C (Apple, Inc.).
///
/// Payload after the company id (23 octets): 0x02 (type), 0x15 (length 21), proximity UUID (16 octets, big-endian),
/// major (2 octets, big-endian), minor (2 octets, big-endian), measured power (1 octet, signed dBm at 1 m).
/// Source: Apple's Proximity Beacon Specification r1.
public struct IBeacon: Hashable, Sendable {
    /// The proximity UUID.
    public var proximityUUID: BluetoothUUID
    /// The major value.
    public var major: UInt16
    /// The minor value.
    public var minor: UInt16
    /// The calibrated RSSI at 1 m, dBm.
    public var measuredPower: Int8

    /// Makes the value.
    public init(proximityUUID: BluetoothUUID, major: UInt16, minor: UInt16, measuredPower: Int8) {
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
    }

    /// Reads an iBeacon from manufacturer data; nil unless company 0x004C with type 0x02, length 0x15 and 21 octets after.
    public init?(_ manufacturer: ManufacturerData) {
        var reader = ByteReader(manufacturer.payload)
        guard manufacturer.companyID == 0x004C, manufacturer.payload.count == 23,
              (try? reader.readUInt8()) == 0x02, (try? reader.readUInt8()) == 0x15,
              let uuidBytes = try? reader.readBytes(16), let uuid = BluetoothUUID(bigEndianBytes: uuidBytes),
              let major = try? reader.readUInt16BigEndian(), let minor = try? reader.readUInt16BigEndian(),
              let power = try? reader.readInt8() else { return nil }
        self.init(proximityUUID: uuid, major: major, minor: minor, measuredPower: power)
    }

    /// The manufacturer data that carries this iBeacon.
    public var manufacturerData: ManufacturerData {
        var writer = ByteWriter(capacity: 23)
        writer.write(UInt8(0x02))
        writer.write(UInt8(0x15))
        writer.write(contentsOf: proximityUUID.bigEndianBytes)
        writer.writeBigEndian(major)
        writer.writeBigEndian(minor)
        writer.write(measuredPower)
        return ManufacturerData(companyID: 0x004C, payload: writer.bytes)
    }
}

extension AdvertisingData {
    /// The first iBeacon in the manufacturer data, if any.
    public var iBeacon: IBeacon? { manufacturerData.lazy.compactMap(IBeacon.init).first }
}
