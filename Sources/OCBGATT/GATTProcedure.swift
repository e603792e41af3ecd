// The shape every GATT procedure state machine shares: a first request, then one step per response.
import OCBATT

/// What a procedure does next: send a request, or end with its output or an error.
enum GATTStep<Output> {
    /// Send this request and feed its response (or Error Response) to ``GATTProcedure/receive(_:)``.
    case send(GATTRequest)
    /// The procedure ended with its output.
    case finished(Output)
    /// The procedure ended with an error; what it found so far stays readable on the procedure.
    case failed(GATTError)
}

/// A GATT procedure of Core v5.4 Vol 3 Part G §4 as a sans-I/O state machine: no I/O, no clocks.
///
/// ``start()`` gives the first step, ``receive(_:)`` the step after each response. A procedure never sends
/// more than one request at a time and never loops without progress.
protocol GATTProcedure {
    associatedtype Output
    /// The first step.
    mutating func start() -> GATTStep<Output>
    /// The step after the response to the last request sent.
    mutating func receive(_ response: GATTResponse) -> GATTStep<Output>
    /// The step after the response to the last request could not be used: `error` is ``GATTError/malformed(_:)``
    /// (it did not decode) or ``GATTError/unexpectedResponse(_:)`` (another kind than the request calls for).
    /// Default: the procedure fails with it; whole-database discovery fails only the part that sent the request.
    mutating func receiveInvalidResponse(_ error: GATTError) -> GATTStep<Output>
}

extension GATTProcedure {
    /// Fails the procedure with the error of an unusable response.
    mutating func receiveInvalidResponse(_ error: GATTError) -> GATTStep<Output> { .failed(error) }

    /// The failure for a response of the wrong kind.
    func unexpected(_ response: GATTResponse) -> GATTStep<Output> {
        if case .error(let code, let handle) = response { return .failed(.att(code, handle: handle)) }
        return .failed(.unexpectedResponse(response.name))
    }
}

/// The start handle after an entry ending at `last`, or nil when `last` reaches `end` or 0xFFFF
/// (Vol 3 Part G §4.4.1, §4.5.1, §4.6.1, §4.7.1: the sub-procedure ends there).
func nextHandle(after last: AttributeHandle, end: AttributeHandle) -> AttributeHandle? {
    guard last < end, last < 0xFFFF else { return nil }
    return last + 1
}

/// The error for a discovery entry at `handle` below `next`, where the request started or one past the previous
/// entry: handles in a discovery response increase and start at or after the requested Starting Handle (Core v5.4
/// Vol 3 Part F §3.4.3.2, §3.4.4.2, §3.4.4.10), so the response is malformed and the sub-procedure ends with an error,
/// never a success with a partial database. Nil when the handle is in order.
func handleOrderError(_ handle: AttributeHandle, next: AttributeHandle, response: String) -> GATTError? {
    guard handle < next else { return nil }
    return .malformed(GATTMalformedResponse(
        response: response,
        reason: "handle 0x\(hex16(handle)) lies below 0x\(hex16(next)), the requested start or one past the previous entry (handles must increase)"))
}
