// The Characteristic Properties bit field of a characteristic declaration.

/// Characteristic Properties, one byte of the characteristic declaration value (Core v5.4 Vol 3 Part G §3.3.1.1, Table 3.5).
///
/// Bits: 0x01 Broadcast, 0x02 Read, 0x04 Write Without Response, 0x08 Write, 0x10 Notify, 0x20 Indicate,
/// 0x40 Authenticated Signed Writes, 0x80 Extended Properties. All bits are kept as received.
public struct GATTCharacteristicProperties: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The byte as received.
    public let rawValue: UInt8

    /// Makes the set from the declaration byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: the value may be broadcast in a Server Characteristic Configuration.
    public static let broadcast = GATTCharacteristicProperties(rawValue: 0x01)
    /// 0x02: the value may be read.
    public static let read = GATTCharacteristicProperties(rawValue: 0x02)
    /// 0x04: the value may be written with Write Without Response.
    public static let writeWithoutResponse = GATTCharacteristicProperties(rawValue: 0x04)
    /// 0x08: the value may be written with a Write Request.
    public static let write = GATTCharacteristicProperties(rawValue: 0x08)
    /// 0x10: the server may notify the value.
    public static let notify = GATTCharacteristicProperties(rawValue: 0x10)
    /// 0x20: the server may indicate the value.
    public static let indicate = GATTCharacteristicProperties(rawValue: 0x20)
    /// 0x40: the value may be written with a Signed Write Command.
    public static let authenticatedSignedWrites = GATTCharacteristicProperties(rawValue: 0x40)
    /// 0x80: a Characteristic Extended Properties descriptor follows.
    public static let extendedProperties = GATTCharacteristicProperties(rawValue: 0x80)

    public var description: String {
        let names: [(GATTCharacteristicProperties, String)] = [
            (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "writeWithoutResponse"),
            (.write, "write"), (.notify, "notify"), (.indicate, "indicate"),
            (.authenticatedSignedWrites, "authenticatedSignedWrites"), (.extendedProperties, "extendedProperties"),
        ]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}
