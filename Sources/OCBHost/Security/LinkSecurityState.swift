// What the full host keeps of one link's security: the protection in force and the procedure raising it.

import OCBCore
import OCBSMP

/// One link's security on the host's queue (owned by its ``LinkState``).
///
/// At most one procedure runs at a time: encryption with a bond's key (HCI LE Enable Encryption, Core v5.4 Vol 4
/// Part E §7.8.24) or pairing (``OCBSMP/SMPInitiator``). Whoever asks while one runs waits for its outcome. Bound: one
/// waiter per caller; the ATT bearer parks at most one request (its queue waits behind it).
struct LinkSecurityState {
    /// The procedure raising the link's security.
    enum Procedure {
        /// LE Enable Encryption with this bond's LTK; Encryption Change ends it.
        case encrypting(Bond)
        /// Pairing; its outputs drive the link (SMP PDUs, encryption) until it completes or fails.
        case pairing(SMPInitiator)
    }

    /// The protection in force.
    var current = LinkSecurity()
    /// The running procedure; nil when none.
    var procedure: Procedure?
    /// Called with the outcome of the running procedure (each once).
    var waiters: [(Result<LinkSecurity, HostError>) -> Void] = []
    /// True while the link's ATT bearer holds a request for the outcome (``OCBATT/ATTBearer/securityRaised(now:)``).
    var attWaiting = false
    /// True once pairing was tried on this link and failed: an ATT error does not start it again (iOS asks once).
    var pairingFailed = false
    /// The prompt the user is asked now (``HostEvent/pairingPrompt(handle:prompt:id:)``); nil when none waits.
    var promptID: UInt64?
    /// True after an SMP timeout: no SMP procedure may run on this link any more (Vol 3 Part H §3.4).
    var smpTimedOut = false
    /// When encryption with a bond's key is given up: no Encryption Change within the LL procedure response timeout.
    var encryptionDeadline: ContinuousClock.Instant?
    /// The LL procedure response timeout (40 s, Core v5.4 Vol 6 Part B §5.2) and a margin.
    static let encryptionTimeout = Duration.seconds(42)

    /// True when the link is (or is being) encrypted with a bond's key.
    var usesBondKey: Bool {
        if case .encrypting = procedure { return true }
        return current.bonded
    }

    /// When the running pairing times out (30 s after its last PDU, Vol 3 Part H §3.4) or the encryption with a bond's
    /// key is given up; nil otherwise.
    var nextDeadline: ContinuousClock.Instant? {
        if case .pairing(let initiator) = procedure { return initiator.nextDeadline }
        return encryptionDeadline
    }
}
