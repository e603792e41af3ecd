// Why an ATT request failed or a command was refused on the bearer.

/// The failure of a request (in ``ATTBearerEvent/requestCompleted(_:_:)``) or the refusal of a command
/// (thrown by ``ATTBearer/send(_:)``), Core v5.4 Vol 3 Part F §3.3, §3.4.
public enum ATTBearerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server answered with ATT_ERROR_RSP (§3.4.1.1).
    case errorResponse(ATTErrorResponse)
    /// No response within the transaction timeout (30 s, §3.3.3); the bearer is now closed. Requests queued
    /// behind the timed-out one fail with this too.
    case timeout
    /// The bearer was closed (after a timeout, or the link is gone) before the request could be sent.
    case bearerClosed
    /// The PDU (`length` bytes) does not fit ATT_MTU (`mtu` bytes); nothing was sent.
    case exceedsMTU(length: Int, mtu: Int)
    /// The response (`length` bytes) is larger than our receive MTU; the request fails rather than reading a cut value.
    case responseExceedsReceiveMTU(length: Int, receiveMTU: Int)
    /// The response (or Error Response) to the request was malformed.
    case invalidResponse(ATTDecodingError)
    /// The server answered the pending request with a response of another kind (`received`, where only `expected` or
    /// ATT_ERROR_RSP can answer it, §3.3.2 and §3.4.1.1): a protocol error; the request fails at once rather than
    /// waiting for the transaction timeout, and the next queued request goes out.
    case unexpectedResponse(ATTOpcode, expected: ATTOpcode)
    /// Exchange MTU was already offered on this bearer (the client sends it once per connection, §3.4.2.1).
    case mtuAlreadyExchanged

    public var description: String {
        switch self {
        case .errorResponse(let response): "\(response.requestOpcode.name) on handle 0x\(String(response.attributeHandle.rawValue, radix: 16)): \(response.error)"
        case .timeout: "ATT transaction timed out (30 s); bearer closed"
        case .bearerClosed: "ATT bearer closed"
        case .exceedsMTU(let length, let mtu): "PDU of \(length) bytes exceeds ATT_MTU \(mtu)"
        case .responseExceedsReceiveMTU(let length, let receiveMTU): "response of \(length) bytes exceeds our receive MTU \(receiveMTU)"
        case .invalidResponse(let error): "invalid response: \(error)"
        case .unexpectedResponse(let received, let expected): "protocol error: \(received.name) received where \(expected.name) answers the request"
        case .mtuAlreadyExchanged: "Exchange MTU already offered on this bearer"
        }
    }
}
