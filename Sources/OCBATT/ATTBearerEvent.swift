// What the ATT bearer gives out: PDUs to send, values, request results, MTU changes, diagnostics, closure.

/// How a server-initiated value arrived (Core v5.4 Vol 3 Part F §3.4.7).
public enum ATTValueKind: Hashable, Sendable {
    /// ATT_HANDLE_VALUE_NTF or one value of ATT_MULTIPLE_HANDLE_VALUE_NTF (no confirmation).
    case notification
    /// ATT_HANDLE_VALUE_IND (the bearer sends the confirmation right after the value event).
    case indication
}

/// Why the bearer closed.
public enum ATTBearerCloseReason: Hashable, Sendable {
    /// A transaction timed out (§3.3.3): no further ATT PDUs may be sent on this bearer.
    case transactionTimeout
    /// The owner closed it (e.g. the link disconnected).
    case closedByOwner
}

/// One output of ``ATTBearer``, taken with ``ATTBearer/takeEvents()`` in the order produced.
public enum ATTBearerEvent: Hashable, Sendable {
    /// An ATT PDU to send on CID 0x0004 (at most ATT_MTU bytes).
    case send([UInt8])
    /// A notified or indicated value (the GATT client routes it to its subscriber). For an indication the confirmation
    /// ``send(_:)`` follows immediately after this event.
    case value(handle: AttributeHandle, value: [UInt8], kind: ATTValueKind)
    /// A request finished: its response PDU, or why it failed.
    case requestCompleted(ATTRequestID, Result<ATTPDU, ATTBearerError>)
    /// A request was answered with Insufficient Authentication, Encryption or Encryption Key Size while
    /// ``ATTBearer/raisesSecurityOnError`` is set: it waits for ``ATTBearer/securityRaised(now:)`` or
    /// ``ATTBearer/securityNotRaised(now:)``; the Error Response says which error (Core v5.4 Vol 3 Part G §4.2.1, §8.1).
    case securityRequired(ATTErrorResponse)
    /// ATT_MTU changed to this many bytes.
    case mtuChanged(Int)
    /// Something dropped or answered on the bearer's own, for the log.
    case diagnostic(ATTBearerDiagnostic)
    /// The bearer closed; every later request fails with ``ATTBearerError/bearerClosed``.
    case closed(ATTBearerCloseReason)
}

/// A PDU the bearer dropped or answered itself (Core v5.4 Vol 3 Part F §3.3, §3.4).
public enum ATTBearerDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// A response with no request pending, or not the response of the pending request; dropped.
    case unexpectedResponse(ATTOpcode, pending: ATTOpcode?)
    /// An Error Response naming another request than the pending one; dropped, the request stays pending.
    case mismatchedErrorResponse(ATTErrorResponse, pending: ATTOpcode?)
    /// A PDU that could not be decoded (answered with Invalid PDU when it was a request).
    case malformedPDU(ATTDecodingError)
    /// A PDU larger than our receive MTU that was not a response; dropped (a request is answered Invalid PDU).
    case exceedsReceiveMTU(ATTOpcode, length: Int)
    /// A request from the peer answered by our minimal server (the error sent, nil for a success response).
    case answeredPeerRequest(ATTOpcode, error: ATTError?)
    /// A command from the peer; commands are never answered.
    case ignoredCommand(ATTOpcode)
    /// A confirmation from the peer, though we never send indications; dropped.
    case unexpectedConfirmation
    /// An empty ATT payload; dropped.
    case emptyPDU
    /// A PDU received after the bearer closed; dropped.
    case receivedWhileClosed(ATTOpcode?)

    public var description: String {
        switch self {
        case .unexpectedResponse(let opcode, let pending): "\(opcode.name) with \(pending.map { "\($0.name) pending" } ?? "no request pending"); dropped"
        case .mismatchedErrorResponse(let response, let pending):
            "ATT_ERROR_RSP for \(response.requestOpcode.name) while \(pending?.name ?? "nothing") is pending; dropped"
        case .malformedPDU(let error): "\(error)"
        case .exceedsReceiveMTU(let opcode, let length): "\(opcode.name) of \(length) bytes exceeds our receive MTU; dropped"
        case .answeredPeerRequest(let opcode, let error): "answered peer's \(opcode.name) with \(error.map { "\($0)" } ?? "a response")"
        case .ignoredCommand(let opcode): "peer's \(opcode.name) ignored (commands are not answered)"
        case .unexpectedConfirmation: "ATT_HANDLE_VALUE_CFM without an indication of ours; dropped"
        case .emptyPDU: "empty ATT PDU dropped"
        case .receivedWhileClosed(let opcode): "\(opcode?.name ?? "empty PDU") after the bearer closed; dropped"
        }
    }
}
