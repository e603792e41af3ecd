// The per-connection GATT client: owns the connection's ATT bearer, the attribute cache and the subscriptions.
import OCBCore
import OCBATT

/// The GATT client of one connection (Core v5.4 Vol 3 Part G §4), sans-I/O: no sockets, no clocks.
///
/// It owns the connection's one ``OCBATT/ATTBearer`` (ATT_MTU, the only request queue, one transaction at a time, the
/// 30 s transaction timeout, the close state), the procedures running on it, the subscriptions (a handler per
/// value handle) and the discovered database (``cache``). Nothing here keeps a second copy of any of them: a
/// procedure's requests wait in the bearer's queue, and each procedure keeps the bearer's turn (``OCBATT/ATTBearer``,
/// "Turns") from its first request to its last, so procedures run one at a time, in the order asked.
///
/// Feed it what arrives on CID 0x0004 (``receive(_:now:)``) and the time (``tick(now:)`` at ``nextDeadline``); after
/// calling a procedure, call ``run(now:)``. Each returns the bearer events the client does not consume, in order:
/// ``OCBATT/ATTBearerEvent/send(_:)`` (PDUs for CID 0x0004), values no subscriber takes, ``OCBATT/ATTBearerEvent/mtuChanged(_:)``,
/// diagnostics, ``OCBATT/ATTBearerEvent/closed(_:)`` and the results of the raw requests of ``enqueue(_:now:)``.
///
/// Completions run inside the call that ended the procedure. What discovery procedures find goes into ``cache``,
/// also when they fail part-way. Not thread-safe: use it from one isolation domain.
public final class GATTClient {
    /// The connection's ATT bearer; change it only through the client.
    public internal(set) var bearer: ATTBearer

    /// ATT_MTU in bytes (23...517): the bearer's. Procedures size their requests by it when they are asked for.
    public var mtu: Int { bearer.mtu }

    /// What has been discovered of the server's database.
    public internal(set) var cache = GATTAttributeCache() { didSet { serviceChangedLookup = nil } }
    /// The Service Changed characteristic as last looked up in ``cache`` (outer nil: look again), so a value
    /// costs no search of the cache.
    var serviceChangedLookup: GATTCharacteristic??

    /// Called after a Service Changed indication was handled (the range rediscovered).
    public var serviceChangeHandler: ((GATTServiceChange) -> Void)?

    /// Computes the 12-byte Authentication Signature (SignCounter, 4 bytes, then the 8-byte MAC) of a Signed
    /// Write Command over its opcode, handle and value (Vol 3 Part H §2.4.5, Vol 3 Part F §3.4.5.4), with the
    /// CSRK of a bond. Nil (the default) until bonding provides one: signed writes then fail with ``GATTError/needsBonding``.
    public var signer: (([UInt8]) -> [UInt8])?

    /// Called with a line for the log when the server sends something the client ignores (a Service Changed range
    /// that is no handle range); nil drops them.
    public var diagnosticHandler: ((String) -> Void)?

    /// Enable Service Changed indications through its CCCD after ``discoverDatabase(range:completion:)`` finds it.
    public var subscribesToServiceChanged = true

    /// The subscriptions: the handler of each value handle whose notifications and indications the client takes.
    var valueHandlers: [AttributeHandle: ([UInt8]) -> Void] = [:]
    /// The running procedures by the id of their request in the bearer (one each, queued or outstanding).
    var running: [ATTRequestID: GATTRunningEntry] = [:]

    /// Makes the client of a new connection with its bearer: ATT_MTU starts at the LE default of 23 (Vol 3 Part F
    /// §3.2.8); `receiveMTU` (at least 23) is what the bearer accepts and offers, `transactionTimeout` the ATT
    /// transaction timeout (§3.3.3).
    public init(receiveMTU: UInt16 = ATTBearer.defaultReceiveMTU,
                transactionTimeout: Duration = ATTBearer.defaultTransactionTimeout) {
        bearer = ATTBearer(receiveMTU: receiveMTU, transactionTimeout: transactionTimeout)
    }

    /// True while a procedure is running (its request queued or outstanding in the bearer).
    public var isBusy: Bool { !running.isEmpty }

    /// The instant the outstanding request times out; call ``tick(now:)`` then.
    public var nextDeadline: ContinuousClock.Instant? { bearer.nextDeadline }

    /// True once the bearer closed (transaction timeout, or ``close(now:)``): nothing more goes out.
    public var isClosed: Bool { bearer.isClosed }

    /// The error procedures fail with once the bearer closed: ``GATTError/timeout`` after a transaction timeout,
    /// ``GATTError/disconnected`` otherwise; nil while open.
    var closedError: GATTError? {
        bearer.closeReason.map { $0 == .transactionTimeout ? .timeout : .disconnected }
    }

    // MARK: Inputs

    /// One ATT PDU received on CID 0x0004; returns the events the client does not consume.
    public func receive(_ pdu: [UInt8], now: ContinuousClock.Instant) -> [ATTBearerEvent] {
        bearer.receive(pdu, now: now)
        return run(now: now)
    }

    /// Checks the transaction timeout at `now`; returns the events the client does not consume.
    public func tick(now: ContinuousClock.Instant) -> [ATTBearerEvent] {
        run(now: now)
    }

    /// Closes the bearer (the link ended): running procedures fail with ``GATTError/disconnected``, raw requests with
    /// ``OCBATT/ATTBearerError/bearerClosed``; later calls fail at once. Returns the events the client does not consume.
    @discardableResult
    public func close(now: ContinuousClock.Instant) -> [ATTBearerEvent] {
        bearer.close()
        return run(now: now)
    }

    // MARK: Other users of the bearer

    /// Queues a raw request of another user of this bearer (the host's raw ATT API) in the same queue; its result is
    /// the ``OCBATT/ATTBearerEvent/requestCompleted(_:_:)`` with the returned id among the events of the next call.
    public func enqueue<Request: ATTRequestPDU>(_ request: Request, now: ContinuousClock.Instant) -> ATTRequestID {
        bearer.enqueue(request, now: now)
    }

    /// Queues the bearer's one Exchange MTU Request offering `clientRxMTU` for a raw user
    /// (``OCBATT/ATTBearer/exchangeMTU(clientRxMTU:now:)``); the result comes as for ``enqueue(_:now:)``.
    public func enqueueExchangeMTU(clientRxMTU: UInt16, now: ContinuousClock.Instant) -> ATTRequestID {
        bearer.exchangeMTU(clientRxMTU: clientRxMTU, now: now)
    }

    /// Sends a command (Write Command, Signed Write Command) through the bearer at once; throws the bearer's refusal
    /// (``OCBATT/ATTBearerError/bearerClosed``, ``OCBATT/ATTBearerError/exceedsMTU(length:mtu:)``).
    public func send<Command: ATTCommandPDU>(_ command: Command) throws(ATTBearerError) {
        try bearer.send(command)
    }

    // MARK: Security

    /// Whether insufficient-security errors park their request for the owner to raise the link's security
    /// (``OCBATT/ATTBearer/raisesSecurityOnError``, Core v5.4 Vol 3 Part G §4.2.1); false by default.
    public var raisesSecurityOnError: Bool {
        get { bearer.raisesSecurityOnError }
        set { bearer.raisesSecurityOnError = newValue }
    }

    /// The link's security was raised: the parked request is sent again (``OCBATT/ATTBearer/securityRaised(now:)``).
    /// Returns the events the client does not consume.
    public func securityRaised(now: ContinuousClock.Instant) -> [ATTBearerEvent] {
        bearer.securityRaised(now: now)
        return run(now: now)
    }

    /// The link's security could not be raised: the parked request completes with its Error Response
    /// (``OCBATT/ATTBearer/securityNotRaised(now:)``). Returns the events the client does not consume.
    public func securityNotRaised(now: ContinuousClock.Instant) -> [ATTBearerEvent] {
        bearer.securityNotRaised(now: now)
        return run(now: now)
    }

    // MARK: Subscriptions

    /// Registers `handler` for the values notified or indicated at `valueHandle`, replacing any other
    /// (``subscribe(to:configuration:handler:completion:)`` does this before enabling them).
    public func setValueHandler(forValueHandle valueHandle: AttributeHandle, _ handler: (([UInt8]) -> Void)?) {
        valueHandlers[valueHandle] = handler
    }

    /// Routes one notified or indicated value to the handler of `handle` (Vol 3 Part G §4.10, §4.11); false when no
    /// subscriber takes it.
    @discardableResult
    func receiveValue(_ value: [UInt8], handle: AttributeHandle) -> Bool {
        var taken = false
        if let serviceChanged = serviceChangedCharacteristic, serviceChanged.valueHandle == handle {
            serviceChangedIndicated(value)
            taken = true
        }
        if let handler = valueHandlers[handle] {
            handler(value)
            taken = true
        }
        return taken
    }

    /// Puts everything in `found` into the cache.
    func merge(_ found: GATTAttributeCache) {
        cache.insert(found.services)
        for (start, includes) in found.includedServices { cache.setIncludedServices(includes, ofServiceAt: start) }
        for (start, characteristics) in found.characteristics { cache.setCharacteristics(characteristics, ofServiceAt: start) }
        for (declaration, descriptors) in found.descriptors { cache.setDescriptors(descriptors, ofCharacteristicAt: declaration) }
        for failure in found.discoveryFailures { cache.recordDiscoveryFailure(failure) }
    }
}
