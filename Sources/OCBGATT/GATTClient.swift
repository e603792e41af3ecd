// The per-connection GATT client: queues procedures, keeps the attribute cache, routes server updates.
import OCBCore
import OCBATT

/// The GATT client of one connection (Core v5.4 Vol 3 Part G §4), sans-I/O: no sockets, no clocks.
///
/// Procedures run one at a time, in the order asked, each with exactly one ATT request outstanding. They run on the
/// connection's ``OCBATT/ATTBearer``, which owns ATT_MTU, the request queue, the 30 s transaction timeout and the
/// subscriptions: after any call, and after feeding the bearer, call ``run(on:now:)`` (the ``OCBHost`` runtime's
/// LinkATT does), which hands the client's requests to the bearer, its responses and values back, and mirrors the
/// bearer's ATT_MTU into ``mtu``.
///
/// Completions run inside the call that ended the procedure (``run(on:now:)``, ``close(_:)``, or the call that asked,
/// when it fails at once). What discovery procedures find goes into ``cache``, also when they
/// fail part-way. Not thread-safe: use it from one isolation domain.
public final class GATTClient {
    /// ATT_MTU in bytes (23...517) as the bearer last reported it (``OCBATT/ATTBearerEvent/mtuChanged(_:)`` in
    /// ``run(on:now:)``; the bearer owns the value); procedures size their requests by it when they start.
    public internal(set) var mtu: Int

    /// What has been discovered of the server's database.
    public internal(set) var cache = GATTAttributeCache() { didSet { deliveredHandlesChanged = true } }

    /// Called after a Service Changed indication was handled (the range rediscovered).
    public var serviceChangeHandler: ((GATTServiceChange) -> Void)?

    /// Computes the 12-byte Authentication Signature (SignCounter, 4 bytes, then the 8-byte MAC) of a Signed
    /// Write Command over its opcode, handle and value (Vol 3 Part H §2.4.5, Vol 3 Part F §3.4.5.4), with the
    /// CSRK of a bond. Nil (the default) until bonding provides one: signed writes then fail with ``GATTError/needsBonding``.
    public var signer: (([UInt8]) -> [UInt8])?

    /// Called with a line for the log when the server sends something the client ignores (a Service Changed range
    /// that is no handle range); nil drops them.
    public var diagnosticHandler: ((String) -> Void)?

    /// Enable Service Changed indications through its CCCD after ``discoverDatabase(completion:)`` finds it.
    public var subscribesToServiceChanged = true

    private var outgoing: [any ATTPDUCoding] = []
    private var queue: [(Int) -> any GATTRunningProcedure] = []
    private var current: (any GATTRunningProcedure)?
    private var valueHandlers: [UInt16: ([UInt8]) -> Void] = [:] { didSet { deliveredHandlesChanged = true } }
    /// True when ``deliveredHandles`` may differ from what the bearer was last told (handlers or the cache changed).
    var deliveredHandlesChanged = true
    private var closedWith: GATTError?
    /// The bearer's id for the client's outstanding request, when run over an ``ATTBearer``.
    var bearerRequest: ATTRequestID?

    /// Makes a client for a new connection; ATT_MTU starts at the LE default of 23 (Vol 3 Part F §3.2.8).
    public init(mtu: Int = 23) {
        self.mtu = max(23, mtu)
    }

    // MARK: Wiring

    /// The PDUs to send, opcode first, in order; each is returned once (``run(on:now:)`` hands them to the bearer;
    /// tests of the procedures alone read them here).
    func takeOutgoing() -> [[UInt8]] { takeOutgoingPDUs().map(\.bytes) }

    /// The PDUs to send as ATT PDU values; each is returned once.
    func takeOutgoingPDUs() -> [any ATTPDUCoding] {
        defer { outgoing = [] }
        return outgoing
    }

    /// Fails the running procedure with `error` (e.g. the bearer could not carry its request) and starts the next.
    func failCurrent(_ error: GATTError) {
        guard let running = current else { return }
        current = nil
        running.fail(error)
        pump()
    }

    /// True when the client takes the values notified or indicated at `handle` (a handler is set, or it is the Service
    /// Changed characteristic's value): a host hands other values up raw.
    public func takesValues(at handle: UInt16) -> Bool {
        valueHandlers[handle] != nil || serviceChangedCharacteristic?.valueHandle == handle
    }

    /// The value handles with a handler, and the Service Changed value handle: what the bearer must deliver.
    var deliveredHandles: Set<UInt16> {
        var handles = Set(valueHandlers.keys)
        if let serviceChanged = serviceChangedCharacteristic { handles.insert(serviceChanged.valueHandle) }
        return handles
    }

    /// True while a procedure waits for a response.
    public var isBusy: Bool { current != nil }

    /// Hands the response (or Error Response) to the outstanding request to the running procedure.
    /// A PDU that cannot be decoded ends that procedure with ``GATTError/malformed(_:)``; with no procedure
    /// running the PDU is dropped.
    func receiveResponse(_ pdu: [UInt8]) {
        guard current != nil else { return }
        do throws(GATTError) {
            receive(try GATTResponse(bytes: pdu))
        } catch {
            receiveInvalid(error)
        }
    }

    /// Hands the error of an unusable response (malformed, or of the wrong kind) to the running procedure, which
    /// fails or, for whole-database discovery, goes on with its next part.
    func receiveInvalid(_ error: GATTError) {
        guard let running = current else { return }
        if let request = running.receiveInvalid(error) {
            outgoing.append(request.pdu)
        } else {
            current = nil
            pump()
        }
    }

    /// Hands an already decoded response to the running procedure (dropped when none runs).
    func receive(_ response: GATTResponse) {
        guard let running = current else { return }
        if let request = running.receive(response) {
            outgoing.append(request.pdu)
        } else {
            current = nil
            pump()
        }
    }

    /// Routes a server-initiated PDU: Handle Value Notification (0x1B), Indication (0x1D) or each value of a
    /// Multiple Handle Value Notification (0x23) to the handler of its handle; an indication of the Service Changed characteristic starts Service Changed handling.
    /// Anything else, or a PDU that does not decode, is ignored (returned false).
    @discardableResult
    public func receiveServerPDU(_ pdu: [UInt8]) -> Bool {
        let handle: UInt16
        let value: [UInt8]
        switch pdu.first.map({ ATTOpcode(rawValue: $0) }) {
        case .handleValueNotification?:
            guard let notification = try? ATTHandleValueNotification(bytes: pdu) else { return false }
            (handle, value) = (notification.attributeHandle, notification.attributeValue)
        case .handleValueIndication?:
            guard let indication = try? ATTHandleValueIndication(bytes: pdu) else { return false }
            (handle, value) = (indication.attributeHandle, indication.attributeValue)
        case .multipleHandleValueNotification?:
            guard let notification = try? ATTMultipleHandleValueNotification(bytes: pdu) else { return false }
            for entry in notification.handleLengthValueTupleList { receiveValue(entry.attributeValue, handle: entry.attributeHandle) }
            return true
        default:
            return false
        }
        receiveValue(value, handle: handle)
        return true
    }

    /// Routes one notified or indicated value to the handler of `handle` (Vol 3 Part G §4.10, §4.11).
    public func receiveValue(_ value: [UInt8], handle: UInt16) {
        if let serviceChanged = serviceChangedCharacteristic, serviceChanged.valueHandle == handle {
            serviceChangedIndicated(value)
        }
        valueHandlers[handle]?(value)
    }

    /// Ends the running procedure and every queued one with `error` (``GATTError/timeout`` or
    /// ``GATTError/disconnected``); later calls fail at once with it.
    public func close(_ error: GATTError) {
        closedWith = error
        let running = current
        let waiting = queue
        current = nil
        queue = []
        outgoing = []
        running?.fail(error)
        for make in waiting { make(mtu).fail(error) }
    }

    // MARK: Running procedures

    /// The error the client was closed with, if it was.
    var closedError: GATTError? { closedWith }

    /// Queues a PDU that needs no turn (a command).
    func appendOutgoing(_ pdu: any ATTPDUCoding) { outgoing.append(pdu) }

    /// Queues a procedure; `finish` gets the procedure (for what it found) and its result.
    func enqueue<Procedure: GATTProcedure>(
        first: Bool = false,
        _ make: @escaping (Int) -> Procedure,
        finish: @escaping (Procedure, Result<Procedure.Output, GATTError>) -> Void
    ) {
        let entry: (Int) -> any GATTRunningProcedure = { mtu in GATTProcedureRunner(make(mtu), finish: finish) }
        if let closedWith {
            entry(mtu).fail(closedWith)
            return
        }
        if first { queue.insert(entry, at: 0) } else { queue.append(entry) }
        pump()
    }

    /// Starts queued procedures until one sends a request.
    private func pump() {
        while current == nil, !queue.isEmpty {
            let running = queue.removeFirst()(mtu)
            current = running
            if let request = running.start() {
                outgoing.append(request.pdu)
                return
            }
            current = nil
        }
    }

    // MARK: Service Changed

    /// The Service Changed characteristic (0x2A05 in the Generic Attribute service 0x1801), if discovered.
    public var serviceChangedCharacteristic: GATTCharacteristic? {
        for service in cache.services(uuid: GATTAttributeType.genericAttributeService) {
            if let found = cache.characteristics[service.startHandle]?.first(where: { $0.uuid == GATTAttributeType.serviceChanged }) {
                return found
            }
        }
        return nil
    }

    /// Handles a Service Changed value: Start and End of Affected Attribute Handle Range, 16 bits each
    /// (Vol 3 Part G §7.1). A value of another length invalidates the whole database. A range that is no handle range
    /// (Start 0x0000, which is no attribute handle, Vol 3 Part F §3.2.2, or Start above End) is ignored and reported to
    /// ``diagnosticHandler``: it is no reason to drop what is known.
    private func serviceChangedIndicated(_ value: [UInt8]) {
        var reader = ByteReader(value)
        var range: ClosedRange<UInt16> = 0x0001...0xFFFF
        if value.count == 4, let start = try? reader.readUInt16(), let end = try? reader.readUInt16() {
            guard start != 0, start <= end else {
                diagnosticHandler?("Service Changed with Affected Attribute Handle Range 0x\(Hex.uppercase(start, digits: 4))-0x\(Hex.uppercase(end, digits: 4)) "
                                   + "ignored: \(start == 0 ? "Start Handle 0x0000 is no attribute handle" : "Start Handle above End Handle")")
                return
            }
            range = start...end
        }
        let invalidated = cache.services.filter { $0.handles.overlaps(range) }
        // Rediscover every handle of every touched service, not only the indicated part of it.
        let low = invalidated.map(\.startHandle).min().map { min($0, range.lowerBound) } ?? range.lowerBound
        let high = invalidated.map(\.endHandle).max().map { max($0, range.upperBound) } ?? range.upperBound
        let affected = low...high
        cache.remove(overlapping: affected)
        for handle in valueHandlers.keys where affected.contains(handle) { valueHandlers[handle] = nil }
        enqueue(first: true, { _ in GATTDiscoverDatabase(range: affected) }) { [weak self] procedure, result in
            guard let self else { return }
            self.merge(procedure.found)
            let found = procedure.found.services
            var error: GATTError?
            if case .failure(let failure) = result { error = failure }
            let change = GATTServiceChange(range: range, invalidated: invalidated,
                                           removed: invalidated.filter { !found.contains($0) },
                                           added: found.filter { !invalidated.contains($0) }, error: error)
            self.serviceChangeHandler?(change)
        }
    }

    /// Puts everything in `found` into the cache.
    func merge(_ found: GATTAttributeCache) {
        cache.insert(found.services)
        for (start, includes) in found.includedServices { cache.setIncludedServices(includes, ofServiceAt: start) }
        for (start, characteristics) in found.characteristics { cache.setCharacteristics(characteristics, ofServiceAt: start) }
        for (declaration, descriptors) in found.descriptors { cache.setDescriptors(descriptors, ofCharacteristicAt: declaration) }
        for failure in found.discoveryFailures { cache.recordDiscoveryFailure(failure) }
    }

    /// Registers `handler` for the values notified or indicated at `valueHandle`, replacing any other
    /// (``subscribe(to:configuration:handler:completion:)`` does this before enabling them).
    public func setValueHandler(forValueHandle valueHandle: UInt16, _ handler: (([UInt8]) -> Void)?) {
        valueHandlers[valueHandle] = handler
    }
}
