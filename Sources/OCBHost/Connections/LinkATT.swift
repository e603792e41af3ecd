// One connection's ATT bearer and GATT client, plus the raw ATT requests the host API queues on that bearer.

import OCBATT
import OCBCore
import OCBGATT

/// The ATT side of one connection, used by both hosts on their queue only (Core v5.4 Vol 3 Part F §3.3).
///
/// One ``ATTBearer`` carries everything: the ``GATTClient``'s requests and the raw requests of
/// ``CentralHost/sendATTRequest(_:on:completion:)`` share its FIFO (one outstanding request, 30 s timeout).
/// Every input (`receive`, `tick`, a request, a procedure started in `withGATT`) ends with ``run(now:)``, which
/// runs the client over the bearer and returns what the host must do: PDUs to send on CID 0x0004, a new ATT_MTU,
/// diagnostic lines. Completions (raw and GATT) run inside these calls, on the host's queue.
final class LinkATT {
    /// What the host has to do after a call.
    struct Output {
        /// ATT PDUs for CID 0x0004, in order.
        var send: [[UInt8]] = []
        /// The new ATT_MTU in bytes, when it changed.
        var mtu: UInt16?
        /// Lines for ``HostEvent/diagnostic(_:)``.
        var diagnostics: [String] = []
        /// True in the output of the call in which the bearer closed on a transaction timeout (Vol 3 Part F §3.3.3):
        /// no ATT PDU may be sent on this bearer any more, so the host disconnects the link.
        var transactionTimedOut = false
    }

    let handle: UInt16
    private(set) var bearer: ATTBearer
    /// The connection's GATT client (used on the host's queue only).
    let client = GATTClient()
    private var rawHandlers: [ATTRequestID: (Result<[UInt8], HostError>) -> Void] = [:]
    /// Why the bearer closed, for raw requests failing with "bearer closed".
    private var closeError: HostError?

    /// Lines the GATT client reported during the current call, for ``Output/diagnostics``.
    private var clientDiagnostics: [String] = []

    /// True once the bearer closed on a transaction timeout; the link's end is then reported with
    /// ``HostError/attTimeout(_:)``.
    private(set) var timedOut = false

    init(handle: UInt16, receiveMTU: UInt16 = ATTBearer.defaultReceiveMTU,
         transactionTimeout: Duration = ATTBearer.defaultTransactionTimeout) {
        self.handle = handle
        bearer = ATTBearer(receiveMTU: receiveMTU, transactionTimeout: transactionTimeout)
        client.diagnosticHandler = { [unowned self] line in clientDiagnostics.append(line) }
    }

    /// When the outstanding request times out.
    var nextDeadline: ContinuousClock.Instant? { bearer.nextDeadline }

    /// True once the bearer closed (transaction timeout or link end): nothing more goes out.
    var isClosed: Bool { bearer.isClosed }

    /// Runs the GATT client over the bearer and sorts out what is left for the host.
    func run(now: ContinuousClock.Instant) -> Output {
        var output = Output()
        for event in client.run(on: &bearer, now: now) {
            switch event {
            case .send(let pdu):
                output.send.append(pdu)
            case .requestCompleted(let id, let result):
                guard let handler = rawHandlers.removeValue(forKey: id) else { continue }
                handler(map(result))
            case .mtuChanged(let mtu):
                output.mtu = UInt16(clamping: mtu)
            case .closed(let reason):
                if reason == .transactionTimeout {
                    closeError = closeError ?? .attTimeout(handle)
                    timedOut = true
                    output.transactionTimedOut = true
                }
            case .diagnostic(.unsubscribedValue):
                break  // raw users get every value as HostEvent.attReceived
            case .diagnostic(let diagnostic):
                output.diagnostics.append("ATT on 0x\(String(handle, radix: 16)): \(diagnostic)")
            case .value:
                break  // the client consumes values
            }
        }
        output.diagnostics += clientDiagnostics.map { "GATT on 0x\(String(handle, radix: 16)): \($0)" }
        clientDiagnostics.removeAll()
        return output
    }

    /// One PDU received on CID 0x0004.
    func receive(_ pdu: [UInt8], now: ContinuousClock.Instant) -> Output {
        bearer.receive(pdu, now: now)
        return run(now: now)
    }

    /// Checks the transaction timeout.
    func tick(now: ContinuousClock.Instant) -> Output {
        bearer.tick(now: now)
        return run(now: now)
    }

    /// Queues a raw request PDU (opcode first); `done` gets its response PDU, an Error Response included.
    func request(_ pdu: [UInt8], now: ContinuousClock.Instant, _ done: @escaping (Result<[UInt8], HostError>) -> Void) -> Output {
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
        rawHandlers[bearer.enqueue(request, now: now)] = done
        return run(now: now)
    }

    /// Offers `offered` as our receive MTU (Vol 3 Part F §3.4.2.1); `done` gets the Exchange MTU Response PDU.
    /// The bearer offers once per connection, exactly what the caller asked (at least 23).
    func exchangeMTU(_ offered: UInt16, now: ContinuousClock.Instant, _ done: @escaping (Result<[UInt8], HostError>) -> Void) -> Output {
        rawHandlers[bearer.exchangeMTU(clientRxMTU: offered, now: now)] = done
        return run(now: now)
    }

    /// Sends a raw PDU that expects no response: a command through the bearer (ATT_MTU checked), anything else as is.
    func command(_ pdu: [UInt8]) throws(HostError) -> Output {
        guard !bearer.isClosed else { throw closeError ?? .attTimeout(handle) }
        var output = Output()
        switch try? ATTPDU(bytes: pdu) {
        case .writeCommand(let command)?:
            do throws(ATTBearerError) { try bearer.send(command) } catch { throw .attRequestRejected(error.description) }
        case .signedWriteCommand(let command)?:
            do throws(ATTBearerError) { try bearer.send(command) } catch { throw .attRequestRejected(error.description) }
        default:
            output.send.append(pdu)  // a raw PDU for tests, sent as given
        }
        let ran = run(now: .now)
        output.send += ran.send
        output.mtu = ran.mtu
        output.diagnostics = ran.diagnostics
        return output
    }

    /// The link ended: the client's procedures complete with ``GATTError/disconnected``, raw requests with `error`.
    func close(_ error: HostError, now: ContinuousClock.Instant) {
        closeError = error
        client.close(.disconnected)
        bearer.close()
        _ = run(now: now)
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
            return .success(UInt16(clamping: bearer.mtu))
        }
    }

    /// True for the server-initiated value PDUs a host also hands up raw as ``HostEvent/attReceived(handle:pdu:)``:
    /// Handle Value Notification (0x1B), Indication (0x1D), Multiple Handle Value Notification (0x23)
    /// (Vol 3 Part F §3.4.7).
    static func isServerValue(_ pdu: [UInt8]) -> Bool {
        guard let first = pdu.first else { return false }
        let kind = ATTOpcode(rawValue: first).kind
        return kind == .notification || kind == .indication
    }

    /// True for a Handle Value Notification or Indication whose attribute handle (octets 1-2, Vol 3 Part F §3.4.7.1)
    /// the GATT client takes; false for anything else, a Multiple Handle Value Notification included.
    func clientTakes(_ pdu: [UInt8]) -> Bool {
        guard pdu.count >= 3, pdu[0] == ATTOpcode.handleValueNotification.rawValue || pdu[0] == ATTOpcode.handleValueIndication.rawValue
        else { return false }
        return client.takesValues(at: UInt16(pdu[1]) | UInt16(pdu[2]) << 8)
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
