// CoreBluetooth errors as the short text cbtool's one-line messages end with.

import OCBATT
import CoreBluetooth
import Foundation

/// Describes a `CBATTError`, `CBError` or any other error in a few words.
enum ErrorText {
    /// "ATT error 0x02 Read Not Permitted", "the peripheral disconnected (HCI reason 0x13)", "connection failed (0x3E)".
    static func describe(_ error: any Error) -> String {
        if let att = error as? CBATTError {
            let code = UInt8(clamping: att.errorCode)
            return "ATT error " + hex(code) + " " + ATTError(rawValue: code).description
        }
        if let cb = error as? CBError {
            var text: String = switch cb.code {
            case .peripheralDisconnected: "the peripheral disconnected"
            case .connectionTimeout: "timeout (the link or the ATT transaction timed out)"
            case .connectionFailed: "the connection failed"
            case .notConnected: "not connected"
            case .invalidHandle: "the attribute is no longer valid"
            case .uuidNotAllowed: "not allowed for this UUID"
            case .connectionLimitReached: "the controller's connection limit is reached"
            case .peerRemovedPairingInformation: "the peer removed its pairing information"
            default: cb.localizedDescription.trimmingCharacters(in: CharacterSet(charactersIn: "."))
            }
            let backendReason = cb.userInfo["OCBBackendReason"] as? String
            // A link the controller's loss ended: say that, not that the peripheral disconnected.
            if cb.code == .peripheralDisconnected, let backendReason { text = backendReason }
            if let reason = cb.userInfo["OCBHCIReason"] as? String { text += " (HCI reason \(reason))" }
            // For .unknown the reason is the whole story ("Unknown error (…)" says nothing more).
            if let backendReason, cb.code == .unknown { return backendReason }
            if let backendReason, cb.code != .peripheralDisconnected { text += " (\(backendReason))" }
            return text
        }
        return "\(error)"
    }

    /// "0x02".
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" : "") + digits
    }
}
