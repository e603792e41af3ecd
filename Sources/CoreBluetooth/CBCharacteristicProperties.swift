// Characteristic properties and write types, with Apple's raw values.

/// The properties of a characteristic (Apple's `CBCharacteristicProperties`).
///
/// The low byte is the Characteristic Properties field of the characteristic declaration
/// (Core v5.4 Vol 3 Part G §3.3.1.1); 0x100 and 0x200 are Apple's own flags for notify/indicate
/// requiring encryption (set only for a local, peripheral-role database, never by discovery).
public struct CBCharacteristicProperties: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// 0x01: the value may be broadcast in a Server Characteristic Configuration.
    public static let broadcast = CBCharacteristicProperties(rawValue: 0x01)
    /// 0x02: the value may be read.
    public static let read = CBCharacteristicProperties(rawValue: 0x02)
    /// 0x04: the value may be written without response (ATT Write Command).
    public static let writeWithoutResponse = CBCharacteristicProperties(rawValue: 0x04)
    /// 0x08: the value may be written with response (ATT Write Request).
    public static let write = CBCharacteristicProperties(rawValue: 0x08)
    /// 0x10: the value may be notified.
    public static let notify = CBCharacteristicProperties(rawValue: 0x10)
    /// 0x20: the value may be indicated.
    public static let indicate = CBCharacteristicProperties(rawValue: 0x20)
    /// 0x40: signed writes (ATT Signed Write Command) are allowed.
    public static let authenticatedSignedWrites = CBCharacteristicProperties(rawValue: 0x40)
    /// 0x80: the Characteristic Extended Properties descriptor (0x2900) is present.
    public static let extendedProperties = CBCharacteristicProperties(rawValue: 0x80)
    /// 0x100: only trusted devices may enable notifications (Apple peripheral role).
    public static let notifyEncryptionRequired = CBCharacteristicProperties(rawValue: 0x100)
    /// 0x200: only trusted devices may enable indications (Apple peripheral role).
    public static let indicateEncryptionRequired = CBCharacteristicProperties(rawValue: 0x200)
}

/// How `writeValue(_:for:type:)` writes (Apple's `CBCharacteristicWriteType`).
public enum CBCharacteristicWriteType: Int, Sendable {
    /// 0: ATT Write Request (or prepared writes when longer than ATT_MTU-3), answered by `didWriteValueFor`.
    case withResponse = 0
    /// 1: ATT Write Command; no callback, delivery not reported.
    case withoutResponse = 1
}
