// One connection's GATT client (which owns its ATT bearer), plus the raw ATT requests the host API queues on that bearer.

import OCBHCI
import OCBATT
import OCBCore
import OCBGATT

/// The ATT side of one connection, used by both hosts on their queue only (Core v5.4 Vol 3 Part F §3.3).
///
/// The ``GATTClient`` owns the connection's one ``ATTBearer``: its procedures and the raw requests of
/// ``CentralHost/sendATTRequest(_:on:completion:)`` share the bearer's FIFO (one outstanding request, 30 s timeout).
/// Every input (`receive`, `tick`, a request, a procedure started in `withGATT`) ends with the client's run, and
/// returns what the host must do: PDUs to send on CID 0x0004, a new ATT_MTU, diagnostic lines, values no
/// subscriber took. Completions (raw and GATT) run inside these calls, on the host's queue. Package-visible so the
/// libFuzzer harness (Sources/FuzzHarness, target gatt-client) drives this very wiring.
package final class LinkATT {
    /// What the host has to do after a call.
    package struct Output {
        /// ATT PDUs for CID 0x0004, in order.
        package var send: [[UInt8]] = []
        /// The new ATT_MTU in bytes, when it changed.
        package var mtu: UInt16?
        /// Lines for ``HostEvent/diagnostic(_:)``.
        package var diagnostics: [String] = []
        /// Notifications and indications no GATT subscriber took, each as a Handle Value Notification (0x1B) or
        /// Indication (0x1D) PDU, for ``HostEvent/attReceived(handle:pdu:)`` (the indication is confirmed already).
        package var unclaimedValues: [[UInt8]] = []
        /// True in the output of the call in which the bearer closed on a transaction timeout (Vol 3 Part F §3.3.3):
        /// no ATT PDU may be sent on this bearer any more, so the host disconnects the link.
        package var transactionTimedOut = false
        /// The Error Response of a request the bearer parked until the link's security is raised
        /// (``OCBATT/ATTBearerEvent/securityRequired(_:)``): the host pairs or encrypts, then calls
        /// ``securityRaised(now:)`` or ``securityNotRaised(now:)``.
        package var securityRequired: ATTErrorResponse?
        /// False when the call left the transaction deadline (``nextDeadline``) as it was, so the host's timer needs no
        /// re-arming: a received notification, say. True unless the call checked.
        package var deadlineChanged = true
    }

    /// The connection this is the ATT side of.
    package let handle: ConnectionHandle
    /// The connection's GATT client, which owns its ATT bearer (used on the host's queue only).
    package let client: GATTClient
    private var rawHandlers: [ATTRequestID: (Result<[UInt8], HostError>) -> Void] = [:]
    /// Why the bearer closed, for raw requests failing with "bearer closed".
    private var closeError: HostError?

    /// Lines the GATT client reported during the current call, for ``Output/diagnostics``.
    private var clientDiagnostics: [String] = []

    /// True once the bearer closed on a transaction timeout; the link's end is then reported with
    /// ``HostError/attTimeout(_:)``.
    package private(set) var timedOut = false

    /// Makes the ATT side of a new connection: its GATT client and bearer (`receiveMTU` offered and accepted, the
    /// ATT transaction timeout), no raw request waiting.
    package init(handle: ConnectionHandle, receiveMTU: UInt16 = ATTBearer.defaultReceiveMTU,
         transactionTimeout: Duration = ATTBearer.defaultTransactionTimeout) {
        self.handle = handle
        client = GATTClient(receiveMTU: receiveMTU, transactionTimeout: transactionTimeout)
        client.diagnosticHandler = { [unowned self] line in clientDiagnostics.append(line) }
    }

    /// When the outstanding request times out.
    package var nextDeadline: ContinuousClock.Instant? { client.nextDeadline }

    /// True once the bearer closed (transaction timeout or link end): nothing more goes out.
    package var isClosed: Bool { client.isClosed }

    /// ATT_MTU in bytes: the bearer's.
    package var mtu: Int { client.mtu }

    /// The bearer's ATT_MTU as this link publishes it to other threads (updated on each change).
    let publishedMTU = LinkMTU()

    /// Runs the GATT client over its bearer and sorts out what is left for the host.
    package func run(now: ContinuousClock.Instant) -> Output {
        sort(client.run(now: now))
    }

    /// Sorts the events the GATT client did not consume into what the host must do.
    private func sort(_ events: [ATTBearerEvent]) -> Output {
        var output = Output()
        for event in events {
            switch event {
            case .send(let pdu):
                output.send.append(pdu)
            case .requestCompleted(let id, let result):
                guard let handler = rawHandlers.removeValue(forKey: id) else { continue }
                handler(map(result))
            case .mtuChanged(let mtu):
                output.mtu = UInt16(clamping: mtu)
                publishedMTU.publish(mtu)
            case .closed(let reason):
                if reason == .transactionTimeout {
                    closeError = closeError ?? .attTimeout(handle)
                    timedOut = true
                    output.transactionTimedOut = true
                }
            case .securityRequired(let response):
                output.securityRequired = response
            case .diagnostic(let diagnostic):
                output.diagnostics.append("ATT on 0x\(String(handle.rawValue, radix: 16)): \(diagnostic)")
            case .value(let valueHandle, let value, .notification):
                output.unclaimedValues.append(ATTHandleValueNotification(attributeHandle: valueHandle, attributeValue: value).bytes)
            case .value(let valueHandle, let value, .indication):
                output.unclaimedValues.append(ATTHandleValueIndication(attributeHandle: valueHandle, attributeValue: value).bytes)
            }
        }
        output.diagnostics += clientDiagnostics.map { "GATT on 0x\(String(handle.rawValue, radix: 16)): \($0)" }
        clientDiagnostics.removeAll()
        return output
    }

    /// The link's security was raised: the parked request goes again.
    package func securityRaised(now: ContinuousClock.Instant) -> Output {
        sort(client.securityRaised(now: now))
    }

    /// The link's security could not be raised: the parked request completes with its Error Response.
    package func securityNotRaised(now: ContinuousClock.Instant) -> Output {
        sort(client.securityNotRaised(now: now))
    }

    /// One PDU received on CID 0x0004.
    package func receive(_ pdu: [UInt8], now: ContinuousClock.Instant) -> Output {
        let before = client.nextDeadline
        var output = sort(client.receive(pdu, now: now))
        output.deadlineChanged = client.nextDeadline != before
        return output
    }

    /// Checks the transaction timeout.
    package func tick(now: ContinuousClock.Instant) -> Output {
        sort(client.tick(now: now))
    }

    /// Queues a raw request PDU (opcode first); `done` gets its response PDU, an Error Response included.
    package func request(_ pdu: [UInt8], now: ContinuousClock.Instant, _ done: @escaping (Result<[UInt8], HostError>) -> Void) -> Output {
        let decoded: ATTPDU
        do { decoded = try ATTPDU(bytes: pdu) } catch {
            done(.failure(.attRequestRejected("\(error)")))
            return Output()
        }
        if case .exchangeMTURequest(let exchange) = decoded {
            return exchangeMTU(exchange.clientRxMTU, now: now, done)
        }
        guard let request = Self.request(in: decoded) else {
            done(.failure(.attRequestRejected("not an ATT request opcode")))
            return Output()
        }
        rawHandlers[client.enqueue(request, now: now)] = done
        return run(now: now)
    }

    /// Offers `offered` as our receive MTU (Vol 3 Part F §3.4.2.1); `done` gets the Exchange MTU Response PDU.
    /// The bearer offers once per connection, exactly what the caller asked (at least 23).
    package func exchangeMTU(_ offered: UInt16, now: ContinuousClock.Instant, _ done: @escaping (Result<[UInt8], HostError>) -> Void) -> Output {
        rawHandlers[client.enqueueExchangeMTU(clientRxMTU: offered, now: now)] = done
        return run(now: now)
    }

    /// Sends a raw PDU that expects no response: a command through the bearer (ATT_MTU checked), anything else as is.
    func command(_ pdu: [UInt8], now: ContinuousClock.Instant) throws(HostError) -> Output {
        guard !client.isClosed else { throw closeError ?? .attTimeout(handle) }
        var output = Output()
        do throws(ATTBearerError) {
            switch try? ATTPDU(bytes: pdu) {
            case .writeCommand(let command)?: try client.send(command)
            case .signedWriteCommand(let command)?: try client.send(command)
            default: output.send.append(pdu)  // a raw PDU for tests, sent as given
            }
        } catch {
            throw .attRequestRejected(error.description)
        }
        let ran = run(now: now)
        output.send += ran.send
        output.mtu = ran.mtu
        output.diagnostics = ran.diagnostics
        return output
    }

    /// The link ended: the client's procedures complete with ``GATTError/disconnected``, raw requests with `error`.
    package func close(_ error: HostError, now: ContinuousClock.Instant) {
        closeError = error
        _ = sort(client.close(now: now))
    }

    private func map(_ result: Result<ATTPDU, ATTBearerError>) -> Result<[UInt8], HostError> {
        switch result {
        case .success(let pdu): .success(pdu.bytes)
        case .failure(.errorResponse(let response)): .success(response.bytes)
        case .failure(.timeout): .failure(.attTimeout(handle))
        case .failure(.bearerClosed): .failure(closeError ?? .attTimeout(handle))
        case .failure(let error): .failure(.attRequestRejected(error.description))
        }
    }

    /// The ATT_MTU agreed by the Exchange MTU Response in `result`: the bearer's, min(client, server) and at least
    /// 23 bytes (Vol 3 Part F §3.4.2.2); ``HostError/attRequestRejected(_:)`` when the answer is another PDU.
    func agreedMTU(_ result: Result<[UInt8], HostError>) -> Result<UInt16, HostError> {
        result.flatMap { response in
            guard response.first == ATTOpcode.exchangeMTUResponse.rawValue else {
                return .failure(.attRequestRejected("MTU exchange answered with \(Hex.string(response.prefix(5)))"))
            }
            return .success(UInt16(clamping: client.mtu))
        }
    }

    /// The request inside a decoded PDU, if it is one the client sends (Vol 3 Part F §3.4.8).
    private static func request(in pdu: ATTPDU) -> (any ATTRequestPDU)? {
        switch pdu {
        case .findInformationRequest(let request): request
        case .findByTypeValueRequest(let request): request
        case .readByTypeRequest(let request): request
        case .readRequest(let request): request
        case .readBlobRequest(let request): request
        case .readMultipleRequest(let request): request
        case .readByGroupTypeRequest(let request): request
        case .readMultipleVariableRequest(let request): request
        case .writeRequest(let request): request
        case .prepareWriteRequest(let request): request
        case .executeWriteRequest(let request): request
        default: nil
        }
    }
}
