// Running the GATT client's procedures on its ATT bearer: each in the bearer's queue, holding its turn to the end.
import OCBCore
import OCBATT

extension GATTClient {
    /// Hands the bearer's events to the procedures and subscribers until the bearer has nothing more to say, and
    /// returns the events the client does not consume, in order: ``OCBATT/ATTBearerEvent/send(_:)`` (PDUs for CID
    /// 0x0004), values no subscriber takes, ``OCBATT/ATTBearerEvent/mtuChanged(_:)`` (``mtu`` is the bearer's already),
    /// diagnostics, ``OCBATT/ATTBearerEvent/closed(_:)`` and the results of raw requests (``enqueue(_:now:)``).
    ///
    /// Call it after calling any procedure (the input calls run it themselves). It also starts the transaction timer
    /// of requests sent since the last call and checks the timeout at `now`. A transaction timeout fails every
    /// procedure with ``GATTError/timeout``, any other closure with ``GATTError/disconnected``.
    public func run(now: ContinuousClock.Instant) -> [ATTBearerEvent] {
        var passed: [ATTBearerEvent] = []
        while true {
            bearer.tick(now: now)
            let events = bearer.takeEvents()
            if events.isEmpty { return passed }
            for event in events {
                switch event {
                case .requestCompleted(let id, let result):
                    guard let procedure = running.removeValue(forKey: id) else {
                        passed.append(event)
                        continue
                    }
                    step(procedure, after: result, now: now)
                case .value(let handle, let value, _):
                    if !receiveValue(value, handle: handle) { passed.append(event) }
                default:
                    passed.append(event)
                }
            }
        }
    }

    /// Starts `procedure`: its first request goes into the bearer's queue (`ahead`: before every queued one), sized by
    /// ATT_MTU now. `finish` gets the procedure (for what it found) and its result, at once when the bearer is closed
    /// or the procedure needs no request.
    func start<Procedure: GATTProcedure>(
        _ procedure: Procedure, ahead: Bool = false,
        finish: @escaping (Procedure, Result<Procedure.Output, GATTError>) -> Void
    ) {
        let runner = GATTProcedureRunner(procedure, finish: finish)
        if let closedError { return runner.fail(closedError) }
        guard let request = runner.start() else { return }
        submit(request, of: runner, ahead: ahead, continuing: false, now: nil)
    }

    /// Gives one request of `runner` to the bearer: the first with `keepsTurn` at the end of the queue (or ahead),
    /// a later one (`continuing`) at once in the turn its previous request kept. Exchange MTU goes through the
    /// bearer's one offer per connection (``OCBATT/ATTBearer/exchangeMTU(clientRxMTU:now:)``) and keeps no turn.
    private func submit(_ request: GATTRequest, of runner: any GATTRunningProcedure, ahead: Bool, continuing: Bool,
                        now: ContinuousClock.Instant?) {
        switch request.pdu {
        case let exchange as ATTExchangeMTURequest:
            let id = bearer.exchangeMTU(clientRxMTU: exchange.clientRxMTU, now: now)
            running[id] = GATTRunningEntry(runner: runner, keepsTurn: false)
        case let pdu as any ATTRequestPDU:
            let id = continuing ? bearer.continueTurn(with: pdu, now: now)
                                : bearer.enqueue(pdu, now: now, ahead: ahead, keepsTurn: true)
            running[id] = GATTRunningEntry(runner: runner, keepsTurn: true)
        default:
            if continuing { bearer.endTurn(now: now) }
            runner.fail(.invalidRequest("\(request) is no ATT request"))
        }
    }

    /// Hands the result of a procedure's request to it, and sends its next request in its turn, or gives the turn back.
    private func step(_ entry: GATTRunningEntry, after result: Result<ATTPDU, ATTBearerError>, now: ContinuousClock.Instant) {
        let runner = entry.runner
        let next: GATTRequest?
        switch result {
        case .success(let pdu):
            // The bearer decoded the response already: pick its fields, do not encode and parse it again.
            do throws(GATTError) { next = runner.receive(try GATTResponse(pdu)) } catch { next = runner.receiveInvalid(error) }
        case .failure(.errorResponse(let response)):
            next = runner.receive(.error(response.error, handle: response.attributeHandle))
        case .failure(.invalidResponse(let error)):
            next = runner.receiveInvalid(.malformed(GATTMalformedResponse(error)))
        case .failure(.unexpectedResponse(let received, _)):
            next = runner.receiveInvalid(.unexpectedResponse(received.description))
        case .failure(.timeout):
            runner.fail(.timeout)
            next = nil
        case .failure(.bearerClosed):
            runner.fail(closedError ?? .disconnected)
            next = nil
        case .failure(let error):
            runner.fail(.invalidRequest(error.description))
            next = nil
        }
        if let next {
            submit(next, of: runner, ahead: true, continuing: entry.keepsTurn, now: now)
        } else if entry.keepsTurn {
            bearer.endTurn(now: now)
        }
    }
}

/// A running procedure and whether its request keeps the bearer's turn.
struct GATTRunningEntry {
    let runner: any GATTRunningProcedure
    let keepsTurn: Bool
}
