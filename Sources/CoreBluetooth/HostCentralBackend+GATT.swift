// GATT requests over each connection's GATTClient: discovery, long reads, writes, CCCD writes and RSSI.
package import OCBCore
package import OCBATT
package import OCBGATT
package import OCBHost

extension HostCentralBackend {
    /// Runs `body` with the client of `peer`'s link on the host's queue; answers `.failure(.disconnected)` when the
    /// link is gone (the facade only asks while it believes the peer connected). `respond` hops back to `queue`.
    func withClient(_ peer: PeerAddress, _ request: RequestID,
                    _ body: @escaping @Sendable (GATTClient, _ respond: @escaping @Sendable (BackendResponse) -> Void) -> Void) {
        submit { [self] in
            let respond: @Sendable (BackendResponse) -> Void = { [weak self] response in
                self?.post(.response(peer, request, response))
            }
            guard let link = links[peer] else { return respond(.failure(.disconnected)) }
            host.withGATT(link.handle) { client in
                guard let client else { return respond(.failure(.disconnected)) }
                body(client, respond)
            }
        }
    }

    /// Discover Primary Service by Service UUID (Core v5.4 Vol 3 Part G §4.4.2) when `uuids` holds exactly one UUID,
    /// else Discover All Primary Services (§4.4.1; the facade filters by `uuids`). Responds `.services`, or `.failure`
    /// with the GATT error (`.disconnected` when the link is gone).
    package func discoverServices(_ peer: PeerAddress, request: RequestID, uuids: [BluetoothUUID]?) {
        withClient(peer, request) { client, respond in
            let done: ([GATTService]) -> Void = { services in respond(.services(services)) }
            if let uuids, uuids.count == 1, let uuid = uuids.first {
                client.discoverPrimaryServices(uuid: uuid) { answer($0, respond, done) }
            } else {
                client.discoverAllPrimaryServices { answer($0, respond, done) }
            }
        }
    }

    /// Find Included Services (Core v5.4 Vol 3 Part G §4.5.1) in the service's handle range. Responds
    /// `.includedServices` (the include declarations), or `.failure`.
    package func discoverIncludedServices(_ peer: PeerAddress, request: RequestID, in service: ClosedRange<AttributeHandle>) {
        withClient(peer, request) { client, respond in
            client.findIncludedServices(of: Self.service(service, in: client)) { result in
                answer(result, respond) { respond(.includedServices($0)) }
            }
        }
    }

    /// Discover Characteristics by UUID (Core v5.4 Vol 3 Part G §4.6.2) when `uuids` holds exactly one UUID, else
    /// Discover All Characteristics of a Service (§4.6.1), in the service's handle range. Responds `.characteristics`
    /// (properties byte as on air, §3.3.1.1), or `.failure`.
    package func discoverCharacteristics(_ peer: PeerAddress, request: RequestID, in service: ClosedRange<AttributeHandle>, uuids: [BluetoothUUID]?) {
        withClient(peer, request) { client, respond in
            let uuid = uuids?.count == 1 ? uuids?.first : nil
            client.discoverCharacteristics(of: Self.service(service, in: client), uuid: uuid) { result in
                answer(result, respond) { respond(.characteristics($0)) }
            }
        }
    }

    /// Discover All Characteristic Descriptors (Core v5.4 Vol 3 Part G §4.7.1) in `range` (value handle + 1 ...
    /// characteristic end). Responds `.descriptors`, or `.failure`.
    package func discoverDescriptors(_ peer: PeerAddress, request: RequestID, in range: ClosedRange<AttributeHandle>) {
        withClient(peer, request) { client, respond in
            client.discoverDescriptors(of: Self.characteristic(descriptors: range, in: client)) { result in
                answer(result, respond) { respond(.descriptors($0)) }
            }
        }
    }

    /// Reads in full (Read, then Read Blob while parts fill the PDU, Vol 3 Part G §4.8.3), as iOS always does.
    /// A read of the GAP Device Name (0x2A00, Vol 3 Part C §12.1) also reports ``BackendEvent/nameChanged(_:name:)``.
    package func read(_ peer: PeerAddress, request: RequestID, handle: AttributeHandle) {
        withClient(peer, request) { [weak self] client, respond in
            let isDeviceName = client.cache.characteristic(valueHandle: handle)?.uuid == BluetoothUUID(0x2A00)
            client.read(handle, long: true) { result in
                if isDeviceName, case .success(let bytes) = result {
                    self?.post(.nameChanged(peer, name: String(decoding: bytes, as: UTF8.self)))
                }
                answer(result, respond) { respond(.value($0)) }
            }
        }
    }

    /// With response: Write Characteristic Value (Core v5.4 Vol 3 Part G §4.9.3) when the value fits ATT_MTU - 3
    /// bytes, else Write Long Characteristic Values (§4.9.4, Prepare/Execute Write); responds `.written` or `.failure`.
    /// Without response (or without a request ID): Write Without Response (§4.9.1), no response; a value longer than
    /// ATT_MTU - 3 is refused by the GATT client and dropped with a diagnostic; a full ACL queue is reported as
    /// ``BackendEvent/writeWithoutResponseAvailability(_:canSend:)`` false.
    package func write(_ peer: PeerAddress, request: RequestID?, handle: AttributeHandle, value: [UInt8], withResponse: Bool) {
        guard withResponse, let request else { return writeWithoutResponse(peer, handle: handle, value: value) }
        withClient(peer, request) { client, respond in
            let done: (Result<Void, GATTError>) -> Void = { result in answer(result, respond) { respond(.written) } }
            if value.count <= client.mtu - 3 {
                client.write(value, to: handle, completion: done)
            } else {
                client.writeLong(value, to: handle, completion: done)
            }
        }
    }

    /// A Write Command (Vol 3 Part G §4.9.1), then ``BackendEvent/writeWithoutResponseSent(_:canSend:)`` with whether
    /// the host's ACL queue toward the controller has room; when it had none, ``Host/HostEvent/readyToSendWriteWithoutResponse(handle:)``
    /// says when it drained (as ``BackendEvent/writeWithoutResponseAvailability(_:canSend:)`` true).
    func writeWithoutResponse(_ peer: PeerAddress, handle: AttributeHandle, value: [UInt8]) {
        submit { [self] in
            guard let link = links[peer] else { return emit(.writeWithoutResponseSent(peer, canSend: false)) }
            host.withGATT(link.handle) { client in
                do {
                    try client?.writeWithoutResponse(value, to: handle)
                } catch {
                    Diagnostics.warning("write without response to 0x\(String(handle.rawValue, radix: 16)) dropped: \(error)")
                }
            }
            // Asked in a block after the write (which waits as a request when the app's earlier ones do: the
            // backend shares the host's queue, where the question would otherwise be answered in place, before the
            // write went out), so it sees it; false arms the host's readyToSendWriteWithoutResponse for when its ACL
            // queue drains.
            let handle = link.handle
            queue.async { [self] in emit(.writeWithoutResponseSent(peer, canSend: host.canSendWriteWithoutResponse(handle))) }
        }
    }

    /// ``CentralBackend/writeSigned(_:handle:value:)``: signed by the link's GATT client (the bond's CSRK and counter),
    /// or plain on an encrypted link (Vol 3 Part G §4.9.2); a refusal (no bond with a CSRK: pair first) is a warning.
    package func writeSigned(_ peer: PeerAddress, handle: AttributeHandle, value: [UInt8]) {
        submit { [self] in
            guard let link = links[peer] else { return emit(.writeWithoutResponseSent(peer, canSend: false)) }
            let host = self.host
            host.withGATT(link.handle) { client in
                do {
                    // Decided where the write goes out: an Encryption Change cannot come in between.
                    if host.security(of: link.handle)?.encrypted == true {
                        try client?.writeWithoutResponse(value, to: handle)
                    } else {
                        try client?.signedWriteWithoutResponse(value, to: handle)
                    }
                } catch GATTError.needsBonding {
                    Diagnostics.warning("signed write to 0x\(String(handle.rawValue, radix: 16)) dropped: it needs a bond with this device that holds this host's signing key (CSRK): pair first (CBPeripheral.pair(), or `cbtool pair`)")
                } catch {
                    Diagnostics.warning("signed write to 0x\(String(handle.rawValue, radix: 16)) dropped: \(error)")
                }
            }
            let handle = link.handle
            queue.async { [self] in emit(.writeWithoutResponseSent(peer, canSend: host.canSendWriteWithoutResponse(handle))) }
        }
    }

    /// Subscribes to (or, with `[]`, unsubscribes from) the characteristic whose value handle is `valueHandle` with the
    /// GATT client's procedures (``OCBGATT/GATTClient/subscribe(to:configuration:handler:completion:)``, Core v5.4
    /// Vol 3 Part G §4.10, §4.11: handler first, then the CCCD write), first discovering its descriptors in
    /// `valueHandle + 1 ... endHandle` when the client's cache has no CCCD for it (`cccdHandle`, the one the app
    /// discovered, is then already cached). Values arrive as ``BackendEvent/valueNotified(_:handle:value:isIndication:)``.
    /// Responds `.written`, `.failure(.att(.attributeNotFound))` when there is no CCCD, or the write's failure.
    package func setNotification(_ peer: PeerAddress, request: RequestID, valueHandle: AttributeHandle, endHandle: AttributeHandle,
                                cccdHandle: AttributeHandle?, configuration: GATTClientCharacteristicConfiguration) {
        withClient(peer, request) { [weak self] client, respond in
            let characteristic = Self.characteristic(descriptors: (valueHandle &+ 1)...max(valueHandle &+ 1, endHandle), in: client)
            let configure = {
                let done: (Result<Void, GATTError>) -> Void = { result in answer(result, respond) { respond(.written) } }
                guard !configuration.isEmpty else { return client.unsubscribe(from: characteristic, completion: done) }
                let isIndication = !configuration.contains(.notification)
                // On the host's queue: each value joins the host's hand-over of the read it came in (one
                // dispatch per read, not per value).
                client.subscribe(to: characteristic, configuration: configuration, handler: { value in
                    guard let self else { return }
                    // Strong until it ran: a weak reference made per value costs more than the value's whole hand-over.
                    self.post(.valueNotified(peer, handle: valueHandle, value: value, isIndication: isIndication))
                }, completion: done)
            }
            if client.cache.descriptor(GATTAttributeType.clientCharacteristicConfiguration, of: characteristic) != nil { return configure() }
            guard valueHandle < endHandle else { return respond(.failure(.att(.attributeNotFound))) }
            client.discoverDescriptors(of: characteristic) { result in
                answer(result, respond) { found in
                    guard found.contains(where: { $0.uuid == GATTAttributeType.clientCharacteristicConfiguration }) else {
                        return respond(.failure(.att(.attributeNotFound)))
                    }
                    configure()
                }
            }
        }
    }

    /// HCI Read RSSI (Core v5.4 Vol 4 Part E §7.5.4) on the peer's connection. Responds `.rssi` in dBm, or `.failure`
    /// (`.disconnected`; in kernel mode always a failure: the kernel socket gives no RSSI).
    package func readRSSI(_ peer: PeerAddress, request: RequestID) {
        submit { [self] in
            guard let link = links[peer] else { return emit(.response(peer, request, .failure(.disconnected))) }
            host.readRSSI(link.handle) { [weak self] result in
                // Completions arrive on `queue`.
                switch result {
                case .success(let rssi): self?.emit(.response(peer, request, .rssi(Int(rssi))))
                case .failure(let error): self?.emit(.response(peer, request, .failure(BackendError(error))))
                }
            }
        }
    }

    /// Encrypts the peer's link (`CentralHost.secure`): the bond's key, else pairing. Responds `.security`, or `.failure`.
    package func pair(_ peer: PeerAddress, request: RequestID) {
        submit { [self] in
            guard let link = links[peer] else { return emit(.response(peer, request, .failure(.notConnected))) }
            host.secure(link.handle) { [weak self] result in
                switch result {
                case .success(let security): self?.emit(.response(peer, request, .security(security)))
                case .failure(let error): self?.emit(.response(peer, request, .failure(BackendError(error))))
                }
            }
        }
    }

    /// ``CentralBackend/setPairingPrompts(_:)``: KeyboardDisplay while a user answers, else NoInputNoOutput.
    package func setPairingPrompts(_ enabled: Bool) {
        host.setPairingIOCapability(enabled ? .keyboardDisplay : .noInputNoOutput)
    }

    /// ``CentralBackend/answerPairing(_:_:)``: to the peer's link, if it still has one.
    package func answerPairing(_ peer: PeerAddress, _ answer: PairingAnswer, prompt id: UInt64) {
        submit { [self] in
            guard let link = links[peer] else { return }
            host.answerPairing(link.handle, answer, prompt: id)
        }
    }

    /// The cached service for a handle range, or one made from the range (procedures use only its handles).
    static func service(_ range: ClosedRange<AttributeHandle>, in client: GATTClient) -> GATTService {
        client.cache.service(startingAt: range.lowerBound).flatMap { $0.endHandle == range.upperBound ? $0 : nil }
            ?? GATTService(uuid: BluetoothUUID(0x0000), isPrimary: true, startHandle: range.lowerBound, endHandle: range.upperBound)
    }

    /// The cached characteristic whose descriptors lie in `range` (value handle just before it), or one made from the
    /// range: the declaration immediately precedes the value (Core v5.4 Vol 3 Part G §3.3).
    static func characteristic(descriptors range: ClosedRange<AttributeHandle>, in client: GATTClient) -> GATTCharacteristic {
        let valueHandle = range.lowerBound &- 1
        if let cached = client.cache.characteristic(valueHandle: valueHandle), cached.endHandle == range.upperBound { return cached }
        return GATTCharacteristic(declarationHandle: valueHandle &- 1, valueHandle: valueHandle, endHandle: range.upperBound,
                                  properties: [], uuid: BluetoothUUID(0x0000))
    }
}

/// Answers a failed procedure with its backend error, or runs `success` on its value.
private func answer<Value>(_ result: Result<Value, GATTError>, _ respond: (BackendResponse) -> Void,
                           _ success: (Value) -> Void) {
    switch result {
    case .success(let value): success(value)
    case .failure(let error): respond(.failure(BackendError(error)))
    }
}
