// Kernel mode connections: one L2CAP ATT socket per peer, with the same per-link ATT bearer and GATT client as the full host.

import OCBCore
import Dispatch
import OCBGATT
import OCBHCI

extension KernelHost {
    /// Opens a kernel L2CAP socket on the ATT fixed channel (CID 0x0004) to `peer`; the kernel creates the LE
    /// connection with its own parameters (only `options.timeout` is used; nil waits one hour). Ends in
    /// ``HostEvent/connected(_:)`` or ``HostEvent/connectionFailed(_:_:)`` (``HostError/notPoweredOn(_:)`` before
    /// start, ``HostError/permissionDenied(_:)`` or ``HostError/transportFailed(_:)`` from the socket). A second call
    /// while an attempt to `peer` is pending is ignored.
    public func connect(to peer: PeerAddress, options: ConnectOptions) {
        request {
            guard self.currentState == .poweredOn else { return self.emit(.connectionFailed(peer, .notPoweredOn(self.currentState))) }
            guard self.connecting[peer] == nil else { return }
            let socket = L2CAPSocket()
            self.connecting[peer] = socket
            // A bonded device known by a private address is connected by its identity: the kernel, holding its IRK,
            // finds the address it uses now.
            var target = peer
            if self.kernelBonds != nil, let bond = self.kernelBondBook.bond(for: peer.address), bond.identityResolvingKey != nil,
               let identity = BluetoothAddress(bond.peer) {
                target = PeerAddress(identity, type: bond.peerAddressType == "public" ? .public : .random)
            }
            do {
                try socket.connect(to: target.address, addressType: target.type, timeout: options.timeout ?? .seconds(3600), queue: self.queue,
                                   onConnect: { [weak self] result in self?.connected(peer, socket, result) },
                                   onPDU: { [weak self] pdu in self?.receiveATT(pdu, from: socket) },
                                   onClose: { [weak self] error in self?.closed(socket, error) })
            } catch {
                self.connecting[peer] = nil
                self.emit(.connectionFailed(peer, HostController.hostError(opening: error)))
            }
        }
    }

    /// Closes the pending socket to `peer`; the attempt ends with ``HostEvent/connectionFailed(_:_:)``. No effect when
    /// nothing is pending.
    public func cancelConnect(to peer: PeerAddress) {
        request { self.connecting[peer]?.cancel() }
    }

    /// Closes the connection's L2CAP socket; the kernel disconnects the link when no other socket uses it, with a
    /// reason of its choice (`reason` is not sent). Ends in ``HostEvent/disconnected(_:reason:error:)``. No effect
    /// for an unknown handle.
    public func disconnect(_ handle: ConnectionHandle, reason: HCIErrorCode = .remoteUserTerminatedConnection) {
        request {
            guard self.links[handle] != nil else { return }
            self.links[handle]?.disconnectRequested = true
            self.links[handle]?.socket.close()
        }
    }

    /// Always fails with ``HostError/unsupported(_:)``: an L2CAP socket gives no HCI Read RSSI (Vol 4 Part E §7.5.4)
    /// and the raw channel must not send commands for a connection the kernel owns.
    public func readRSSI(_ handle: ConnectionHandle, completion: @escaping @Sendable (Result<Int8, HostError>) -> Void) {
        deliver { completion(.failure(.unsupported("Read RSSI in kernel mode"))) }
    }

    /// Queues the request PDU on the connection's ATT bearer (one outstanding, FIFO) and delivers the response PDU,
    /// an ATT_ERROR_RSP included; an ATT_EXCHANGE_MTU_REQ goes through ``exchangeMTU(_:on:completion:)``. Fails with
    /// ``HostError/notConnected(_:)``, ``HostError/attTimeout(_:)`` after 30 s (Vol 3 Part F §3.3.3),
    /// ``HostError/attRequestRejected(_:)`` for bytes that are not a well-formed request, or ``HostError/disconnected(_:_:)``.
    public func sendATTRequest(_ pdu: [UInt8], on handle: ConnectionHandle, completion: @escaping @Sendable (Result<[UInt8], HostError>) -> Void) {
        queueATTRequest(pdu, on: handle, completion: completion)
    }

    /// Sends a PDU that gets no response on the connection's socket: ATT_WRITE_CMD and ATT_SIGNED_WRITE_CMD through
    /// the bearer, other bytes as given (for tests). Completes with nil once written, ``HostError/notConnected(_:)``,
    /// ``HostError/attRequestRejected(_:)`` for a command longer than ATT_MTU, the link's close error, or
    /// ``HostError/transportFailed(_:)`` when the socket refuses it (e.g. its buffer is full).
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

    /// True while the connection is open for ATT: the kernel's socket buffers Write Commands (a full buffer
    /// makes the send fail rather than wait), so ``HostEvent/readyToSendWriteWithoutResponse(handle:)`` never fires here.
    public func canSendWriteWithoutResponse(_ handle: ConnectionHandle) -> Bool {
        onQueue { links[handle].map { !$0.att.isClosed } ?? false }
    }

    /// Writes one ATT PDU to the connection's L2CAP socket (one PDU per write on the ATT fixed channel);
    /// ``HostError/transportFailed(_:)`` when the socket refuses it.
    func transmitATT(_ pdu: [UInt8], on handle: ConnectionHandle) -> HostError? {
        guard let socket = links[handle]?.socket else { return .notConnected(handle) }
        do throws(HCITransportError) { try socket.send(pdu) } catch { return .transportFailed("\(error)") }
        return nil
    }

    /// Nothing to track: the kernel's socket buffer takes what the link cannot send yet.
    func didTransmitATT(on handle: ConnectionHandle) {}

    private func connected(_ peer: PeerAddress, _ socket: L2CAPSocket, _ result: Result<ConnectionHandle, HCITransportError>) {
        guard connecting[peer] === socket else { return }
        connecting[peer] = nil
        switch result {
        case .success(let handle):
            let info = ConnectionInfo(handle: handle, peer: peer, role: .central,
                                      parameters: LinkParameters(interval: 0, latency: 0, supervisionTimeout: 0))
            links[handle] = KernelLink(info: info, socket: socket)
            attachKernelSigner(handle)
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
        guard let handle = links.first(where: { $0.value.socket === socket })?.key else { return }
        receiveATT(pdu, on: handle)
    }

    /// The connection's L2CAP socket ended. The socket carries no Disconnection Complete reason (the kernel turns it
    /// into a lossy errno), but the raw HCI socket gets the event itself, and the kernel hands it to raw sockets before
    /// it fails the L2CAP socket (hci_rx_work: hci_send_to_sock, then hci_event_packet). So an end we did not ask for
    /// waits up to ``disconnectionReasonWait`` for ``linkDisconnected(_:)``; without the event (a raw socket gone),
    /// it is reported as 0x13 Remote User Terminated Connection.
    private func closed(_ socket: L2CAPSocket, _ error: HCITransportError?) {
        guard let handle = links.first(where: { $0.value.socket === socket })?.key else { return }
        if links[handle]?.disconnectRequested == true {
            return endLink(handle, reason: .connectionTerminatedByLocalHost, error: nil)
        }
        queue.asyncAfter(deadline: .now() + Self.disconnectionReasonWait) { [weak self] in
            guard let self, links[handle]?.socket === socket else { return }
            endLink(handle, reason: .remoteUserTerminatedConnection, error: .disconnected(handle, .remoteUserTerminatedConnection))
        }
    }

    /// How long a socket end waits for its Disconnection Complete on the raw socket: 200 ms.
    static let disconnectionReasonWait: DispatchTimeInterval = .milliseconds(200)

    /// HCI Disconnection Complete (Core v5.4 Vol 4 Part E §7.7.5) seen on the raw socket: the link ends with its
    /// reason (ours, 0x16, when we asked).
    func linkDisconnected(_ event: HCIDisconnectionCompleteEvent) {
        guard event.status == .success, let link = links[event.handle] else { return }
        if link.disconnectRequested { return endLink(event.handle, reason: .connectionTerminatedByLocalHost, error: nil) }
        endLink(event.handle, reason: event.reason, error: .disconnected(event.handle, event.reason))
    }

    /// ``ATTLinkHost/disconnectAfterATTTimeout(_:)``: closes the connection's L2CAP socket (the kernel drops the LE
    /// link when no channel is left) and reports the end with ``HostError/attTimeout(_:)`` at once.
    func disconnectAfterATTTimeout(_ handle: ConnectionHandle) {
        endLink(handle, reason: .connectionTerminatedByLocalHost, error: .attTimeout(handle))
    }

    /// Forgets a link, closes its GATT client (procedures end with GATTError.disconnected) and fails its ATT requests (on `queue`).
    func endLink(_ handle: ConnectionHandle, reason: HCIErrorCode, error: HostError?) {
        guard let link = links.removeValue(forKey: handle) else { return }
        link.security.cancelWait?()
        link.socket.close()
        link.att.close(error ?? .disconnected(handle, reason), now: .now)
        endSecurity(link, error: error ?? .disconnected(handle, reason))
        emit(.disconnected(link.info, reason: reason, error: error))
    }
}
