// What the per-connection fixed-channel router gives out.

import OCBHCI

/// One output of ``L2CAPConnectionRouter`` (Core v5.4 Vol 3 Part A §2.1, §4; Vol 3 Part H §3).
public enum L2CAPRouterEvent: Hashable, Sendable {
    /// An ATT PDU received on CID 0x0004, for the ATT bearer.
    case attributeProtocol([UInt8])
    /// An SMP command received on CID 0x0006, for the attached Security Manager (only when one is attached).
    case securityManager([UInt8])
    /// A frame to send (signaling answers, SMP Pairing Failed); fragment it with ``L2CAPFragmenter``.
    case send(L2CAPBasicFrame)
    /// The peer's connection parameter request was accepted: apply these with HCI LE Connection Update
    /// (Vol 4 Part E §7.8.18) on ``L2CAPConnectionRouter/handle``.
    case connectionParameterUpdate(L2CAPConnectionParameters)
    /// Any other fact from the LE signaling channel (responses, rejections of our requests, diagnostics).
    case signaling(L2CAPSignalingEvent)
    /// A frame the router dropped or answered on its own, for the log.
    case diagnostic(L2CAPRouterDiagnostic)
}

/// A frame the router dropped or answered itself.
public enum L2CAPRouterDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// A frame on a channel this stack does not serve (Vol 3 Part A §2.1); dropped.
    case unknownChannel(L2CAPChannelID, length: Int)
    /// A frame for another connection handle; dropped.
    case wrongHandle(ConnectionHandle)
    /// An SMP command with no Security Manager attached: `code` (nil when empty), and whether
    /// Pairing Failed (Pairing Not Supported) was sent in answer.
    case securityManagerUnavailable(code: UInt8?, answered: Bool)

    public var description: String {
        switch self {
        case .unknownChannel(let channel, let length): "\(length)-byte frame on unserved channel \(channel) dropped"
        case .wrongHandle(let handle): "frame for handle \(handle) given to another connection's router; dropped"
        case .securityManagerUnavailable(let code, let answered):
            "SMP command \(code.map { "0x" + String($0, radix: 16) } ?? "(empty)") with no Security Manager"
                + (answered ? "; answered Pairing Failed (Pairing Not Supported)" : "; dropped")
        }
    }
}
