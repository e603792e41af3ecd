// The command codes of the kernel's management interface (BlueZ doc/mgmt-api.txt) that the kernel path sends.

import OCBCore

/// The management command codes the kernel path uses (mgmt-api.txt); others keep their code.
public struct ManagementOpcode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The two-byte command code.
    public let rawValue: UInt16
    /// A code.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Read Controller Information Command, 0x0004.
    public static let readControllerInformation = ManagementOpcode(rawValue: 0x0004)
    /// Set Powered Command, 0x0005.
    public static let setPowered = ManagementOpcode(rawValue: 0x0005)
    /// Start Discovery Command, 0x0023.
    public static let startDiscovery = ManagementOpcode(rawValue: 0x0023)
    /// Stop Discovery Command, 0x0024.
    public static let stopDiscovery = ManagementOpcode(rawValue: 0x0024)
    /// Set Bondable.
    public static let setBondable = ManagementOpcode(rawValue: 0x0009)
    /// Set IO Capability.
    public static let setIOCapability = ManagementOpcode(rawValue: 0x0018)
    /// User Confirmation Reply.
    public static let userConfirmationReply = ManagementOpcode(rawValue: 0x001C)
    /// User Confirmation Negative Reply.
    public static let userConfirmationNegativeReply = ManagementOpcode(rawValue: 0x001D)
    /// Set Secure Connections.
    public static let setSecureConnections = ManagementOpcode(rawValue: 0x002D)
    /// Load Long Term Keys.
    public static let loadLongTermKeys = ManagementOpcode(rawValue: 0x0013)
    /// Load Identity Resolving Keys.
    public static let loadIdentityResolvingKeys = ManagementOpcode(rawValue: 0x0030)

    /// The document's name and the code, e.g. "Start Discovery (0x0023)".
    public var description: String {
        let names: [UInt16: String] = [0x0004: "Read Controller Information", 0x0005: "Set Powered",
                                       0x0023: "Start Discovery", 0x0024: "Stop Discovery"]
        return "\(names[rawValue] ?? "management command") (0x\(Hex.uppercase(rawValue, digits: 4)))"
    }
}
