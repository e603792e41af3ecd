// The per-connection ATT and GATT plumbing both hosts share; each supplies only how an ATT PDU goes out.

import OCBHCI
import OCBATT
import OCBCore
import Dispatch
import OCBGATT

/// A host with one ``LinkATT`` (ATT bearer and GATT client) per connection, driven on its queue:
/// ``HostController`` sends ATT PDUs as ACL fragments of L2CAP basic frames on CID 0x0004, ``KernelHost`` writes
/// them to the connection's kernel L2CAP socket.
///
/// The extension holds what is the same for both: the ``CentralHost`` ATT and GATT calls (the app's requests on
/// `queue`, ``SerialHost/requestInPlace(_:)``: in the order asked, before the rest of a flood's read), received PDUs,
/// the 30 s transaction timeouts (Core v5.4 Vol 3 Part F §3.3.3) and carrying out each ``LinkATT/Output``: PDUs sent,
/// ATT_MTU recorded and reported, diagnostics emitted, the link disconnected after an ATT transaction timeout, the
/// timer re-armed.
protocol ATTLinkHost: SerialHost {
    associatedtype Link: ATTLink
    /// The established connections by connection handle.
    var links: [ConnectionHandle: Link] { get set }
    /// Sends one ATT PDU on connection `handle`'s fixed channel CID 0x0004; the error when it cannot go
    /// (``HostError/notConnected(_:)`` for an unknown handle).
    func transmitATT(_ pdu: [UInt8], on handle: ConnectionHandle) -> HostError?
    /// Called after ATT PDUs of an ``LinkATT/Output`` went out on the live connection `handle`.
    func didTransmitATT(on handle: ConnectionHandle)
    /// Ends connection `handle` after its ATT bearer closed on a transaction timeout (Vol 3 Part F §3.3.3: no further
    /// ATT PDUs on it, so the link is of no use); its end is reported with ``HostError/attTimeout(_:)``.
    func disconnectAfterATTTimeout(_ handle: ConnectionHandle)
    /// A request on `handle` was answered with an insufficient-security error and waits in the bearer
    /// (``LinkATT/Output/securityRequired``): the host raises the link's security, then hands the outcome to the link (``LinkATT/securityRaised(now:)`` or ``LinkATT/securityNotRaised(now:)``).
    func securityRequired(_ response: ATTErrorResponse, on handle: ConnectionHandle)
    /// Arms the host's timer for the earliest deadline of its state machines, the links' ``nextLinkDeadline`` included.
    func rescheduleTimer()
}

extension ATTLinkHost {
    /// ``CentralHost/sendATTRequest(_:on:completion:)``: queues a request PDU on the connection's bearer.
    func queueATTRequest(_ pdu: [UInt8], on handle: ConnectionHandle, completion: @escaping @Sendable (Result<[UInt8], HostError>) -> Void) {
        requestInPlace {
            guard let att = self.links[handle]?.att else { return self.deliver { completion(.failure(.notConnected(handle))) } }
            self.applyATT(att.request(pdu, now: self.clock.now) { result in self.deliver { completion(result) } }, on: handle)
        }
    }

    /// ``CentralHost/sendATT(_:on:completion:)``: sends a PDU that gets no response; completes with the first
    /// ``transmitATT(_:on:)`` error, nil when every PDU went.
    func sendATTCommand(_ pdu: [UInt8], on handle: ConnectionHandle, completion: @escaping @Sendable (HostError?) -> Void) {
        requestInPlace {
            guard let att = self.links[handle]?.att else { return self.deliver { completion(.notConnected(handle)) } }
            do throws(HostError) {
                let output = try att.command(pdu, now: self.clock.now)
                var error: HostError?
                for pdu in output.send where error == nil { error = self.transmitATT(pdu, on: handle) }
                self.applyATT(LinkATT.Output(mtu: output.mtu, diagnostics: output.diagnostics), on: handle)
                let result = error
                self.deliver { completion(result) }
            } catch {
                self.deliver { completion(error) }
            }
        }
    }

    /// ``CentralHost/exchangeMTU(_:on:completion:)``: sends ATT_EXCHANGE_MTU_REQ offering `mtu` and delivers the
    /// agreed ATT_MTU.
    func startMTUExchange(_ mtu: UInt16, on handle: ConnectionHandle, completion: @escaping @Sendable (Result<UInt16, HostError>) -> Void) {
        requestInPlace {
            guard let att = self.links[handle]?.att else { return self.deliver { completion(.failure(.notConnected(handle))) } }
            self.applyATT(att.exchangeMTU(mtu, now: self.clock.now) { result in
                let agreed = att.agreedMTU(result)
                self.deliver { completion(agreed) }
            }, on: handle)
        }
    }

    /// ``CentralHost/withGATT(_:_:)``: runs `body` on `queue` with the connection's GATT client (nil for an unknown
    /// handle), then sends the procedures it started.
    func runWithGATT(_ handle: ConnectionHandle, _ body: @escaping @Sendable (GATTClient?) -> Void) {
        requestInPlace {
            guard let att = self.links[handle]?.att else { return body(nil) }
            body(att.client)
            self.driveATT(handle)
        }
    }

    /// Runs the link's GATT client after it was handed work, and carries out what came of it.
    func driveATT(_ handle: ConnectionHandle) {
        guard let att = links[handle]?.att else { return }
        applyATT(att.run(now: clock.now), on: handle)
    }

    /// One PDU received on connection `handle`'s CID 0x0004, for the link's GATT client and its bearer.
    func receiveATT(_ pdu: [UInt8], on handle: ConnectionHandle) {
        guard let att = links[handle]?.att else { return }
        applyATT(att.receive(pdu, now: clock.now), on: handle)
    }

    /// The published ATT_MTU of connection `handle` (nil when not connected), looked up on `queue`.
    func publishedMTU(_ handle: ConnectionHandle) -> LinkMTU? {
        onQueue { links[handle]?.att.publishedMTU }
    }

    /// Fails the ATT requests whose transaction timed out at `now` (the bearer is then closed for ATT, Vol 3 Part F §3.3.3).
    func tickLinks(now: ContinuousClock.Instant) {
        for handle in links.keys.sorted() {
            guard let att = links[handle]?.att, let deadline = att.nextDeadline, deadline <= now else { continue }
            applyATT(att.tick(now: now), on: handle)
        }
    }

    /// The earliest ATT transaction deadline of all links; nil when no request is outstanding.
    var nextLinkDeadline: ContinuousClock.Instant? {
        // A plain loop: a key path here (generic over the link type) is built at run time on every call.
        var earliest: ContinuousClock.Instant?
        for link in links.values { earliest = DeadlineTimer.earliest(earliest, link.att.nextDeadline) }
        return earliest
    }

    /// Sends the PDUs, reports the ATT_MTU, emits the diagnostics and the values no subscriber took (as
    /// ``HostEvent/attReceived(handle:pdu:)``, for raw subscribers) of an ATT step, then re-arms the timer unless the
    /// step left the link's transaction deadline as it was (``LinkATT/Output/deadlineChanged``).
    func applyATT(_ output: LinkATT.Output, on handle: ConnectionHandle) {
        for pdu in output.send {
            if let error = transmitATT(pdu, on: handle) { emit(.diagnostic("ATT send on 0x\(String(handle.rawValue, radix: 16)): \(error)")) }
        }
        if !output.send.isEmpty, links[handle] != nil { didTransmitATT(on: handle) }
        if let mtu = output.mtu, links[handle] != nil { emit(.mtuChanged(handle: handle, mtu: mtu)) }
        for line in output.diagnostics { emit(.diagnostic(line)) }
        for pdu in output.unclaimedValues { emit(.attReceived(handle: handle, pdu: pdu)) }
        if let response = output.securityRequired, links[handle] != nil { securityRequired(response, on: handle) }
        if output.transactionTimedOut, links[handle] != nil {
            emit(.diagnostic("ATT transaction on 0x\(String(handle.rawValue, radix: 16)) timed out; disconnecting the link"))
            disconnectAfterATTTimeout(handle)
        }
        if output.deadlineChanged || output.transactionTimedOut { rescheduleTimer() }
    }
}
