// Every way a host operation can fail, with what failed and why.

import OCBCore
import OCBHCI
import OCBSMP

/// An error from a ``CentralHost``.
///
/// Controller statuses are HCI error codes (Core v5.4 Vol 1 Part F §1.3); commands are named by opcode
/// (Vol 4 Part E §7).
public enum HostError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system has no Bluetooth support: `socket(AF_BLUETOOTH, …)` failed with EAFNOSUPPORT.
    case noBluetoothSupport
    /// The process may not open the controller (EPERM/EACCES).
    case permissionDenied(String)
    /// The transport could not be opened or failed (what and the system error text).
    case transportFailed(String)
    /// The transport reached end of file or was closed under us.
    case transportClosed
    /// The controller sent Hardware Error (Vol 4 Part E §7.7.16) with this code.
    case hardwareError(UInt8)
    /// The request needs the host powered on; it is in this state.
    case notPoweredOn(HostState)
    /// The controller never answered the command within the command timeout.
    case commandTimeout(HCIOpcode)
    /// The controller answered the command with a non-zero status.
    case commandFailed(HCIOpcode, HCIErrorCode)
    /// The command's answer could not be decoded.
    case malformedResponse(HCIOpcode, String)
    /// The kernel's management interface answered a command with a non-zero status (BlueZ doc/mgmt-api.txt).
    case managementCommandFailed(ManagementOpcode, ManagementStatus)
    /// The controller does not support what was asked (its Supported Commands or LE Features lack it).
    case unsupported(String)
    /// The connect timeout passed before the connection was established.
    case connectTimeout(PeerAddress)
    /// The caller cancelled the connection attempt.
    case connectCancelled(PeerAddress)
    /// LE (Enhanced) Connection Complete reported this failure status.
    case connectionFailed(PeerAddress, HCIErrorCode)
    /// No connection with this handle exists (never did, or it ended).
    case notConnected(ConnectionHandle)
    /// The connection ended (Disconnection Complete reason) while the request was in flight.
    case disconnected(ConnectionHandle, HCIErrorCode)
    /// The peer did not answer an ATT request within 30 s (Core v5.4 Vol 3 Part F §3.3.3); the bearer is unusable.
    case attTimeout(ConnectionHandle)
    /// An ATT request is invalid (e.g. not a request PDU, or the bearer refused it), with the reason.
    case attRequestRejected(String)
    /// The host was stopped while the request was in flight.
    case stopped
    /// Pairing on the connection failed (Core v5.4 Vol 3 Part H §3.5.5): the reason, and whether the peer sent
    /// Pairing Failed (false: this side gave up, e.g. a confirm value did not match, or the 30 s SMP timeout).
    case pairingFailed(ConnectionHandle, SMPPairingFailedReason, byPeer: Bool)
    /// Pairing on the connection got no answer within the 30 s SMP timeout (Core v5.4 Vol 3 Part H §3.4).
    case pairingTimedOut(ConnectionHandle)
    /// The controller could not encrypt the link (HCI Encryption Change status, Vol 4 Part E §7.7.8): 0x06 PIN or
    /// Key Missing means the peer no longer has the bond's key (remove the bond and pair again).
    case encryptionFailed(ConnectionHandle, HCIErrorCode)
    /// The link is encrypted, yet the peer asks for more than this host can give (an authenticated key, which Just
    /// Works pairing never makes, or a longer key): what was asked.
    case insufficientSecurity(ConnectionHandle, String)

    public var description: String {
        switch self {
        case .noBluetoothSupport: "no Bluetooth support in this system (AF_BLUETOOTH unavailable)"
        case .permissionDenied(let what): "permission denied: \(what)"
        case .transportFailed(let what): "transport failed: \(what)"
        case .transportClosed: "transport closed"
        case .hardwareError(let code): "controller hardware error 0x\(String(code, radix: 16))"
        case .notPoweredOn(let state): "host is not powered on (\(state))"
        case .commandTimeout(let opcode): "command \(opcode) timed out"
        case .commandFailed(let opcode, let status): "command \(opcode) failed: \(status)"
        case .malformedResponse(let opcode, let why): "malformed answer to \(opcode): \(why)"
        case .managementCommandFailed(let opcode, let status): "management command \(opcode) failed: \(status)"
        case .unsupported(let what): "unsupported by the controller: \(what)"
        case .connectTimeout(let peer): "connection to \(peer) timed out"
        case .connectCancelled(let peer): "connection to \(peer) cancelled"
        case .connectionFailed(let peer, let status): "connection to \(peer) failed: \(status)"
        case .notConnected(let handle): "no connection with handle 0x\(String(handle.rawValue, radix: 16))"
        case .disconnected(let handle, let reason): "connection 0x\(String(handle.rawValue, radix: 16)) ended: \(reason)"
        case .attTimeout(let handle): "ATT transaction timed out on connection 0x\(String(handle.rawValue, radix: 16))"
        case .attRequestRejected(let why): "ATT request rejected: \(why)"
        case .stopped: "host stopped"
        case .pairingFailed(let handle, let reason, let byPeer) where byPeer && reason == .pairingNotSupported:
            "the peer on connection 0x\(String(handle.rawValue, radix: 16)) refused pairing (Pairing Failed: \(reason)): put it in pairing mode, or check whether it pairs with this host at all"
        case .pairingFailed(let handle, let reason, let byPeer):
            "pairing on connection 0x\(String(handle.rawValue, radix: 16)) failed: \(reason)\(byPeer ? " (Pairing Failed sent by the peer)" : " (this side gave up)")"
        case .pairingTimedOut(let handle):
            "pairing on connection 0x\(String(handle.rawValue, radix: 16)) timed out: the peer did not answer within 30 s (SMP timeout)"
        case .encryptionFailed(let handle, let status):
            status == .pinOrKeyMissing
                ? "the peer on connection 0x\(String(handle.rawValue, radix: 16)) no longer has the bond's key (PIN or Key Missing): remove the bond and pair again"
                : "encryption of connection 0x\(String(handle.rawValue, radix: 16)) failed: \(status)"
        case .insufficientSecurity(let handle, let what):
            "connection 0x\(String(handle.rawValue, radix: 16)) is encrypted, but the peer asks for \(what), which Just Works pairing cannot give"
        }
    }
}
