// A running procedure behind a type-erased face, so the client can queue procedures of different outputs.

/// A procedure the client has started: it gives requests and, when it ends, calls its completion.
protocol GATTRunningProcedure: AnyObject {
    /// The first request, or nil when the procedure ended at once (its completion has run).
    func start() -> GATTRequest?
    /// The next request after `response`, or nil when the procedure ended (its completion has run).
    func receive(_ response: GATTResponse) -> GATTRequest?
    /// The next request after a response that could not be used (malformed, or of the wrong kind), or nil when the
    /// procedure ended (its completion has run).
    func receiveInvalid(_ error: GATTError) -> GATTRequest?
    /// Ends the procedure with `error` (timeout, disconnection, a request the bearer could not carry).
    func fail(_ error: GATTError)
}

/// Runs one ``GATTProcedure`` and hands its result, with the procedure itself (for partial results), to `finish`.
final class GATTProcedureRunner<Procedure: GATTProcedure>: GATTRunningProcedure {
    private var procedure: Procedure
    private var finish: ((Procedure, Result<Procedure.Output, GATTError>) -> Void)?

    init(_ procedure: Procedure, finish: @escaping (Procedure, Result<Procedure.Output, GATTError>) -> Void) {
        self.procedure = procedure
        self.finish = finish
    }

    func start() -> GATTRequest? { take(procedure.start()) }

    func receive(_ response: GATTResponse) -> GATTRequest? { take(procedure.receive(response)) }

    func receiveInvalid(_ error: GATTError) -> GATTRequest? { take(procedure.receiveInvalidResponse(error)) }

    func fail(_ error: GATTError) { end(.failure(error)) }

    private func take(_ step: GATTStep<Procedure.Output>) -> GATTRequest? {
        switch step {
        case .send(let request): return request
        case .finished(let output): end(.success(output))
        case .failed(let error): end(.failure(error))
        }
        return nil
    }

    /// Calls the completion once.
    private func end(_ result: Result<Procedure.Output, GATTError>) {
        guard let finish else { return }
        self.finish = nil
        finish(procedure, result)
    }
}
