// ACL in and out of each link: recombination, fixed-channel routing, fragmentation under ACL flow control, and ATT/GATT.

import ATT
import BluetoothCore
import Dispatch
import GATT
import HCI
import L2CAP

extension HostController {
    /// Queues the request PDU on the connection's ATT bearer (one outstanding, FIFO) and delivers the response PDU,
    /// an ATT_ERROR_RSP included; an ATT_EXCHANGE_MTU_REQ goes through ``exchangeMTU(_:on:completion:)``. Fails with
    /// ``HostError/notConnected(_:)``, ``HostError/attTimeout(_:)`` after 30 s (Vol 3 Part F §3.3.3),
    /// ``HostError/attRequestRejected(_:)`` for bytes that are not a well-formed request, or ``HostError/disconnected(_:_:)``.
    public func sendATTRequest(_ pdu: [UInt8], on handle: UInt16, completion: @escaping @Sendable (Result<[UInt8], HostError>) -> Void) {
        queue.async {
            guard let att = self.connections[handle]?.att else { return self.deliver { completion(.failure(.notConnected(handle))) } }
            self.apply(att.request(pdu, now: .now) { result in self.deliver { completion(result) } }, on: handle)
        }
    }

    /// Sends a PDU that gets no response in an L2CAP basic frame on CID 0x0004 under ACL flow control: ATT_WRITE_CMD
    /// and ATT_SIGNED_WRITE_CMD through the bearer, other bytes as given (for tests). Completes with nil once queued,
    /// ``HostError/notConnected(_:)``, ``HostError/attRequestRejected(_:)`` for a command longer than ATT_MTU, or the
    /// link's close error.
    public func sendATT(_ pdu: [UInt8], on handle: UInt16, completion: @escaping @Sendable (HostError?) -> Void) {
        queue.async {
            guard let att = self.connections[handle]?.att else { return self.deliver { completion(.notConnected(handle)) } }
            do throws(HostError) {
                let output = try att.command(pdu)
                var error: HostError?
                for pdu in output.send where error == nil { error = self.sendATTPDU(pdu, on: handle) }
                self.apply(LinkATT.Output(mtu: output.mtu, diagnostics: output.diagnostics), on: handle)
                let result = error
                self.deliver { completion(result) }
            } catch {
                self.deliver { completion(error) }
            }
        }
    }

    /// Sends ATT_EXCHANGE_MTU_REQ with Client Rx MTU `mtu` (Vol 3 Part F §3.4.2.1) and delivers the ATT_MTU now in use,
    /// min(client, server) and at least 23 bytes; also emits ``HostEvent/mtuChanged(handle:mtu:)``. Fails like
    /// ``sendATTRequest(_:on:completion:)``.
    public func exchangeMTU(_ mtu: UInt16, on handle: UInt16, completion: @escaping @Sendable (Result<UInt16, HostError>) -> Void) {
        queue.async {
            guard let att = self.connections[handle]?.att else { return self.deliver { completion(.failure(.notConnected(handle))) } }
            self.apply(att.exchangeMTU(mtu, now: .now) { result in
                let mapped = Self.agreedMTU(result, att: att)
                self.deliver { completion(mapped) }
            }, on: handle)
        }
    }

    /// Runs `body` on the host queue with the connection's GATT client (nil for an unknown handle); the procedures
    /// it starts are sent when it returns.
    public func withGATT(_ handle: UInt16, _ body: @escaping @Sendable (GATTClient?) -> Void) {
        queue.async {
            guard let att = self.connections[handle]?.att else { return body(nil) }
            body(att.client)
            self.drive(handle)
        }
    }

    /// True when the link is open for ATT, its queued ACL packets have all gone to the controller and the controller
    /// has a free ACL buffer. When false, ``HostEvent/readyToSendWriteWithoutResponse(handle:)`` follows once it is true.
    public func canSendWriteWithoutResponse(_ handle: UInt16) -> Bool {
        onQueue {
            let ready = writeWithoutResponseReady(handle)
            if !ready, connections[handle] != nil { connections[handle]?.writeWithoutResponseBlocked = true }
            return ready
        }
    }

    /// True when the link is open for ATT and its ACL packets all went to the controller, which has room for more
    /// (Host Number of Completed Packets flow control, Core v5.4 Vol 4 Part E §4.1.1).
    func writeWithoutResponseReady(_ handle: UInt16) -> Bool {
        guard let link = connections[handle], !link.att.isClosed, let acl else { return false }
        return acl.queuedCount(handle: handle) == 0 && acl.availableCredits > 0
    }

    /// Emits ``HostEvent/readyToSendWriteWithoutResponse(handle:)`` for links that were blocked and no longer are.
    func reportWriteWithoutResponseReady() {
        for handle in connections.keys.sorted() where connections[handle]?.writeWithoutResponseBlocked == true {
            guard writeWithoutResponseReady(handle) else { continue }
            connections[handle]?.writeWithoutResponseBlocked = false
            emit(.readyToSendWriteWithoutResponse(handle: handle))
        }
    }

    /// The ATT_MTU agreed by an Exchange MTU Response (at least 23), or why there is none.
    static func agreedMTU(_ result: Result<[UInt8], HostError>, att: LinkATT) -> Result<UInt16, HostError> {
        result.flatMap { response in
            guard response.first == ATTOpcode.exchangeMTUResponse.rawValue else {
                return .failure(.attRequestRejected("MTU exchange answered with \(Hex.string(response.prefix(5)))"))
            }
            return .success(UInt16(clamping: att.bearer.mtu))
        }
    }

    /// Runs the link's GATT client after it was handed work, and carries out what came of it (on `queue`).
    func drive(_ handle: UInt16) {
        guard let att = connections[handle]?.att else { return }
        apply(att.run(now: .now), on: handle)
    }

    /// Sends the PDUs, records the MTU and logs the diagnostics of an ATT step (on `queue`).
    func apply(_ output: LinkATT.Output, on handle: UInt16) {
        for pdu in output.send {
            if let error = sendATTPDU(pdu, on: handle) { emit(.diagnostic("ATT send on 0x\(String(handle, radix: 16)): \(error)")) }
        }
        if !output.send.isEmpty, connections[handle] != nil, !writeWithoutResponseReady(handle) {
            connections[handle]?.writeWithoutResponseBlocked = true
        }
        if let mtu = output.mtu, connections[handle] != nil {
            connections[handle]?.info.mtu = mtu
            emit(.mtuChanged(handle: handle, mtu: mtu))
        }
        for line in output.diagnostics { emit(.diagnostic(line)) }
        rescheduleTimer()
    }

    /// Runs `work` on `queue`: directly when already there (e.g. inside a `withGATT` body), else synchronously.
    func onQueue<T>(_ work: () -> T) -> T {
        if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) { return work() }
        return queue.sync(execute: work)
    }

    static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// Wraps an ATT PDU in a basic frame on CID 4 and queues its fragments; an error when it cannot go.
    @discardableResult
    func sendATTPDU(_ pdu: [UInt8], on handle: UInt16) -> HostError? {
        guard let link = connections[handle] else { return .notConnected(handle) }
        return sendFrame(link.router.attributeProtocolFrame(pdu))
    }

    /// Fragments a basic frame to the controller's ACL length and queues it under flow control.
    func sendFrame(_ frame: L2CAPBasicFrame) -> HostError? {
        guard acl != nil, let length = info?.aclDataPacketLength else { return .notPoweredOn(currentState) }
        do {
            for packet in try L2CAPFragmenter(maximumDataLength: length).fragments(of: frame) {
                try acl?.enqueue(packet)
            }
        } catch {
            return .attRequestRejected("\(error)")
        }
        pumpACL()
        return nil
    }

    /// Sends the ACL packets the controller has room for.
    func pumpACL() {
        guard acl != nil else { return }
        for packet in acl?.nextPacketsToSend() ?? [] {
            write(HCIPacket(type: .acl, bytes: packet.bytes))
        }
    }

    /// One ACL packet from the controller.
    func handleACL(_ packet: HCIACLDataPacket) {
        for output in recombiner.receive(packet) {
            switch output {
            case .dropped(let error):
                emit(.diagnostic("L2CAP: \(error)"))
            case .frame(let frame):
                guard connections[frame.handle] != nil else {
                    emit(.diagnostic("ACL for unknown handle 0x\(String(frame.handle, radix: 16))"))
                    continue
                }
                guard let events = connections[frame.handle]?.router.receive(frame) else { continue }
                for event in events { handleRouterEvent(event, handle: frame.handle) }
            }
        }
    }

    private func handleRouterEvent(_ event: L2CAPRouterEvent, handle: UInt16) {
        switch event {
        case .attributeProtocol(let pdu):
            receiveATT(pdu, on: handle)
        case .send(let frame):
            if let error = sendFrame(frame) { emit(.diagnostic("L2CAP send: \(error)")) }
        case .connectionParameterUpdate(let parameters):
            applyParameterUpdate(handle, parameters)
        case .signaling(let signaling):
            emit(.diagnostic("L2CAP signaling on 0x\(String(handle, radix: 16)): \(signaling)"))
        case .diagnostic(let diagnostic):
            emit(.diagnostic("L2CAP on 0x\(String(handle, radix: 16)): \(diagnostic)"))
        case .securityManager:
            break
        }
    }

    private func receiveATT(_ pdu: [UInt8], on handle: UInt16) {
        guard let att = connections[handle]?.att else { return }
        if LinkATT.isServerValue(pdu) { emit(.attReceived(handle: handle, pdu: pdu)) }
        apply(att.receive(pdu, now: .now), on: handle)
    }

    /// Fails ATT requests that timed out (the bearer is then closed for ATT, Vol 3 Part F §3.3.3).
    func tickLinks(now: ContinuousClock.Instant) {
        for handle in connections.keys.sorted() {
            guard let att = connections[handle]?.att, let deadline = att.nextDeadline, deadline <= now else { continue }
            apply(att.tick(now: now), on: handle)
        }
    }
}
