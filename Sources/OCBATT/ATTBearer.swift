// The sans-I/O ATT bearer of one connection: client request queue, timeout, MTU, values and a minimal server.

/// One ATT bearer (the ATT fixed channel of one LE connection), sans-I/O (Core v5.4 Vol 3 Part F §3.3, §3.4).
///
/// Feed received ATT PDUs to ``receive(_:now:)``, call ``tick(now:)`` at ``nextDeadline``, and drain
/// ``takeEvents()`` after every call: it holds PDUs to send (in order), delivered values, request results,
/// MTU changes, diagnostics and closure. Time is injected; nothing here reads a clock.
///
/// Client role: the bearer holds the connection's only request queue. Requests (``enqueue(_:now:ahead:keepsTurn:)``,
/// ``exchangeMTU(clientRxMTU:now:)``) go out one at a time, in FIFO order (``ahead`` puts one at the front);
/// a response or Error Response completes the pending one; a response of another kind fails it at once with
/// ``ATTBearerError/unexpectedResponse(_:expected:)``; an Error Response naming another request opcode, or a response
/// with nothing pending, is dropped with a diagnostic.
/// A request not answered within ``transactionTimeout`` (30 s, §3.3.3) fails with ``ATTBearerError/timeout``, as do
/// all queued ones, and the bearer closes: no ATT PDU is sent afterwards and later requests fail with
/// ``ATTBearerError/bearerClosed``.
///
/// Turns: a multi-request procedure (a GATT discovery, a long read, a queued write, whose Prepare Writes share the
/// server's one prepare queue per client, §3.4.6) sends its requests with `keepsTurn`: when such a request completes,
/// the bearer holds the turn for its owner and sends nothing else until the owner goes on with
/// ``continueTurn(with:now:keepsTurn:)`` (sent at once) or gives the turn back with ``endTurn(now:)``. So requests of
/// other users wait between procedures, never inside one.
///
/// Time: a request sent by a call that brings no time (`now` nil) has its transaction timer started by the next
/// ``tick(now:)`` or ``receive(_:now:)``; the owner calls one right after.
///
/// MTU (§3.4.2, §5.2.1): ATT_MTU starts at 23; it becomes min(our receive MTU, the peer's receive MTU), never
/// below 23. The peer announces its receive MTU in its Exchange MTU Request and in its response to ours; if it
/// announces different values, the smallest is kept, so nothing is ever sent larger than the peer said it can
/// receive. Outgoing PDUs never exceed ATT_MTU (requests fail with ``ATTBearerError/exceedsMTU(length:mtu:)``,
/// commands are refused). Incoming PDUs up to our receive MTU are accepted whole; a larger response fails
/// its request with ``ATTBearerError/responseExceedsReceiveMTU(length:receiveMTU:)``.
///
/// Server role (a central is a server too): Exchange MTU Requests are answered with our receive MTU, any number
/// of times; the database is empty, so discovery requests (Find Information, Find By Type Value, Read By Type,
/// Read By Group Type) get Attribute Not Found (Invalid Handle for a bad range, Unsupported Group Type for a
/// group type other than «Primary/Secondary Service»), reads and writes Invalid Handle, Execute Write an
/// Execute Write Response (nothing can be prepared), malformed requests Invalid PDU, unknown request opcodes
/// Request Not Supported. Commands are never answered.
///
/// Security (§4.2 of Vol 3 Part G; BlueZ's att.c does the same): when ``raisesSecurityOnError`` is set, an Error
/// Response with Insufficient Authentication (0x05), Encryption Key Size Too Short (0x0C) or Insufficient Encryption
/// (0x0F) to a request not yet retried does not complete it: the bearer parks it and emits
/// ``ATTBearerEvent/securityRequired(_:)``, sends nothing else (the queue waits, as the request's turn would), and
/// runs no transaction timer (the transaction ended with the Error Response). The owner raises the link's security and
/// calls ``securityRaised(now:)`` (the request is sent again, once) or ``securityNotRaised(now:)`` (it completes
/// with the Error Response it got). Closing the bearer fails a parked request like a pending one.
///
/// Values: every notification and indication comes out as ``ATTBearerEvent/value(handle:value:kind:)``, each value of
/// a Multiple Handle Value Notification separately; subscriptions are the GATT client's (Vol 3 Part G §4.10, §4.11),
/// which routes them. Every indication is confirmed exactly once, right after its value event (also when the
/// indication is malformed, so the peer's indication flow never stalls).
public struct ATTBearer: Sendable {
    /// The default and minimum ATT_MTU on LE, in bytes (§3.2.8).
    public static let minimumMTU = 23
    /// The default receive MTU offered, in bytes (the largest attribute value, 512, plus headers).
    public static let defaultReceiveMTU: UInt16 = 517
    /// The transaction timeout (§3.3.3).
    public static let defaultTransactionTimeout: Duration = .seconds(30)

    /// Our receive MTU, in bytes (at least 23): offered in Exchange MTU, the largest PDU we accept. Set at init, and
    /// once more by the offer of ``exchangeMTU(clientRxMTU:now:)``.
    public private(set) var receiveMTU: Int
    /// How long a request may wait for its response.
    public let transactionTimeout: Duration
    /// The current ATT_MTU, in bytes.
    public private(set) var mtu: Int = ATTBearer.minimumMTU
    /// Why the bearer closed, once it has (transaction timeout or ``close()``); nil while open.
    public private(set) var closeReason: ATTBearerCloseReason?
    /// True once the bearer has closed (transaction timeout or ``close()``).
    public var isClosed: Bool { closeReason != nil }

    struct Request: Sendable {
        let id: ATTRequestID
        let opcode: ATTOpcode
        let bytes: [UInt8]
        /// The owner goes on after it completes: the bearer holds the turn until then.
        var keepsTurn = false
        /// True once sent again after the link's security was raised: a second insufficient-security error completes it.
        var securityRetried = false
    }

    /// Set by an owner that can raise the link's security (pair or encrypt): insufficient-security errors then park
    /// the request (see "Security" above). False (the default): they complete it like any Error Response.
    public var raisesSecurityOnError = false
    /// The request waiting for the link's security to be raised, with the Error Response that asked for it.
    private var parked: (request: Request, response: ATTErrorResponse)?
    /// True while a request waits for ``securityRaised(now:)`` or ``securityNotRaised(now:)``.
    public var isWaitingForSecurity: Bool { parked != nil }
    /// The error of the request waiting for security (nil when none waits).
    public var parkedError: ATTError? { parked?.response.error }

    /// The request waiting for its response, with its deadline (nil until a call brings the time).
    private var pending: (request: Request, deadline: ContinuousClock.Instant?)? {
        didSet { nextDeadline = pending?.deadline }
    }
    private var queue: [Request] = []
    /// True while the owner of a completed `keepsTurn` request decides its next request: nothing else is sent.
    public private(set) var isTurnHeld = false
    private var peerReceiveMTU: Int?
    private var mtuOffered = false
    private var nextID: UInt64 = 1
    private var events: [ATTBearerEvent] = []

    /// Makes a bearer offering `receiveMTU` bytes (values below 23 become 23).
    public init(receiveMTU: UInt16 = ATTBearer.defaultReceiveMTU, transactionTimeout: Duration = ATTBearer.defaultTransactionTimeout) {
        self.receiveMTU = max(Self.minimumMTU, Int(receiveMTU))
        self.transactionTimeout = transactionTimeout
    }

    /// Takes every event produced since the last call, in order.
    public mutating func takeEvents() -> [ATTBearerEvent] {
        defer { events.removeAll() }
        return events
    }

    /// The instant the pending request times out, if one is pending; call ``tick(now:)`` then. Stored beside the
    /// pending request (read on every received PDU, where reading it through the request would copy it).
    public private(set) var nextDeadline: ContinuousClock.Instant?

    /// The pending request's id, if any.
    public var pendingRequest: ATTRequestID? { pending?.request.id }

    /// Ids of the requests waiting behind the pending one, in sending order.
    public var queuedRequests: [ATTRequestID] { queue.map(\.id) }

    /// Queues ATT_EXCHANGE_MTU_REQ offering `clientRxMTU` bytes (nil: ``receiveMTU``; values below 23 become 23), which
    /// becomes ``receiveMTU``: what goes on the wire is the offer, and ATT_MTU after the response is
    /// min(offer, Server Rx MTU) (§3.4.2.1, §3.4.2.2). Offered once per bearer: a second call completes at once
    /// with ``ATTBearerError/mtuAlreadyExchanged``; after closure it completes at once with
    /// ``ATTBearerError/bearerClosed`` and changes neither MTU. `now` nil: the timer starts at the next call with the time.
    @discardableResult
    public mutating func exchangeMTU(clientRxMTU: UInt16? = nil, now: ContinuousClock.Instant?) -> ATTRequestID {
        let id = makeID()
        guard !isClosed else {
            events.append(.requestCompleted(id, .failure(.bearerClosed)))
            return id
        }
        guard !mtuOffered else {
            events.append(.requestCompleted(id, .failure(.mtuAlreadyExchanged)))
            return id
        }
        mtuOffered = true
        if let offer = clientRxMTU { setReceiveMTU(max(Self.minimumMTU, Int(offer))) }
        let pdu = ATTExchangeMTURequest(clientRxMTU: UInt16(clamping: receiveMTU))
        return enqueue(Request(id: id, opcode: ATTExchangeMTURequest.opcode, bytes: pdu.bytes), now: now)
    }

    /// Queues a request; it is sent when every earlier one has completed (`ahead`: before every queued one) and no
    /// turn is held. Its result comes as ``ATTBearerEvent/requestCompleted(_:_:)`` with the returned id (at once when
    /// the bearer is closed). With `keepsTurn` the bearer holds the turn after it completes (see the type's docs).
    /// `now` nil: its timer starts at the next call with the time.
    @discardableResult
    public mutating func enqueue<Request: ATTRequestPDU>(_ request: Request, now: ContinuousClock.Instant?,
                                                         ahead: Bool = false, keepsTurn: Bool = false) -> ATTRequestID {
        enqueue(ATTBearer.Request(id: makeID(), opcode: Request.opcode, bytes: request.bytes, keepsTurn: keepsTurn),
                now: now, ahead: ahead)
    }

    /// The next request of the owner holding the turn (after its `keepsTurn` request completed), sent at once, ahead
    /// of every queued one; `keepsTurn` again unless it is the procedure's last. Without a held turn it is queued ahead.
    @discardableResult
    public mutating func continueTurn<Request: ATTRequestPDU>(with request: Request, now: ContinuousClock.Instant?,
                                                              keepsTurn: Bool = true) -> ATTRequestID {
        isTurnHeld = false
        return enqueue(request, now: now, ahead: true, keepsTurn: keepsTurn)
    }

    /// Gives the held turn back (the owner's procedure ended): the next queued request goes out.
    public mutating func endTurn(now: ContinuousClock.Instant?) {
        guard isTurnHeld else { return }
        isTurnHeld = false
        sendNext(now: now)
    }

    /// Sends a command (Write Command, Signed Write Command) at once, independent of the request queue.
    /// Throws ``ATTBearerError/bearerClosed`` after closure and ``ATTBearerError/exceedsMTU(length:mtu:)``
    /// when it does not fit ATT_MTU; nothing is sent then.
    public mutating func send<Command: ATTCommandPDU>(_ command: Command) throws(ATTBearerError) {
        guard !isClosed else { throw .bearerClosed }
        let bytes = command.bytes
        guard bytes.count <= mtu else { throw .exceedsMTU(length: bytes.count, mtu: mtu) }
        events.append(.send(bytes))
    }

    /// Starts the timer of a request sent without the time, and checks the transaction timeout: at or after the
    /// pending request's deadline, the bearer closes.
    public mutating func tick(now: ContinuousClock.Instant) {
        if case .none = pending { return }  // the common case (a notification): nothing to time
        if let started = pending, started.deadline == nil { pending = (started.request, now + transactionTimeout) }
        guard let deadline = nextDeadline, now >= deadline else { return }
        shut(failing: .timeout, reason: .transactionTimeout)
    }

    /// Closes the bearer (e.g. on disconnection): the pending and queued requests fail with ``ATTBearerError/bearerClosed``.
    public mutating func close() {
        guard !isClosed else { return }
        shut(failing: .bearerClosed, reason: .closedByOwner)
    }

    /// Handles one ATT PDU received on CID 0x0004.
    public mutating func receive(_ pdu: [UInt8], now: ContinuousClock.Instant) {
        tick(now: now)
        guard !isClosed else {
            events.append(.diagnostic(.receivedWhileClosed(pdu.first.map { ATTOpcode(rawValue: $0) })))
            return
        }
        guard let first = pdu.first else {
            events.append(.diagnostic(.emptyPDU))
            return
        }
        let opcode = ATTOpcode(rawValue: first)
        if pdu.count > receiveMTU {
            receiveOversized(opcode, length: pdu.count, now: now)
            return
        }
        switch opcode.kind {
        case .response: receiveResponse(opcode, pdu, now: now)
        case .request: serve(opcode, pdu)
        case .notification, .indication: receiveValue(opcode, pdu)
        case .command: events.append(.diagnostic(.ignoredCommand(opcode)))
        case .confirmation: events.append(.diagnostic(.unexpectedConfirmation))
        case .unknown:
            if opcode.isCommand {
                events.append(.diagnostic(.ignoredCommand(opcode)))
            } else {
                answer(opcode, handle: 0, error: .requestNotSupported)
            }
        }
    }

    // MARK: Client side

    private mutating func makeID() -> ATTRequestID {
        defer { nextID += 1 }
        return ATTRequestID(rawValue: nextID)
    }

    private mutating func enqueue(_ request: Request, now: ContinuousClock.Instant?, ahead: Bool = false) -> ATTRequestID {
        guard !isClosed else {
            events.append(.requestCompleted(request.id, .failure(.bearerClosed)))
            return request.id
        }
        if ahead { queue.insert(request, at: 0) } else { queue.append(request) }
        sendNext(now: now)
        return request.id
    }

    private mutating func sendNext(now: ContinuousClock.Instant?) {
        while pending == nil, parked == nil, !isTurnHeld, !isClosed, !queue.isEmpty {
            let request = queue.removeFirst()
            guard request.bytes.count <= mtu else {
                // Refused unsent; its owner still decides what follows when it kept the turn.
                isTurnHeld = request.keepsTurn
                events.append(.requestCompleted(request.id, .failure(.exceedsMTU(length: request.bytes.count, mtu: mtu))))
                continue
            }
            pending = (request, now.map { $0 + transactionTimeout })
            events.append(.send(request.bytes))
        }
    }

    private mutating func complete(_ result: Result<ATTPDU, ATTBearerError>, now: ContinuousClock.Instant) {
        guard let request = pending?.request else { return }
        pending = nil
        isTurnHeld = request.keepsTurn
        events.append(.requestCompleted(request.id, result))
        sendNext(now: now)
    }

    private mutating func receiveResponse(_ opcode: ATTOpcode, _ bytes: [UInt8], now: ContinuousClock.Instant) {
        guard let request = pending?.request else {
            events.append(.diagnostic(.unexpectedResponse(opcode, pending: nil)))
            return
        }
        if opcode == .errorResponse {
            let response: ATTErrorResponse
            do { response = try ATTErrorResponse(bytes: bytes) } catch {
                complete(.failure(.invalidResponse(error)), now: now)
                return
            }
            guard response.requestOpcode == request.opcode else {
                events.append(.diagnostic(.mismatchedErrorResponse(response, pending: request.opcode)))
                return
            }
            if raisesSecurityOnError, !request.securityRetried, Self.asksForSecurity(response.error) {
                pending = nil
                parked = (request, response)
                events.append(.securityRequired(response))
                return
            }
            complete(.failure(.errorResponse(response)), now: now)
            return
        }
        let expected = request.opcode.responseOpcode ?? .errorResponse
        guard opcode == expected else {
            complete(.failure(.unexpectedResponse(opcode, expected: expected)), now: now)
            return
        }
        let pdu: ATTPDU
        do { pdu = try ATTPDU(bytes: bytes) } catch {
            complete(.failure(.invalidResponse(error)), now: now)
            return
        }
        if case .exchangeMTUResponse(let response) = pdu { peerAnnounced(response.serverRxMTU) }
        complete(.success(pdu), now: now)
    }

    /// Insufficient Authentication (0x05), Encryption Key Size Too Short (0x0C), Insufficient Encryption (0x0F).
    static func asksForSecurity(_ error: ATTError) -> Bool {
        error == .insufficientAuthentication || error == .insufficientEncryption || error == .encryptionKeySizeTooShort
    }

    /// The link's security was raised: the parked request is sent again (once; its transaction timer starts anew).
    public mutating func securityRaised(now: ContinuousClock.Instant?) {
        guard var request = parked?.request, !isClosed else { return }
        parked = nil
        request.securityRetried = true
        pending = (request, now.map { $0 + transactionTimeout })
        events.append(.send(request.bytes))
    }

    /// The link's security could not be raised (pairing failed or refused): the parked request completes with the Error
    /// Response it got, and the queue goes on.
    public mutating func securityNotRaised(now: ContinuousClock.Instant) {
        guard let (request, response) = parked else { return }
        parked = nil
        pending = (request, nil)
        complete(.failure(.errorResponse(response)), now: now)
    }

    private mutating func receiveOversized(_ opcode: ATTOpcode, length: Int, now: ContinuousClock.Instant) {
        switch opcode.kind {
        case .response where pending != nil && (opcode == .errorResponse || opcode == pending?.request.opcode.responseOpcode):
            complete(.failure(.responseExceedsReceiveMTU(length: length, receiveMTU: receiveMTU)), now: now)
        case .request:
            events.append(.diagnostic(.exceedsReceiveMTU(opcode, length: length)))
            answer(opcode, handle: 0, error: .invalidPDU)
        default:
            events.append(.diagnostic(.exceedsReceiveMTU(opcode, length: length)))
        }
    }

    private mutating func peerAnnounced(_ value: UInt16) {
        let announced = max(Self.minimumMTU, Int(value))
        peerReceiveMTU = min(peerReceiveMTU ?? announced, announced)
        settleMTU()
    }

    /// Our receive MTU changes with the client's offer; ATT_MTU follows when the peer has announced its own.
    private mutating func setReceiveMTU(_ value: Int) {
        receiveMTU = value
        if peerReceiveMTU != nil { settleMTU() }
    }

    /// ATT_MTU = min(our receive MTU, the smallest receive MTU the peer announced), at least 23.
    private mutating func settleMTU() {
        let newMTU = max(Self.minimumMTU, min(receiveMTU, peerReceiveMTU ?? Self.minimumMTU))
        if newMTU != mtu {
            mtu = newMTU
            events.append(.mtuChanged(newMTU))
        }
    }

    private mutating func shut(failing error: ATTBearerError, reason: ATTBearerCloseReason) {
        closeReason = reason
        isTurnHeld = false
        if let request = pending?.request ?? parked?.request { events.append(.requestCompleted(request.id, .failure(error))) }
        pending = nil
        parked = nil
        for request in queue { events.append(.requestCompleted(request.id, .failure(error))) }
        queue.removeAll()
        events.append(.closed(reason))
    }

    // MARK: Values

    private mutating func receiveValue(_ opcode: ATTOpcode, _ bytes: [UInt8]) {
        switch opcode {
        case .handleValueIndication:
            do {
                let indication = try ATTHandleValueIndication(bytes: bytes)
                deliver(handle: indication.attributeHandle, value: indication.attributeValue, kind: .indication)
            } catch {
                events.append(.diagnostic(.malformedPDU(error)))
            }
            events.append(.send(ATTHandleValueConfirmation().bytes))
        case .handleValueNotification:
            do {
                let notification = try ATTHandleValueNotification(bytes: bytes)
                deliver(handle: notification.attributeHandle, value: notification.attributeValue, kind: .notification)
            } catch {
                events.append(.diagnostic(.malformedPDU(error)))
            }
        default:
            do {
                let notification = try ATTMultipleHandleValueNotification(bytes: bytes)
                for tuple in notification.handleLengthValueTupleList {
                    deliver(handle: tuple.attributeHandle, value: tuple.attributeValue, kind: .notification)
                }
            } catch {
                events.append(.diagnostic(.malformedPDU(error)))
            }
        }
    }

    private mutating func deliver(handle: AttributeHandle, value: [UInt8], kind: ATTValueKind) {
        events.append(.value(handle: handle, value: value, kind: kind))
    }

    // MARK: Server side

    private mutating func answer(_ opcode: ATTOpcode, handle: AttributeHandle, error: ATTError) {
        events.append(.send(ATTErrorResponse(requestOpcode: opcode, attributeHandle: handle, error: error).bytes))
        events.append(.diagnostic(.answeredPeerRequest(opcode, error: error)))
    }

    private mutating func serve(_ opcode: ATTOpcode, _ bytes: [UInt8]) {
        let request: ATTPDU
        do { request = try ATTPDU(bytes: bytes) } catch {
            events.append(.diagnostic(.malformedPDU(error)))
            answer(opcode, handle: 0, error: .invalidPDU)
            return
        }
        switch request {
        case .exchangeMTURequest(let exchange):
            events.append(.send(ATTExchangeMTUResponse(serverRxMTU: UInt16(clamping: receiveMTU)).bytes))
            events.append(.diagnostic(.answeredPeerRequest(opcode, error: nil)))
            peerAnnounced(exchange.clientRxMTU)
        case .findInformationRequest(let find):
            answerDiscovery(opcode, find.startingHandle, find.endingHandle)
        case .findByTypeValueRequest(let find):
            answerDiscovery(opcode, find.startingHandle, find.endingHandle)
        case .readByTypeRequest(let read):
            answerDiscovery(opcode, read.startingHandle, read.endingHandle)
        case .readByGroupTypeRequest(let read):
            let groupTypes = [BluetoothUUIDConstants.primaryService, BluetoothUUIDConstants.secondaryService]
            if read.startingHandle != 0, read.startingHandle <= read.endingHandle, !groupTypes.contains(read.attributeGroupType) {
                answer(opcode, handle: read.startingHandle, error: .unsupportedGroupType)
            } else {
                answerDiscovery(opcode, read.startingHandle, read.endingHandle)
            }
        case .readRequest(let read): answer(opcode, handle: read.attributeHandle, error: .invalidHandle)
        case .readBlobRequest(let read): answer(opcode, handle: read.attributeHandle, error: .invalidHandle)
        case .readMultipleRequest(let read): answer(opcode, handle: read.setOfHandles.first ?? 0, error: .invalidHandle)
        case .readMultipleVariableRequest(let read): answer(opcode, handle: read.setOfHandles.first ?? 0, error: .invalidHandle)
        case .writeRequest(let write): answer(opcode, handle: write.attributeHandle, error: .invalidHandle)
        case .prepareWriteRequest(let write): answer(opcode, handle: write.attributeHandle, error: .invalidHandle)
        case .executeWriteRequest:
            events.append(.send(ATTExecuteWriteResponse().bytes))
            events.append(.diagnostic(.answeredPeerRequest(opcode, error: nil)))
        default:
            answer(opcode, handle: 0, error: .requestNotSupported)
        }
    }

    private mutating func answerDiscovery(_ opcode: ATTOpcode, _ start: AttributeHandle, _ end: AttributeHandle) {
        let validRange = start.rawValue != 0 && start <= end
        answer(opcode, handle: start, error: validRange ? .attributeNotFound : .invalidHandle)
    }
}
