// The six octets a Pairing Request or Pairing Response carries: IO capability, OOB, AuthReq, key size, key distribution.

/// IO Capability (Core v5.4 Vol 3 Part H §3.5.1 Table 3.4); other values are reserved and kept as they came.
public struct SMPIOCapability: RawRepresentable, Hashable, Sendable {
    /// The octet.
    public var rawValue: UInt8
    /// A capability from its octet.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00 DisplayOnly.
    public static let displayOnly = SMPIOCapability(rawValue: 0x00)
    /// 0x01 DisplayYesNo.
    public static let displayYesNo = SMPIOCapability(rawValue: 0x01)
    /// 0x02 KeyboardOnly.
    public static let keyboardOnly = SMPIOCapability(rawValue: 0x02)
    /// 0x03 NoInputNoOutput (Just Works only).
    public static let noInputNoOutput = SMPIOCapability(rawValue: 0x03)
    /// 0x04 KeyboardDisplay.
    public static let keyboardDisplay = SMPIOCapability(rawValue: 0x04)
}

/// AuthReq (Vol 3 Part H §3.5.1 Figure 3.3): bonding flags (bits 0-1, 0b01 Bonding), MITM (bit 2), SC (bit 3),
/// Keypress (bit 4), CT2 (bit 5); bits 6-7 reserved, kept as they came.
public struct SMPAuthenticationRequirements: OptionSet, Hashable, Sendable {
    /// The octet.
    public var rawValue: UInt8
    /// The set of an octet.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bonding_Flags 0b01: the keys are stored (a bond).
    public static let bonding = SMPAuthenticationRequirements(rawValue: 0x01)
    /// Man-in-the-middle protection requested.
    public static let mitm = SMPAuthenticationRequirements(rawValue: 0x04)
    /// LE Secure Connections supported.
    public static let secureConnections = SMPAuthenticationRequirements(rawValue: 0x08)
    /// Keypress notifications in Passkey Entry.
    public static let keypress = SMPAuthenticationRequirements(rawValue: 0x10)
    /// h7 supported for link key conversion.
    public static let ct2 = SMPAuthenticationRequirements(rawValue: 0x20)
}

/// Key distribution (Vol 3 Part H §3.6.1 Figure 3.11): which keys a side sends in the key distribution phase.
public struct SMPKeyDistribution: OptionSet, Hashable, Sendable {
    /// The octet.
    public var rawValue: UInt8
    /// The set of an octet.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// EncKey: LTK with EDIV and Rand (legacy), nothing in Secure Connections (the LTK is f5's).
    public static let encryptionKey = SMPKeyDistribution(rawValue: 0x01)
    /// IdKey: IRK and the identity address.
    public static let identityKey = SMPKeyDistribution(rawValue: 0x02)
    /// SignKey: CSRK.
    public static let signingKey = SMPKeyDistribution(rawValue: 0x04)
    /// LinkKey: derive the BR/EDR link key (cross-transport).
    public static let linkKey = SMPKeyDistribution(rawValue: 0x08)
}

/// The data of a Pairing Request (0x01) or Pairing Response (0x02), Vol 3 Part H §3.5.1/§3.5.2, in PDU order.
public struct SMPPairingFeatures: Hashable, Sendable {
    /// The side's input and output capabilities.
    public var ioCapability: SMPIOCapability
    /// OOB data flag: 0x01 when OOB authentication data from the remote device is present.
    public var oobDataPresent: Bool
    /// AuthReq: bonding, MITM, Secure Connections, keypress, CT2.
    public var authenticationRequirements: SMPAuthenticationRequirements
    /// Maximum Encryption Key Size, 7...16 octets (a value outside is refused with Encryption Key Size, §3.5.5).
    public var maximumEncryptionKeySize: UInt8
    /// The keys the initiator (the central) distributes.
    public var initiatorKeyDistribution: SMPKeyDistribution
    /// The keys the responder (the peripheral) distributes.
    public var responderKeyDistribution: SMPKeyDistribution

    /// Makes the features.
    public init(ioCapability: SMPIOCapability, oobDataPresent: Bool = false, authenticationRequirements: SMPAuthenticationRequirements,
                maximumEncryptionKeySize: UInt8 = 16, initiatorKeyDistribution: SMPKeyDistribution, responderKeyDistribution: SMPKeyDistribution) {
        self.ioCapability = ioCapability
        self.oobDataPresent = oobDataPresent
        self.authenticationRequirements = authenticationRequirements
        self.maximumEncryptionKeySize = maximumEncryptionKeySize
        self.initiatorKeyDistribution = initiatorKeyDistribution
        self.responderKeyDistribution = responderKeyDistribution
    }

    /// The six octets in PDU order.
    public var bytes: [UInt8] {
        [ioCapability.rawValue, oobDataPresent ? 0x01 : 0x00, authenticationRequirements.rawValue, maximumEncryptionKeySize,
         initiatorKeyDistribution.rawValue, responderKeyDistribution.rawValue]
    }

    /// From the six octets (the caller checked the length). An OOB flag other than 0x00/0x01 counts as present.
    init(_ data: ArraySlice<UInt8>) {
        let at = data.startIndex
        self.init(ioCapability: SMPIOCapability(rawValue: data[at]), oobDataPresent: data[at + 1] != 0x00,
                  authenticationRequirements: SMPAuthenticationRequirements(rawValue: data[at + 2]),
                  maximumEncryptionKeySize: data[at + 3], initiatorKeyDistribution: SMPKeyDistribution(rawValue: data[at + 4]),
                  responderKeyDistribution: SMPKeyDistribution(rawValue: data[at + 5]))
    }
}
