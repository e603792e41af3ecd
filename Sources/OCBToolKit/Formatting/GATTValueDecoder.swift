// Values of well-known characteristics and descriptors as text: battery level, heart rate, strings, formats.

import OCBCore

/// Turns a characteristic or descriptor value into readable text where its SIG format is known.
///
/// Known: Battery Level 0x2A19 (uint8 percent, 0-100), Heart Rate Measurement 0x2A37 (``HeartRateMeasurement``),
/// Body Sensor Location 0x2A38, Appearance 0x2A01 (Assigned Numbers §2.6), the UTF-8 string characteristics
/// (Device Name 0x2A00, Model/Serial/Firmware/Hardware/Software/Manufacturer 0x2A24-0x2A29) and Characteristic User
/// Description 0x2901 (trailing NUL padding dropped; control characters are escaped where the text is printed), Client Characteristic Configuration 0x2902 (bit 0 notifications, bit 1 indications),
/// Characteristic Presentation Format 0x2904; any value whose characteristic has a presentation format
/// (``PresentationFormat/decode(_:)``). Anything else, or a value malformed for its type, gives nil (show hex).
public enum GATTValueDecoder {
    /// UUIDs whose value is a UTF-8 string.
    public static let stringUUIDs: Set<BluetoothUUID> = Set(
        [0x2A00, 0x2A24, 0x2A25, 0x2A26, 0x2A27, 0x2A28, 0x2A29, 0x2901, 0x2A8A, 0x2A90, 0x2A87].map { BluetoothUUID($0) })

    /// The value as text, or nil when no decoding applies. `format` is the characteristic's presentation format, if
    /// it has one (used when the UUID itself is not one of the known ones).
    public static func describe(_ value: [UInt8], uuid: BluetoothUUID, format: PresentationFormat? = nil) -> String? {
        switch uuid.uuid16 {
        case 0x2A19:
            guard value.count == 1, let level = value.first else { return nil }
            return level <= 100 ? "\(level) %" : "\(level) % (invalid: above 100)"
        case 0x2A37:
            return HeartRateMeasurement(bytes: value)?.summary
        case 0x2A38:
            guard value.count == 1, let location = value.first else { return nil }
            let names = ["Other", "Chest", "Wrist", "Finger", "Hand", "Ear Lobe", "Foot"]
            return Int(location) < names.count ? names[Int(location)] : "location \(location) (reserved)"
        case 0x2A01:
            guard value.count == 2 else { return nil }
            let appearance = UInt16(value[0]) | UInt16(value[1]) << 8
            return AssignedNumbers.appearanceName(appearance).map { "\($0) (\(GATTText.handle(appearance)))" }
                ?? "appearance \(GATTText.handle(appearance))"
        case 0x2902:
            guard value.count == 2 else { return nil }
            let bits = UInt16(value[0]) | UInt16(value[1]) << 8
            return "notifications \(bits & 1 != 0 ? "on" : "off"), indications \(bits & 2 != 0 ? "on" : "off")"
        case 0x2904:
            return PresentationFormat(bytes: value)?.summary
        default:
            break
        }
        if stringUUIDs.contains(uuid) {
            // Trailing NULs are padding (as BlueZ and the advertised local name have it); what is left must be UTF-8.
            let text = value.reversed().drop { $0 == 0 }.reversed()
            return String(validating: Array(text), as: UTF8.self).map { "\"\($0)\"" }
        }
        return format?.decode(value)
    }

    /// The decoded text if any, else ``preview(_:limit:)``: `"Polar H10"`, `72 bpm`, `01 ff`,
    /// `72 65 61 64 ("read")`, `00 01 … 1f … (512 bytes)`.
    public static func text(_ value: [UInt8], uuid: BluetoothUUID, format: PresentationFormat? = nil, limit: Int? = 32) -> String {
        describe(value, uuid: uuid, format: format) ?? preview(value, limit: limit)
    }

    /// Hex bytes, cut after `limit` bytes with the full length (`00 01 … 1f … (512 bytes)`; nil: never cut); a value
    /// of 2 to 64 printable ASCII bytes (0x20-0x7E) is also shown as text: `72 65 61 64 ("read")`.
    public static func preview(_ value: [UInt8], limit: Int? = 32) -> String {
        var text: String
        if let limit, value.count > limit {
            text = GATTText.bytes(Array(value.prefix(max(0, limit)))) + " … (\(value.count) bytes)"
        } else {
            text = GATTText.bytes(value)
        }
        if (2...64).contains(value.count), value.allSatisfy({ (0x20...0x7E).contains($0) }) {
            text += " (\"" + String(decoding: value, as: UTF8.self) + "\")"
        }
        return text
    }
}
