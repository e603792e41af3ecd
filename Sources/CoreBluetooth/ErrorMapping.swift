// How backend failures and HCI disconnect reasons become CBError and CBATTError values.
internal import OCBHCI
import Foundation

extension BackendError {
    /// The error iOS gives for this failure: ATT codes → `CBATTError` (code as on air), timeout →
    /// `CBError.connectionTimeout`, link lost → `.peripheralDisconnected`, no link → `.notConnected`, the peer's lost
    /// bond → `.peerRemovedPairingInformation`, the SMP timeout → `.encryptionTimedOut`, else `.unknown`; the host's
    /// text in `userInfo["OCBBackendReason"]` where there is one.
    var coreBluetoothError: any Error {
        switch self {
        case .att(let code): CBATTError(attErrorCode: code.rawValue)
        case .timeout: CBError(.connectionTimeout)
        case .disconnected, .controllerLost: CBError(.peripheralDisconnected)
        case .notConnected: CBError(.notConnected)
        case .peerRemovedPairingInformation(let text): CBError(.peerRemovedPairingInformation, userInfo: ["OCBBackendReason": text])
        case .encryptionTimedOut(let text): CBError(.encryptionTimedOut, userInfo: ["OCBBackendReason": text])
        case .other(let text): CBError(.unknown, userInfo: ["OCBBackendReason": text])
        }
    }
}

/// Maps HCI error codes (Core v5.4 Vol 1 Part F §1.3) to `CBError`.
enum DisconnectReason {
    /// For `didDisconnectPeripheral`: 0x08 Connection Timeout → `.connectionTimeout`; 0x06 PIN or Key Missing →
    /// `.peerRemovedPairingInformation`; 0x3E Connection Failed to be Established → `.connectionFailed`;
    /// everything else (0x13 Remote User Terminated, 0x16, 0x3D MIC failure, ...) → `.peripheralDisconnected`.
    static func disconnectError(_ reason: HCIErrorCode) -> CBError {
        CBError(code(reason, otherwise: .peripheralDisconnected), userInfo: ["OCBHCIReason": String(format: "0x%02X", reason.rawValue)])
    }

    /// For `didDisconnectPeripheral` when the link ended because the controller went away (powered off, removed, lost,
    /// unresponsive): `.peripheralDisconnected`, with `"OCBBackendReason"` saying so and the HCI reason reported.
    static func controllerLostError(_ reason: HCIErrorCode) -> CBError {
        CBError(.peripheralDisconnected, userInfo: ["OCBBackendReason": "the controller was lost (powered off, removed or not answering)",
                                                    "OCBHCIReason": String(format: "0x%02X", reason.rawValue)])
    }

    /// For `didDisconnectPeripheral` after the host ended the link because an ATT transaction got no response within
    /// 30 s (Vol 3 Part F §3.3.3): `.connectionTimeout`, with `"OCBBackendReason"` saying so and the HCI reason of the
    /// Disconnection Complete that followed.
    static func attTimeoutError(_ reason: HCIErrorCode) -> CBError {
        CBError(.connectionTimeout, userInfo: ["OCBBackendReason": "ATT transaction timed out (no response within 30 s)",
                                               "OCBHCIReason": String(format: "0x%02X", reason.rawValue)])
    }

    /// For `didFailToConnect`: 0x08 → `.connectionTimeout`, 0x06 → `.peerRemovedPairingInformation`,
    /// 0x09 Connection Limit Exceeded → `.connectionLimitReached`; everything else → `.connectionFailed`.
    static func connectError(_ reason: HCIErrorCode) -> CBError {
        let code: CBError.Code = reason == .connectionLimitExceeded ? .connectionLimitReached : Self.code(reason, otherwise: .connectionFailed)
        return CBError(code, userInfo: ["OCBHCIReason": String(format: "0x%02X", reason.rawValue)])
    }

    private static func code(_ reason: HCIErrorCode, otherwise: CBError.Code) -> CBError.Code {
        // Spelled out: HCIErrorCode is an Error, so a bare `.connectionTimeout` pattern would pick CBError.Code's
        // `~=` over any Error and never match.
        switch reason {
        case HCIErrorCode.connectionTimeout: .connectionTimeout
        case HCIErrorCode.pinOrKeyMissing: .peerRemovedPairingInformation
        case HCIErrorCode.connectionFailedToBeEstablished: .connectionFailed
        default: otherwise
        }
    }
}
