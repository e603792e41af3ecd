// How a pairing authenticates: Just Works, Numeric Comparison or Passkey Entry, chosen from both sides' features.

/// The association model of a pairing (Core v5.4 Vol 3 Part H §2.3.5.1, Tables 2.6-2.8), OOB aside.
public enum SMPPairingMethod: Hashable, Sendable {
    /// No user step; the keys are unauthenticated.
    case justWorks
    /// LE Secure Connections only: both sides show a six-digit number (g2) and the users confirm they match.
    case numericComparison
    /// A six-digit passkey: `centralInputs` true when this side's user types it (the peripheral shows it), false when
    /// this side shows it (and the peripheral's user types it; when both type, this side's user types the same number
    /// on both).
    case passkeyEntry(centralInputs: Bool)

    /// The method for a central with `initiator` features and a peripheral with `responder` features: Just Works
    /// unless one side sets MITM (§2.3.5.1), else Table 2.8 (responder rows, initiator columns) with Numeric Comparison
    /// where both can show and confirm and `secureConnections` holds.
    public static func select(initiator: SMPPairingFeatures, responder: SMPPairingFeatures, secureConnections: Bool) -> SMPPairingMethod {
        let mitm = initiator.authenticationRequirements.contains(.mitm) || responder.authenticationRequirements.contains(.mitm)
        guard mitm else { return .justWorks }
        let i = initiator.ioCapability, r = responder.ioCapability
        if i == .noInputNoOutput || r == .noInputNoOutput { return .justWorks }
        let numeric: SMPPairingMethod = secureConnections ? .numericComparison : .justWorks
        switch (r, i) {
        case (.displayOnly, .displayOnly), (.displayOnly, .displayYesNo), (.displayYesNo, .displayOnly): return .justWorks
        case (.displayOnly, _): return .passkeyEntry(centralInputs: true)  // KeyboardOnly, KeyboardDisplay
        case (.displayYesNo, .displayYesNo): return numeric
        case (.displayYesNo, .keyboardOnly): return .passkeyEntry(centralInputs: true)
        case (.displayYesNo, .keyboardDisplay): return secureConnections ? .numericComparison : .passkeyEntry(centralInputs: true)
        case (.keyboardOnly, .keyboardOnly): return .passkeyEntry(centralInputs: true)
        case (.keyboardOnly, _): return .passkeyEntry(centralInputs: false)  // DisplayOnly, DisplayYesNo, KeyboardDisplay
        case (.keyboardDisplay, .displayOnly): return .passkeyEntry(centralInputs: false)
        case (.keyboardDisplay, .displayYesNo): return secureConnections ? .numericComparison : .passkeyEntry(centralInputs: false)
        case (.keyboardDisplay, .keyboardOnly): return .passkeyEntry(centralInputs: true)
        case (.keyboardDisplay, .keyboardDisplay): return secureConnections ? .numericComparison : .passkeyEntry(centralInputs: false)
        default: return .justWorks  // reserved IO capability values
        }
    }
}
