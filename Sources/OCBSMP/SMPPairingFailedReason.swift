// Why pairing failed: the reason octet of a Pairing Failed PDU.

/// Pairing Failed reason codes, Core v5.4 Vol 3 Part H §3.5.5 Table 3.7; other values are reserved, kept as they came.
public struct SMPPairingFailedReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The reason octet.
    public var rawValue: UInt8
    /// A reason from its octet.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01 Passkey Entry Failed.
    public static let passkeyEntryFailed = SMPPairingFailedReason(rawValue: 0x01)
    /// 0x02 OOB Not Available.
    public static let oobNotAvailable = SMPPairingFailedReason(rawValue: 0x02)
    /// 0x03 Authentication Requirements.
    public static let authenticationRequirements = SMPPairingFailedReason(rawValue: 0x03)
    /// 0x04 Confirm Value Failed.
    public static let confirmValueFailed = SMPPairingFailedReason(rawValue: 0x04)
    /// 0x05 Pairing Not Supported.
    public static let pairingNotSupported = SMPPairingFailedReason(rawValue: 0x05)
    /// 0x06 Encryption Key Size.
    public static let encryptionKeySize = SMPPairingFailedReason(rawValue: 0x06)
    /// 0x07 Command Not Supported.
    public static let commandNotSupported = SMPPairingFailedReason(rawValue: 0x07)
    /// 0x08 Unspecified Reason.
    public static let unspecifiedReason = SMPPairingFailedReason(rawValue: 0x08)
    /// 0x09 Repeated Attempts.
    public static let repeatedAttempts = SMPPairingFailedReason(rawValue: 0x09)
    /// 0x0A Invalid Parameters.
    public static let invalidParameters = SMPPairingFailedReason(rawValue: 0x0A)
    /// 0x0B DHKey Check Failed.
    public static let dhKeyCheckFailed = SMPPairingFailedReason(rawValue: 0x0B)
    /// 0x0C Numeric Comparison Failed.
    public static let numericComparisonFailed = SMPPairingFailedReason(rawValue: 0x0C)
    /// 0x0D BR/EDR Pairing in Progress.
    public static let brEdrPairingInProgress = SMPPairingFailedReason(rawValue: 0x0D)
    /// 0x0E Cross-transport Key Derivation/Generation Not Allowed.
    public static let crossTransportKeyDerivationNotAllowed = SMPPairingFailedReason(rawValue: 0x0E)
    /// 0x0F Key Rejected.
    public static let keyRejected = SMPPairingFailedReason(rawValue: 0x0F)

    private static let names: [UInt8: String] = [
        0x01: "Passkey Entry Failed", 0x02: "OOB Not Available", 0x03: "Authentication Requirements",
        0x04: "Confirm Value Failed", 0x05: "Pairing Not Supported", 0x06: "Encryption Key Size",
        0x07: "Command Not Supported", 0x08: "Unspecified Reason", 0x09: "Repeated Attempts", 0x0A: "Invalid Parameters",
        0x0B: "DHKey Check Failed", 0x0C: "Numeric Comparison Failed", 0x0D: "BR/EDR Pairing in Progress",
        0x0E: "Cross-transport Key Derivation/Generation Not Allowed", 0x0F: "Key Rejected",
    ]

    /// "0x05 Pairing Not Supported", "0x42 reserved".
    public var description: String {
        let hex = String(rawValue, radix: 16, uppercase: true)
        return "0x" + (hex.count == 1 ? "0" : "") + hex + " " + (Self.names[rawValue] ?? "reserved")
    }
}
