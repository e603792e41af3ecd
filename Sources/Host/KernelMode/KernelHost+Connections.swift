// Kernel mode connections: one L2CAP ATT socket per peer, ATT sequenced by the host.

import BluetoothCore
import HCI

extension KernelHost {
    public func connect(to peer: PeerAddress, options: ConnectOptions) {
        queue.async {
            guard self.currentState == .poweredOn else { return self.emit(.connectionFailed(peer, .notPoweredOn(self.currentState))) }
            guard self.connecting[peer] == nil else { return }
            let socket = L2CAPSocket()
            self.connecting[peer] = socket
            do {
                try socket.connect(to: peer.address, addressType: peer.type, timeout: options.timeout ?? .seconds(3600), queue: self.queue,
                                   onConnect: { [weak self] result in self?.connected(peer, socket, result) },
                                   onPDU: { [weak self] pdu in self?.receiveATT(pdu, from: socket) },
                                   onClose: { [weak self] error in self?.closed(socket, error) })
            } catch {
                self.connecting[peer] = nil
                self.emit(.connectionFailed(peer, HostController.hostError(opening: error)))
            }
        }
    }

    public func cancelConnect(to peer: PeerAddress) {
        queue.async { self.connecting[peer]?.cancel() }
    }

    public func disconnect(_ handle: UInt16, reason: HCIErrorCode = .remoteUserTerminatedConnection) {
        queue.async {
            guard self.links[handle] != nil else { return }
            self.links[handle]?.disconnectRequested = true
            self.links[handle]?.socket.close()
        }
    }

    public func readRSSI(_ handle: UInt16, completion: @escaping @Sendable (Result<Int8, HostError>) -> Void) {
        deliver { completion(.failure(.unsupported("Read RSSI in kernel mode"))) }
    }

    public func sendATTRequest(_ pdu: [UInt8], on handle: UInt16, completion: @escaping @Sendable (Result<[UInt8], HostError>) -> Void) {
        queue.async {
            guard self.links[handle] != nil else { return self.deliver { completion(.failure(.notConnected(handle))) } }
            guard let opcode = pdu.first, ATTTransactions.isRequest(opcode) else {
                return self.deliver { completion(.failure(.attRequestRejected("not an ATT request opcode"))) }
            }
            guard let (id, ready) = self.links[handle]?.att.submit(pdu, now: .now) else { return }
            self.links[handle]?.attHandlers[id] = { result in self.deliver { completion(result) } }
            for outgoing in ready { try? self.links[handle]?.socket.send(outgoing) }
            self.armTimer()
        }
    }

    public func sendATT(_ pdu: [UInt8], on handle: UInt16, completion: @escaping @Sendable (HostError?) -> Void) {
        queue.async {
            guard let link = self.links[handle] else { return self.deliver { completion(.notConnected(handle)) } }
            do { try link.socket.send(pdu); self.deliver { completion(nil) } } catch {
                self.deliver { completion(.transportFailed("\(error)")) }
            }
        }
    }

    public func exchangeMTU(_ mtu: UInt16, on handle: UInt16, completion: @escaping @Sendable (Result<UInt16, HostError>) -> Void) {
        let offered = max(23, mtu)
        sendATTRequest([0x02, UInt8(truncatingIfNeeded: offered), UInt8(truncatingIfNeeded: offered >> 8)], on: handle) { result in
            let agreed: Result<UInt16, HostError> = result.flatMap { response in
                guard response.count >= 3, response[0] == 0x03 else { return .failure(.attRequestRejected("MTU exchange refused")) }
                return .success(max(23, min(offered, UInt16(response[1]) | UInt16(response[2]) << 8)))
            }
            if case .success(let value) = agreed {
                self.queue.async {
                    self.links[handle]?.att.mtu = value
                    self.links[handle]?.info.mtu = value
                    self.emit(.mtuChanged(handle: handle, mtu: value))
                }
            }
            completion(agreed)
        }
    }

    private func connected(_ peer: PeerAddress, _ socket: L2CAPSocket, _ result: Result<UInt16, HCITransportError>) {
        guard connecting[peer] === socket else { return }
        connecting[peer] = nil
        switch result {
        case .success(let handle):
            let info = ConnectionInfo(handle: handle, peer: peer, role: .central,
                                      parameters: LinkParameters(interval: 0, latency: 0, supervisionTimeout: 0))
            links[handle] = KernelLink(info: info, socket: socket)
            emit(.connected(info))
        case .failure(.cancelled):
            emit(.connectionFailed(peer, .connectCancelled(peer)))
        case .failure(.timedOut):
            emit(.connectionFailed(peer, .connectTimeout(peer)))
        case .failure(let error):
            emit(.connectionFailed(peer, HostController.hostError(opening: error)))
        }
    }

    private func receiveATT(_ pdu: [UInt8], from socket: L2CAPSocket) {
        guard let handle = links.first(where: { $0.value.socket === socket })?.key,
              let received = links[handle]?.att.receive(pdu, now: .now) else { return }
        for outgoing in received.send { try? socket.send(outgoing) }
        if let mtu = received.mtuChanged {
            links[handle]?.info.mtu = mtu
            emit(.mtuChanged(handle: handle, mtu: mtu))
        }
        if let unsolicited = received.unsolicited { emit(.attReceived(handle: handle, pdu: unsolicited)) }
        if let (id, response) = received.response { links[handle]?.attHandlers.removeValue(forKey: id)?(.success(response)) }
        armTimer()
    }

    private func closed(_ socket: L2CAPSocket, _ error: HCITransportError?) {
        guard let handle = links.first(where: { $0.value.socket === socket })?.key else { return }
        let requested = links[handle]?.disconnectRequested ?? false
        // The kernel does not tell the Disconnection Complete reason through the socket.
        endLink(handle, reason: requested ? .connectionTerminatedByLocalHost : .remoteUserTerminatedConnection,
                error: requested ? nil : .disconnected(handle, .remoteUserTerminatedConnection))
    }

    /// Forgets a link and fails its ATT requests (on `queue`).
    func endLink(_ handle: UInt16, reason: HCIErrorCode, error: HostError?) {
        guard var link = links.removeValue(forKey: handle) else { return }
        link.socket.close()
        for id in link.att.drain() { link.attHandlers.removeValue(forKey: id)?(.failure(error ?? .disconnected(handle, reason))) }
        emit(.disconnected(link.info, reason: reason, error: error))
    }
}
