// ACL in and out of each link: recombination, fixed-channel routing, fragmentation under ACL flow control; the ATT/GATT calls.

import OCBGATT
import OCBHCI
import OCBL2CAP

extension HostController {
    /// Queues the request PDU on the connection's ATT bearer (one outstanding, FIFO) and delivers the response PDU,
    /// an ATT_ERROR_RSP included; an ATT_EXCHANGE_MTU_REQ goes through ``exchangeMTU(_:on:completion:)``. Fails with
    /// ``HostError/notConnected(_:)``, ``HostError/attTimeout(_:)`` after 30 s (Vol 3 Part F §3.3.3),
    /// ``HostError/attRequestRejected(_:)`` for bytes that are not a well-formed request, or ``HostError/disconnected(_:_:)``.
    public func sendATTRequest(_ pdu: [UInt8], on handle: ConnectionHandle, completion: @escaping @Sendable (Result<[UInt8], HostError>) -> Void) {
        queueATTRequest(pdu, on: handle, completion: completion)
    }

    /// Sends a PDU that gets no response in an L2CAP basic frame on CID 0x0004 under ACL flow control: ATT_WRITE_CMD
    /// and ATT_SIGNED_WRITE_CMD through the bearer, other bytes as given (for tests). Completes with nil once queued,
    /// ``HostError/notConnected(_:)``, ``HostError/attRequestRejected(_:)`` for a command longer than ATT_MTU, or the
    /// link's close error.
    public func sendATT(_ pdu: [UInt8], on handle: ConnectionHandle, completion: @escaping @Sendable (HostError?) -> Void) {
        sendATTCommand(pdu, on: handle, completion: completion)
    }

    /// Sends ATT_EXCHANGE_MTU_REQ with Client Rx MTU `mtu` (Vol 3 Part F §3.4.2.1) and delivers the ATT_MTU now in use,
    /// min(client, server) and at least 23 bytes; also emits ``HostEvent/mtuChanged(handle:mtu:)``. Fails like
    /// ``sendATTRequest(_:on:completion:)``.
    public func exchangeMTU(_ mtu: UInt16, on handle: ConnectionHandle, completion: @escaping @Sendable (Result<UInt16, HostError>) -> Void) {
        startMTUExchange(mtu, on: handle, completion: completion)
    }

    /// ATT_MTU of the connection as its ATT bearer publishes it (nil when not connected).
    public func linkMTU(on handle: ConnectionHandle) -> LinkMTU? { publishedMTU(handle) }

    /// Runs `body` on the host queue with the connection's GATT client (nil for an unknown handle); the procedures
    /// it starts are sent when it returns.
    public func withGATT(_ handle: ConnectionHandle, _ body: @escaping @Sendable (GATTClient?) -> Void) {
        runWithGATT(handle, body)
    }

    /// ``CentralHost/deliverOnEventQueue(_:)``: through the host's outbox, behind what it already holds.
    public func deliverOnEventQueue(_ work: @escaping @Sendable () -> Void) {
        deliver(work)
    }

    /// True when the link is open for ATT, its queued ACL packets have all gone to the controller and the controller
    /// has a free ACL buffer. When false, ``HostEvent/readyToSendWriteWithoutResponse(handle:)`` follows once it is true.
    public func canSendWriteWithoutResponse(_ handle: ConnectionHandle) -> Bool {
        onQueue {
            let ready = writeWithoutResponseReady(handle)
            if !ready, links[handle] != nil { links[handle]?.writeWithoutResponseBlocked = true }
            return ready
        }
    }

    /// True when the link is open for ATT and its ACL packets all went to the controller, which has room for more
    /// (Host Number of Completed Packets flow control, Core v5.4 Vol 4 Part E §4.1.1).
    func writeWithoutResponseReady(_ handle: ConnectionHandle) -> Bool {
        guard let link = links[handle], !link.att.isClosed, let acl else { return false }
        return acl.queuedCount(handle: handle) == 0 && acl.availableCredits > 0
    }

    /// Emits ``HostEvent/readyToSendWriteWithoutResponse(handle:)`` for links that were blocked and no longer are.
    func reportWriteWithoutResponseReady() {
        for handle in links.keys.sorted() where links[handle]?.writeWithoutResponseBlocked == true {
            guard writeWithoutResponseReady(handle) else { continue }
            links[handle]?.writeWithoutResponseBlocked = false
            emit(.readyToSendWriteWithoutResponse(handle: handle))
        }
    }

    /// Marks the link for ``HostEvent/readyToSendWriteWithoutResponse(handle:)`` when what was just sent filled
    /// the controller's buffers or left packets queued.
    func didTransmitATT(on handle: ConnectionHandle) {
        if !writeWithoutResponseReady(handle) { links[handle]?.writeWithoutResponseBlocked = true }
    }

    /// Wraps an ATT PDU in a basic frame on CID 4 and queues its fragments under ACL flow control; an error when it cannot go.
    func transmitATT(_ pdu: [UInt8], on handle: ConnectionHandle) -> HostError? {
        guard let link = links[handle] else { return .notConnected(handle) }
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
                // One lookup: nil only for a handle no link has.
                guard let events = links[frame.handle]?.router.receive(frame) else {
                    emit(.diagnostic("ACL for unknown handle 0x\(String(frame.handle.rawValue, radix: 16))"))
                    continue
                }
                for event in events { handleRouterEvent(event, handle: frame.handle) }
            }
        }
    }

    private func handleRouterEvent(_ event: L2CAPRouterEvent, handle: ConnectionHandle) {
        switch event {
        case .attributeProtocol(let pdu):
            receiveATT(pdu, on: handle)
        case .send(let frame):
            if let error = sendFrame(frame) { emit(.diagnostic("L2CAP send: \(error)")) }
        case .connectionParameterUpdate(let parameters):
            applyParameterUpdate(handle, parameters)
        case .signaling(let signaling):
            emit(.diagnostic("L2CAP signaling on 0x\(String(handle.rawValue, radix: 16)): \(signaling)"))
        case .diagnostic(let diagnostic):
            emit(.diagnostic("L2CAP on 0x\(String(handle.rawValue, radix: 16)): \(diagnostic)"))
        case .securityManager(let pdu):
            receiveSMP(pdu, on: handle)
        }
    }
}
