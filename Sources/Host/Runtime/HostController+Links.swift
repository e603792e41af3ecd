// ACL in and out of each link: recombination, fixed-channel routing, fragmentation under ACL flow control, and ATT.

import BluetoothCore
import HCI
import L2CAP

extension HostController {
    public func sendATTRequest(_ pdu: [UInt8], on handle: UInt16, completion: @escaping @Sendable (Result<[UInt8], HostError>) -> Void) {
        queue.async {
            self.attRequest(pdu, on: handle) { result in self.deliver { completion(result) } }
        }
    }

    public func sendATT(_ pdu: [UInt8], on handle: UInt16, completion: @escaping @Sendable (HostError?) -> Void) {
        queue.async {
            guard let link = self.connections[handle] else { return self.deliver { completion(.notConnected(handle)) } }
            guard !link.att.isDead else { return self.deliver { completion(.attTimeout(handle)) } }
            let error = self.sendATTPDU(pdu, on: handle)
            self.deliver { completion(error) }
        }
    }

    public func exchangeMTU(_ mtu: UInt16, on handle: UInt16, completion: @escaping @Sendable (Result<UInt16, HostError>) -> Void) {
        queue.async {
            let offered = max(23, mtu)
            // ATT_EXCHANGE_MTU_REQ: 0x02 | Client Rx MTU (2) (Vol 3 Part F §3.4.2.1).
            self.attRequest([0x02, UInt8(truncatingIfNeeded: offered), UInt8(truncatingIfNeeded: offered >> 8)], on: handle) { [self] result in
                let mapped: Result<UInt16, HostError> = result.flatMap { response in
                    guard response.count >= 3, response[0] == 0x03 else {
                        return .failure(.attRequestRejected("MTU exchange answered with \(Hex.string(response.prefix(5)))"))
                    }
                    let server = UInt16(response[1]) | UInt16(response[2]) << 8
                    return .success(max(23, min(offered, server)))
                }
                if case .success(let agreed) = mapped, connections[handle] != nil, connections[handle]?.att.mtu != agreed {
                    connections[handle]?.att.mtu = agreed
                    connections[handle]?.info.mtu = agreed
                    emit(.mtuChanged(handle: handle, mtu: agreed))
                }
                deliver { completion(mapped) }
            }
        }
    }

    /// Queues an ATT request on a link (on `queue`).
    func attRequest(_ pdu: [UInt8], on handle: UInt16, _ done: @escaping (Result<[UInt8], HostError>) -> Void) {
        guard connections[handle] != nil else { return done(.failure(.notConnected(handle))) }
        guard let opcode = pdu.first, ATTTransactions.isRequest(opcode) else {
            return done(.failure(.attRequestRejected("not an ATT request opcode")))
        }
        guard connections[handle]?.att.isDead == false else { return done(.failure(.attTimeout(handle))) }
        guard let (id, ready) = connections[handle]?.att.submit(pdu, now: .now) else { return }
        connections[handle]?.attHandlers[id] = done
        for outgoing in ready { _ = sendATTPDU(outgoing, on: handle) }
        rescheduleTimer()
    }

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
        guard let received = connections[handle]?.att.receive(pdu, now: .now) else { return }
        for outgoing in received.send { sendATTPDU(outgoing, on: handle) }
        if let mtu = received.mtuChanged {
            connections[handle]?.info.mtu = mtu
            emit(.mtuChanged(handle: handle, mtu: mtu))
        }
        if let unsolicited = received.unsolicited { emit(.attReceived(handle: handle, pdu: unsolicited)) }
        if let (id, response) = received.response, let handler = connections[handle]?.attHandlers.removeValue(forKey: id) {
            handler(.success(response))
        }
    }

    /// Fails ATT requests that timed out (the bearer is then closed for ATT, Vol 3 Part F §3.3.3).
    func tickLinks(now: ContinuousClock.Instant) {
        for handle in connections.keys.sorted() {
            guard let expired = connections[handle]?.att.tick(now: now), !expired.isEmpty else { continue }
            for id in expired {
                connections[handle]?.attHandlers.removeValue(forKey: id)?(.failure(.attTimeout(handle)))
            }
        }
    }
}
