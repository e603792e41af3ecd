// The Characteristic Properties bit field and its names.

/// Characteristic Properties, one octet of a characteristic declaration (Core v5.4 Vol 3 Part G §3.3.1.1).
///
/// Bits: 0x01 Broadcast, 0x02 Read, 0x04 Write Without Response, 0x08 Write, 0x10 Notify, 0x20 Indicate,
/// 0x40 Authenticated Signed Writes, 0x80 Extended Properties.
public struct CharacteristicProperties: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01 Broadcast.
    public static let broadcast = CharacteristicProperties(rawValue: 0x01)
    /// 0x02 Read.
    public static let read = CharacteristicProperties(rawValue: 0x02)
    /// 0x04 Write Without Response.
    public static let writeWithoutResponse = CharacteristicProperties(rawValue: 0x04)
    /// 0x08 Write.
    public static let write = CharacteristicProperties(rawValue: 0x08)
    /// 0x10 Notify.
    public static let notify = CharacteristicProperties(rawValue: 0x10)
    /// 0x20 Indicate.
    public static let indicate = CharacteristicProperties(rawValue: 0x20)
    /// 0x40 Authenticated Signed Writes.
    public static let authenticatedSignedWrites = CharacteristicProperties(rawValue: 0x40)
    /// 0x80 Extended Properties.
    public static let extendedProperties = CharacteristicProperties(rawValue: 0x80)

    private static let labels: [(CharacteristicProperties, String)] = [
        (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "write-without-response"),
        (.write, "write"), (.notify, "notify"), (.indicate, "indicate"),
        (.authenticatedSignedWrites, "signed-write"), (.extendedProperties, "extended"),
    ]

    /// The set bits' names in bit order: ["read", "notify"].
    public var names: [String] { Self.labels.filter { contains($0.0) }.map(\.1) }
}
