// What the LE signaling channel gives out: commands to send and facts for the host.

/// One output of ``L2CAPLESignalingChannel`` (Core v5.4 Vol 3 Part A §4).
public enum L2CAPSignalingEvent: Hashable, Sendable {
    /// A command to send on the LE signaling channel (CID 0x0005): the C-frame payload.
    case send(L2CAPSignalingCommand)
    /// The peer's Connection Parameter Update Request was accepted (result 0x0000 already queued as ``send(_:)``
    /// before this event); the host applies the parameters with HCI LE Connection Update (Vol 4 Part E §7.8.18).
    case connectionParameterUpdateAccepted(L2CAPConnectionParameters)
    /// The peer's Connection Parameter Update Request was out of bounds and rejected (result 0x0001).
    case connectionParameterUpdateRejected(L2CAPConnectionParameters)
    /// A response to one of our requests (matched by identifier).
    case response(request: L2CAPSignalingCode, command: L2CAPSignalingCommand)
    /// The peer answered one of our requests with L2CAP_COMMAND_REJECT_RSP.
    case requestRejected(request: L2CAPSignalingCode, identifier: UInt8, reason: L2CAPCommandRejectReason, data: [UInt8])
    /// Something the channel dropped or refused, for the log.
    case diagnostic(L2CAPSignalingDiagnostic)
}

/// A signaling fault, reported for the log (Core v5.4 Vol 3 Part A §4).
public enum L2CAPSignalingDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// A C-frame that is not a well-formed command; answered with Command Reject when its identifier was readable.
    case malformedCommand(L2CAPSignalingDecodingError, bytes: [UInt8])
    /// A command with identifier 0x00, which is never valid; dropped without an answer.
    case invalidIdentifier(L2CAPSignalingCode)
    /// A response whose identifier matches none of our outstanding requests; dropped (never answered).
    case unmatchedResponse(L2CAPSignalingCommand)
    /// A command we do not support, answered with Command Reject (the reason given).
    case rejected(L2CAPSignalingCode, identifier: UInt8, reason: L2CAPCommandRejectReason)
    /// An LE or enhanced credit based connection request, refused with result 0x0002 (SPSM not supported).
    case refusedCreditBasedConnection(L2CAPSignalingCode, spsm: UInt16)

    public var description: String {
        switch self {
        case .malformedCommand(let error, _): "malformed signaling command: \(error)"
        case .invalidIdentifier(let code): "\(code) with identifier 0x00 dropped"
        case .unmatchedResponse(let command): "\(command.code) with identifier \(command.identifier) matches no request; dropped"
        case .rejected(let code, let identifier, let reason): "\(code) (identifier \(identifier)) answered with Command Reject: \(reason)"
        case .refusedCreditBasedConnection(let code, let spsm): "\(code) for SPSM 0x\(String(spsm, radix: 16)) refused: SPSM not supported"
        }
    }
}
