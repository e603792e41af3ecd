// L2CAP channel identifiers and the LE fixed channels (Core v5.4 Vol 3 Part A §2.1).

import OCBCore

/// An L2CAP channel identifier (CID), the 16-bit endpoint name in every basic frame header.
///
/// LE-U fixed channels (Core v5.4 Vol 3 Part A §2.1, Table 2.3): 0x0004 Attribute protocol,
/// 0x0005 LE signaling, 0x0006 Security Manager protocol. 0x0040...0x007F are dynamically allocated
/// (LE credit based channels), which this stack does not open.
public struct L2CAPChannelID: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The 16-bit CID.
    public var rawValue: UInt16

    /// Wraps a 16-bit CID.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Wraps a CID literal, e.g. `0x0004`.
    public init(integerLiteral value: UInt16) { rawValue = value }

    /// 0x0004: the Attribute protocol fixed channel (Vol 3 Part A §2.1).
    public static let attributeProtocol: L2CAPChannelID = 0x0004
    /// 0x0005: the LE signaling channel (Vol 3 Part A §4).
    public static let leSignaling: L2CAPChannelID = 0x0005
    /// 0x0006: the Security Manager protocol fixed channel (Vol 3 Part H §3).
    public static let securityManagerProtocol: L2CAPChannelID = 0x0006

    public var description: String {
        "0x" + Hex.uppercase(rawValue, digits: 4)
    }
}
