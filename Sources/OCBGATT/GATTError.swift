// The typed error every GATT procedure ends with when it does not succeed.
import OCBCore
import OCBATT

/// Why a GATT procedure failed (Core v5.4 Vol 3 Part G §4; ATT errors Vol 3 Part F §3.4.1.1).
public enum GATTError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server answered with an ATT Error Response: the error code and the Attribute Handle In Error.
    case att(ATTError, handle: AttributeHandle)
    /// The ATT transaction timed out (30 s, Vol 3 Part F §3.3.3); the bearer is closed.
    case timeout
    /// The connection (or the ATT bearer) went away before the procedure ended.
    case disconnected
    /// A response did not have the shape the procedure needs; what was found before it is kept.
    case malformed(GATTMalformedResponse)
    /// A response of another kind than the request calls for (the ATT opcode's spec name).
    case unexpectedResponse(String)
    /// The operation needs a bond the connection does not have (e.g. Signed Write without a CSRK, Vol 3 Part H §2.4.5).
    case needsBonding
    /// The attributes the operation named were invalidated by Service Changed (Vol 3 Part G §7.1).
    case invalidated
    /// The value is longer than the procedure can carry: `length` bytes given, `maximum` allowed
    /// (ATT_MTU-3 for Write Request and Write Command, 512 for a long write, Vol 3 Part F §3.2.9).
    case valueTooLong(length: Int, maximum: Int)
    /// A Prepare Write Response did not echo the request: the write was cancelled (Execute Write flags 0x00,
    /// Vol 3 Part G §4.9.5).
    case preparedValueMismatch(handle: AttributeHandle, offset: UInt16)
    /// The client was asked something it cannot do: e.g. Read Multiple of fewer than two handles, a handle of 0x0000.
    case invalidRequest(String)
    /// The operation needs an attribute the cache does not hold, e.g. a CCCD for a characteristic without one.
    case notFound(String)

    public var description: String {
        switch self {
        case .att(let code, let handle): "ATT error \(code) at handle 0x\(hex16(handle))"
        case .timeout: "ATT transaction timed out"
        case .disconnected: "disconnected"
        case .malformed(let detail): detail.description
        case .unexpectedResponse(let name): "unexpected \(name)"
        case .needsBonding: "needs bonding (no signing key)"
        case .invalidated: "attributes invalidated by Service Changed"
        case .valueTooLong(let length, let maximum): "value of \(length) bytes is longer than \(maximum)"
        case .preparedValueMismatch(let handle, let offset):
            "prepared write echo differs at handle 0x\(hex16(handle)) offset \(offset); write cancelled"
        case .invalidRequest(let what): "invalid request: \(what)"
        case .notFound(let what): "not found: \(what)"
        }
    }
}
