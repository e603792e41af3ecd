// The Eddystone formats (UID, URL, TLM): typed views on service data of UUID 0xFEAA.
import OCBCore

/// An Eddystone frame, read from Service Data of the 16-bit UUID 0xFEAA (Google's Eddystone protocol
/// specification). Multi-octet fields are big-endian, unlike Bluetooth's own.
public enum Eddystone: Hashable, Sendable {
    /// Frame type 0x00: 1 octet ranging data (dBm at 0 m), 10 octets namespace, 6 octets instance, 2 reserved (optional).
    case uid(rangingData: Int8, namespace: [UInt8], instance: [UInt8])
    /// Frame type 0x10: 1 octet TX power at 0 m (dBm), 1 octet scheme prefix, then the encoded URL.
    case url(txPower: Int8, url: String)
    /// Frame type 0x20 version 0x00 (unencrypted TLM).
    case tlm(EddystoneTLM)

    /// The Eddystone service UUID, 0xFEAA.
    public static let serviceUUID = BluetoothUUID(0xFEAA)

    /// URL scheme prefixes by code 0x00...0x03.
    static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    /// URL expansion codes 0x00...0x0D.
    static let expansions = [".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
                             ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov"]

    /// Decodes the service data of 0xFEAA (the octets after the UUID); nil for an unknown frame type or a frame
    /// too short for its type, a reserved scheme or URL code, or a TLM version other than 0x00.
    public init?(serviceData data: [UInt8]) {
        var reader = ByteReader(data)
        guard let frameType = try? reader.readUInt8() else { return nil }
        switch frameType {
        case 0x00:
            guard let ranging = try? reader.readInt8(), let namespace = try? reader.readBytes(10),
                  let instance = try? reader.readBytes(6) else { return nil }
            self = .uid(rangingData: ranging, namespace: namespace, instance: instance)
        case 0x10:
            guard let power = try? reader.readInt8(), let schemeCode = try? reader.readUInt8(),
                  Int(schemeCode) < Self.schemes.count else { return nil }
            var url = Self.schemes[Int(schemeCode)]
            for byte in reader.readRemaining() {
                if Int(byte) < Self.expansions.count {
                    url += Self.expansions[Int(byte)]
                } else if (0x21...0x7E).contains(byte) {
                    url.append(Character(Unicode.Scalar(byte)))
                } else {
                    return nil
                }
            }
            self = .url(txPower: power, url: url)
        case 0x20:
            guard let tlm = EddystoneTLM(reader: &reader) else { return nil }
            self = .tlm(tlm)
        default:
            return nil
        }
    }
}

/// Eddystone-TLM telemetry, unencrypted (frame 0x20, version 0x00): 13 octets after the frame type, big-endian.
public struct EddystoneTLM: Hashable, Sendable {
    /// Battery voltage in mV (0 when not battery powered).
    public var batteryMillivolts: UInt16
    /// Beacon temperature in °C, signed 8.8 fixed point as sent (0x8000 means not supported).
    public var temperatureRaw: Int16
    /// Advertising PDUs sent since power-up or reboot.
    public var advertisingCount: UInt32
    /// Time since power-up or reboot, in 0.1 s units.
    public var uptimeDeciseconds: UInt32

    /// Makes the value.
    public init(batteryMillivolts: UInt16, temperatureRaw: Int16, advertisingCount: UInt32, uptimeDeciseconds: UInt32) {
        self.batteryMillivolts = batteryMillivolts
        self.temperatureRaw = temperatureRaw
        self.advertisingCount = advertisingCount
        self.uptimeDeciseconds = uptimeDeciseconds
    }

    init?(reader: inout ByteReader) {
        guard (try? reader.readUInt8()) == 0x00, let battery = try? reader.readUInt16BigEndian(),
              let temperature = try? reader.readUInt16BigEndian(), let count = try? reader.readUInt32BigEndian(),
              let seconds = try? reader.readUInt32BigEndian() else { return nil }
        self.init(batteryMillivolts: battery, temperatureRaw: Int16(bitPattern: temperature),
                  advertisingCount: count, uptimeDeciseconds: seconds)
    }

    /// The temperature in °C, nil for 0x8000 (not supported).
    public var temperatureCelsius: Double? {
        temperatureRaw == Int16.min ? nil : Double(temperatureRaw) / 256
    }

    /// The uptime as a duration.
    public var uptime: Duration { .milliseconds(Int64(uptimeDeciseconds) * 100) }
}

extension AdvertisingData {
    /// The first Eddystone frame in service data of 0xFEAA, if any.
    public var eddystone: Eddystone? {
        serviceDataList.lazy.filter { $0.uuid == Eddystone.serviceUUID }.compactMap { Eddystone(serviceData: $0.data) }.first
    }
}
