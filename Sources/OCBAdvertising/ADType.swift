// The AD type byte of an AD structure, with the assigned values as named constants.
import OCBCore

/// The AD type of an AD structure (Assigned Numbers §2.3; formats in Core Specification Supplement Part A §1).
///
/// An open set: any byte is a valid `ADType`; values without a constant here are kept as received.
public struct ADType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The type byte.
    public let rawValue: UInt8
    /// Wraps a type byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01 Flags (CSS Part A §1.3).
    public static let flags = ADType(rawValue: 0x01)
    /// 0x02 Incomplete List of 16-bit Service Class UUIDs (CSS Part A §1.1).
    public static let incompleteServiceUUIDs16 = ADType(rawValue: 0x02)
    /// 0x03 Complete List of 16-bit Service Class UUIDs.
    public static let completeServiceUUIDs16 = ADType(rawValue: 0x03)
    /// 0x04 Incomplete List of 32-bit Service Class UUIDs.
    public static let incompleteServiceUUIDs32 = ADType(rawValue: 0x04)
    /// 0x05 Complete List of 32-bit Service Class UUIDs.
    public static let completeServiceUUIDs32 = ADType(rawValue: 0x05)
    /// 0x06 Incomplete List of 128-bit Service Class UUIDs.
    public static let incompleteServiceUUIDs128 = ADType(rawValue: 0x06)
    /// 0x07 Complete List of 128-bit Service Class UUIDs.
    public static let completeServiceUUIDs128 = ADType(rawValue: 0x07)
    /// 0x08 Shortened Local Name (CSS Part A §1.2).
    public static let shortenedLocalName = ADType(rawValue: 0x08)
    /// 0x09 Complete Local Name.
    public static let completeLocalName = ADType(rawValue: 0x09)
    /// 0x0A TX Power Level (CSS Part A §1.5).
    public static let txPowerLevel = ADType(rawValue: 0x0A)
    /// 0x0D Class of Device (CSS Part A §1.6).
    public static let classOfDevice = ADType(rawValue: 0x0D)
    /// 0x0E Simple Pairing Hash C-192 (CSS Part A §1.6).
    public static let simplePairingHashC192 = ADType(rawValue: 0x0E)
    /// 0x0F Simple Pairing Randomizer R-192.
    public static let simplePairingRandomizerR192 = ADType(rawValue: 0x0F)
    /// 0x10 Security Manager TK Value (CSS Part A §1.8; Device ID in EIR only).
    public static let securityManagerTKValue = ADType(rawValue: 0x10)
    /// 0x11 Security Manager Out of Band Flags (CSS Part A §1.7).
    public static let securityManagerOOBFlags = ADType(rawValue: 0x11)
    /// 0x12 Peripheral Connection Interval Range (CSS Part A §1.9).
    public static let peripheralConnectionIntervalRange = ADType(rawValue: 0x12)
    /// 0x14 List of 16-bit Service Solicitation UUIDs (CSS Part A §1.10).
    public static let serviceSolicitationUUIDs16 = ADType(rawValue: 0x14)
    /// 0x15 List of 128-bit Service Solicitation UUIDs.
    public static let serviceSolicitationUUIDs128 = ADType(rawValue: 0x15)
    /// 0x16 Service Data - 16-bit UUID (CSS Part A §1.11).
    public static let serviceData16 = ADType(rawValue: 0x16)
    /// 0x17 Public Target Address (CSS Part A §1.13).
    public static let publicTargetAddress = ADType(rawValue: 0x17)
    /// 0x18 Random Target Address (CSS Part A §1.14).
    public static let randomTargetAddress = ADType(rawValue: 0x18)
    /// 0x19 Appearance (CSS Part A §1.12).
    public static let appearance = ADType(rawValue: 0x19)
    /// 0x1A Advertising Interval (CSS Part A §1.15).
    public static let advertisingInterval = ADType(rawValue: 0x1A)
    /// 0x1B LE Bluetooth Device Address (CSS Part A §1.16).
    public static let leBluetoothDeviceAddress = ADType(rawValue: 0x1B)
    /// 0x1C LE Role (CSS Part A §1.17).
    public static let leRole = ADType(rawValue: 0x1C)
    /// 0x1D Simple Pairing Hash C-256.
    public static let simplePairingHashC256 = ADType(rawValue: 0x1D)
    /// 0x1E Simple Pairing Randomizer R-256.
    public static let simplePairingRandomizerR256 = ADType(rawValue: 0x1E)
    /// 0x1F List of 32-bit Service Solicitation UUIDs.
    public static let serviceSolicitationUUIDs32 = ADType(rawValue: 0x1F)
    /// 0x20 Service Data - 32-bit UUID.
    public static let serviceData32 = ADType(rawValue: 0x20)
    /// 0x21 Service Data - 128-bit UUID.
    public static let serviceData128 = ADType(rawValue: 0x21)
    /// 0x24 URI (CSS Part A §1.18).
    public static let uri = ADType(rawValue: 0x24)
    /// 0x27 LE Supported Features (CSS Part A §1.19).
    public static let leSupportedFeatures = ADType(rawValue: 0x27)
    /// 0x28 Channel Map Update Indication (CSS Part A §1.20).
    public static let channelMapUpdateIndication = ADType(rawValue: 0x28)
    /// 0x29 PB-ADV (Mesh Protocol §5.2.1).
    public static let pbADV = ADType(rawValue: 0x29)
    /// 0x2A Mesh Message (Mesh Protocol §3.3.1).
    public static let meshMessage = ADType(rawValue: 0x2A)
    /// 0x2B Mesh Beacon (Mesh Protocol §3.10).
    public static let meshBeacon = ADType(rawValue: 0x2B)
    /// 0x2F Advertising Interval - long (CSS Part A §1.15).
    public static let advertisingIntervalLong = ADType(rawValue: 0x2F)
    /// 0x30 Broadcast Name (Public Broadcast Profile §4.2).
    public static let broadcastName = ADType(rawValue: 0x30)
    /// 0x31 Encrypted Advertising Data (CSS Part A §1.23).
    public static let encryptedData = ADType(rawValue: 0x31)
    /// 0xFF Manufacturer Specific Data (CSS Part A §1.4).
    public static let manufacturerSpecificData = ADType(rawValue: 0xFF)

    /// The assigned name ("Complete Local Name"), or "AD type 0xNN" when unassigned.
    public var description: String {
        AssignedNumbers.adTypeName(rawValue) ?? "AD type 0x" + Hex.string([rawValue])
    }
}
