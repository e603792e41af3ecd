// What a pairing asks of the user (Passkey Entry, Numeric Comparison) and the user's answer.

/// A user step of pairing (Core v5.4 Vol 3 Part H §2.3.5.1), reported with ``HostEvent/pairingPrompt(handle:prompt:)``
/// when the host pairs with an IO capability other than NoInputNoOutput (``SecurityConfiguration/ioCapability``).
public enum PairingPrompt: Sendable, Hashable {
    /// Type the six-digit passkey the peripheral shows: answer ``PairingAnswer/passkey(_:)`` or ``PairingAnswer/cancel``.
    case enterPasskey
    /// Show this passkey (0...999,999, six digits with leading zeros) for the user to type on the peripheral; no answer.
    case displayPasskey(UInt32)
    /// Show this six-digit number and ask whether the peripheral shows the same: answer ``PairingAnswer/confirm(_:)``.
    case confirmNumber(UInt32)
}

/// The user's answer to a ``PairingPrompt`` (``CentralHost/answerPairing(_:_:)``).
public enum PairingAnswer: Sendable, Hashable {
    /// The passkey typed (0...999,999; a larger value fails the pairing with Passkey Entry Failed).
    case passkey(UInt32)
    /// Yes (the numbers match) or no (Numeric Comparison Failed).
    case confirm(Bool)
    /// The user gave up: Pairing Failed (Passkey Entry Failed or Numeric Comparison Failed).
    case cancel
}
