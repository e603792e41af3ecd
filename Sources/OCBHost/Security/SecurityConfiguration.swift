// How a full host pairs and where it keeps its bonds: the settings of its Security Manager.

import Foundation
import OCBSMP

/// Security settings of a ``HostController`` (Core v5.4 Vol 3 Part H).
///
/// By default the host pairs as a NoInputNoOutput initiator: Just Works, with LE Secure Connections when the peer
/// supports it, legacy pairing otherwise; the keys it gets are unauthenticated (security level 2). With
/// ``ioCapability`` KeyboardDisplay (a user at hand, ``HostEvent/pairingPrompt(handle:prompt:)``) it asks for MITM
/// protection: Passkey Entry or Numeric Comparison as the peer's IO capability allows, authenticated keys (level 3/4).
public struct SecurityConfiguration: Sendable {
    /// Where bonds are kept: `stateDirectory/bonds/CONTROLLER/PEER.json` (``BondStore``); nil: ``StateDirectory``'s
    /// directory from the environment at each start.
    public var stateDirectory: URL?
    /// Ask for bonding (Bonding_Flags 0b01, and the peer's LTK, IRK and CSRK): the keys are stored and the link is
    /// re-encrypted with them on later connections without pairing again. False: pair for this connection only.
    public var bondable = true
    /// A request answered with Insufficient Authentication (0x05), Insufficient Encryption (0x0F) or Encryption Key
    /// Size Too Short (0x0C) starts encryption (or pairing) and is sent again once the link is encrypted, as iOS
    /// and BlueZ do (Vol 3 Part G §8.1). False: the error goes to the requester.
    public var pairsOnInsufficientSecurity = true
    /// This side's IO capability in pairing (Vol 3 Part H §2.3.2); NoInputNoOutput by default (Just Works only).
    /// Changed at run time with ``CentralHost/setPairingIOCapability(_:)``.
    public var ioCapability: SMPIOCapability = .noInputNoOutput
    /// Nonces and key pairs of pairing; libcrypto's and getrandom's by default (tests inject fixed ones).
    public var random: any SMPRandomSource = SystemSMPRandomSource()

    /// The defaults: bondable, pairing on insufficient security, bonds in the state directory.
    public init(stateDirectory: URL? = nil) {
        self.stateDirectory = stateDirectory
    }
}
