// The GATT client's procedures as calls with completions: discovery, reads, writes, subscriptions.
import OCBCore
import OCBATT

extension GATTClient {
    /// Exchange MTU (Core v5.4 Vol 3 Part G §4.3.1) offering `clientRxMTU` (23...517), sent through the bearer's one
    /// offer per connection; on success the completion gets ATT_MTU as the bearer settled it (min(offer, Server Rx
    /// MTU), §3.4.2.2), which ``mtu`` then holds. Errors: ``GATTError/att(_:handle:)`` e.g. Request Not Supported.
    public func exchangeMTU(clientRxMTU: UInt16 = 517, completion: @escaping (Result<Int, GATTError>) -> Void) {
        let offer = min(517, max(23, clientRxMTU))
        start(GATTExchangeMTU(clientRxMTU: offer)) { [weak self] _, result in
            // The bearer settled ATT_MTU before completing the request: mtu is the bearer's value already.
            completion(result.map { procedureValue in self?.mtu ?? procedureValue })
        }
    }

    /// Discover All Primary Services (§4.4.1); found services enter the cache (also when it fails part-way).
    public func discoverAllPrimaryServices(completion: @escaping (Result<[GATTService], GATTError>) -> Void) {
        start(GATTDiscoverPrimaryServices()) { [weak self] procedure, result in
            self?.cache.insert(procedure.found)
            completion(result)
        }
    }

    /// Discover Primary Service by Service UUID (§4.4.2); found services enter the cache.
    public func discoverPrimaryServices(uuid: BluetoothUUID, completion: @escaping (Result<[GATTService], GATTError>) -> Void) {
        discoverPrimaryServices(uuid: uuid, ahead: false, completion: completion)
    }

    /// ``discoverPrimaryServices(uuid:completion:)``, ahead of the queue when `ahead` (a step of a chain of procedures
    /// that must not let other requests in between).
    func discoverPrimaryServices(uuid: BluetoothUUID, ahead: Bool, completion: @escaping (Result<[GATTService], GATTError>) -> Void) {
        start(GATTDiscoverPrimaryServices(uuid: uuid), ahead: ahead) { [weak self] procedure, result in
            self?.cache.insert(procedure.found)
            completion(result)
        }
    }

    /// Find Included Services (§4.5.1) of `service`; the includes enter the cache, and included services not
    /// yet known enter it as secondary services.
    public func findIncludedServices(of service: GATTService, completion: @escaping (Result<[GATTIncludedService], GATTError>) -> Void) {
        start(GATTFindIncludedServices(service: service)) { [weak self] procedure, result in
            guard let self else { return }
            self.cache.setIncludedServices(procedure.found, ofServiceAt: service.startHandle)
            let unknown = procedure.found.filter { self.cache.service(startingAt: $0.startHandle) == nil }
            self.cache.insert(unknown.map { GATTService(uuid: $0.uuid, isPrimary: false, startHandle: $0.startHandle, endHandle: $0.endHandle) })
            completion(result)
        }
    }

    /// Discover All Characteristics of a Service (§4.6.1), or with `uuid` Discover Characteristics by UUID
    /// (§4.6.2). Every characteristic found enters the cache (by-UUID discovery sees them all anyway);
    /// the completion gets the ones asked for.
    public func discoverCharacteristics(of service: GATTService, uuid: BluetoothUUID? = nil,
                                        completion: @escaping (Result<[GATTCharacteristic], GATTError>) -> Void) {
        discoverCharacteristics(of: service, uuid: uuid, ahead: false, completion: completion)
    }

    /// ``discoverCharacteristics(of:uuid:completion:)``, ahead of the queue when `ahead` (a step of a chain).
    func discoverCharacteristics(of service: GATTService, uuid: BluetoothUUID?, ahead: Bool,
                                 completion: @escaping (Result<[GATTCharacteristic], GATTError>) -> Void) {
        start(GATTDiscoverCharacteristics(service: service, uuid: uuid), ahead: ahead) { [weak self] procedure, result in
            self?.cache.setCharacteristics(procedure.allFound, ofServiceAt: service.startHandle)
            completion(result)
        }
    }

    /// Discover All Characteristic Descriptors (§4.7.1) of `characteristic`; no request when it has no room for any.
    public func discoverDescriptors(of characteristic: GATTCharacteristic,
                                    completion: @escaping (Result<[GATTDescriptor], GATTError>) -> Void) {
        discoverDescriptors(of: characteristic, ahead: false, completion: completion)
    }

    /// ``discoverDescriptors(of:completion:)``, ahead of the queue when `ahead` (a step of a chain).
    func discoverDescriptors(of characteristic: GATTCharacteristic, ahead: Bool,
                             completion: @escaping (Result<[GATTDescriptor], GATTError>) -> Void) {
        start(GATTDiscoverDescriptors(characteristic: characteristic), ahead: ahead) { [weak self] procedure, result in
            self?.cache.setDescriptors(procedure.found, ofCharacteristicAt: characteristic.declarationHandle)
            completion(result)
        }
    }

    /// Discovers the whole database in `range` (services, includes, characteristics, descriptors) into the
    /// cache, then, when ``subscribesToServiceChanged`` and a Service Changed characteristic with a CCCD was
    /// found, enables its indications. The completion gets the cache.
    public func discoverDatabase(range: ClosedRange<AttributeHandle> = 0x0001...0xFFFF,
                                 completion: @escaping (Result<GATTAttributeCache, GATTError>) -> Void) {
        start(GATTDiscoverDatabase(range: range)) { [weak self] procedure, result in
            guard let self else { return }
            self.merge(procedure.found)
            if case .success = result, self.subscribesToServiceChanged { self.writeServiceChangedConfiguration(first: true) { _ in } }
            completion(result.map { _ in self.cache })
        }
    }

    /// Finds the Service Changed characteristic (0x2A05 in «Generic Attribute» 0x1801, Vol 3 Part G §7.1) when the
    /// cache does not know it yet, with its descriptors, and enables its indications (CCCD 0x0002); the client then
    /// handles them (``serviceChangeHandler``). Completes with true when enabled, false when the server has no
    /// indicatable Service Changed characteristic with a CCCD; errors are the procedures' (``GATTError``).
    public func enableServiceChangedIndications(completion: @escaping (Result<Bool, GATTError>) -> Void) {
        if serviceChangedCharacteristic.map({ cache.descriptors[$0.declarationHandle] != nil }) == true {
            return writeServiceChangedConfiguration(first: false, completion: completion)
        }
        discoverPrimaryServices(uuid: GATTAttributeType.genericAttributeService) { [weak self] result in
            guard let self else { return }
            guard case .success(let services) = result, let service = services.first else { return completion(result.map { _ in false }) }
            // Each later step goes ahead of the queue: requests the app made meanwhile wait until the set-up is done,
            // so what goes on the wire does not depend on how fast the peer answers (a strict replay sees one order).
            self.discoverCharacteristics(of: service, uuid: GATTAttributeType.serviceChanged, ahead: true) { [weak self] result in
                guard let self else { return }
                guard case .success(let found) = result, let characteristic = found.first, characteristic.properties.contains(.indicate)
                else { return completion(result.map { _ in false }) }
                self.discoverDescriptors(of: characteristic, ahead: true) { [weak self] result in
                    guard let self else { return }
                    guard case .success = result else { return completion(result.map { _ in false }) }
                    self.writeServiceChangedConfiguration(first: true, completion: completion)
                }
            }
        }
    }

    /// Writes 0x0002 (indications) to the cached Service Changed characteristic's CCCD (`first`: ahead of the queue);
    /// false without one.
    private func writeServiceChangedConfiguration(first: Bool, completion: @escaping (Result<Bool, GATTError>) -> Void) {
        guard let serviceChanged = serviceChangedCharacteristic,
              let cccd = cache.descriptor(GATTAttributeType.clientCharacteristicConfiguration, of: serviceChanged) else {
            return completion(.success(false))
        }
        let value = GATTClientCharacteristicConfiguration.indication.bytes
        start(GATTWrite(handle: cccd.handle, value: value, mtu: mtu), ahead: first) { _, result in
            completion(result.map { _ in true })
        }
    }

    /// Read Characteristic Value (§4.8.1) or Read Characteristic Descriptor (§4.12.1) at `handle`; with `long`,
    /// Read Long Characteristic Values / Descriptors (§4.8.3, §4.12.2): Read Blob until a part shorter than ATT_MTU-1.
    public func read(_ handle: AttributeHandle, long: Bool = false, completion: @escaping (Result<[UInt8], GATTError>) -> Void) {
        start(GATTRead(handle: handle, long: long, mtu: mtu)) { _, result in completion(result) }
    }

    /// Read Using Characteristic UUID (§4.8.2): the handle-value pairs of characteristics of type `uuid` in `range`.
    public func readUsingCharacteristicUUID(_ uuid: BluetoothUUID, in range: ClosedRange<AttributeHandle> = 0x0001...0xFFFF,
                                            completion: @escaping (Result<[GATTHandleValue], GATTError>) -> Void) {
        start(GATTReadUsingCharacteristicUUID(range: range, uuid: uuid)) { _, result in completion(result) }
    }

    /// Read Multiple Characteristic Values (§4.8.4): the values of `handles` (two or more) concatenated.
    public func readMultiple(_ handles: [AttributeHandle], completion: @escaping (Result<[UInt8], GATTError>) -> Void) {
        start(GATTReadMultiple(handles: handles, mtu: mtu)) { _, result in completion(result) }
    }

    /// Read Multiple Variable Length Characteristic Values (§4.8.5): the value of each of `handles` (two or more).
    public func readMultipleVariable(_ handles: [AttributeHandle], completion: @escaping (Result<[GATTHandleValue], GATTError>) -> Void) {
        start(GATTReadMultipleVariable(handles: handles, mtu: mtu)) { _, result in completion(result) }
    }

    /// Write Characteristic Value (§4.9.3) or Write Characteristic Descriptor (§4.12.3): a Write Request of at
    /// most ATT_MTU-3 bytes. Errors: ``GATTError/valueTooLong(length:maximum:)``, ``GATTError/att(_:handle:)``.
    public func write(_ value: [UInt8], to handle: AttributeHandle, completion: @escaping (Result<Void, GATTError>) -> Void) {
        start(GATTWrite(handle: handle, value: value, mtu: mtu)) { _, result in completion(result) }
    }

    /// Write Long Characteristic Values / Descriptors (§4.9.4, §4.12.4): Prepare Writes of ATT_MTU-5 bytes, each
    /// echo checked, then Execute Write. At most 512 bytes.
    public func writeLong(_ value: [UInt8], to handle: AttributeHandle, completion: @escaping (Result<Void, GATTError>) -> Void) {
        start(GATTPreparedWrite(writes: [GATTHandleValue(handle: handle, value: value)], mtu: mtu)) { _, result in
            completion(result)
        }
    }

    /// Reliable Writes (§4.9.5): every value prepared and checked against its echo, then written at once;
    /// a differing echo cancels all (``GATTError/preparedValueMismatch(handle:offset:)``).
    public func reliableWrite(_ writes: [GATTHandleValue], completion: @escaping (Result<Void, GATTError>) -> Void) {
        start(GATTPreparedWrite(writes: writes, mtu: mtu)) { _, result in completion(result) }
    }

    /// Write Without Response (§4.9.1): a Write Command of at most ATT_MTU-3 bytes, queued for sending now
    /// (commands need no turn). Throws ``GATTError/valueTooLong(length:maximum:)``, or the error the bearer closed with.
    public func writeWithoutResponse(_ value: [UInt8], to handle: AttributeHandle) throws(GATTError) {
        if let closedError { throw closedError }
        guard value.count <= mtu - 3 else { throw GATTError.valueTooLong(length: value.count, maximum: mtu - 3) }
        try sendCommand(ATTWriteCommand(attributeHandle: handle, attributeValue: value))
    }

    /// Signed Write Without Response (§4.9.2): a Signed Write Command of at most ATT_MTU-15 bytes signed by
    /// ``signer``. Throws ``GATTError/needsBonding`` while no signing key is present.
    public func signedWriteWithoutResponse(_ value: [UInt8], to handle: AttributeHandle) throws(GATTError) {
        if let closedError { throw closedError }
        guard let signer else { throw GATTError.needsBonding }
        guard value.count <= mtu - 15 else { throw GATTError.valueTooLong(length: value.count, maximum: mtu - 15) }
        // The signature covers the PDU up to it: opcode, handle, value (Vol 3 Part H §2.4.5).
        let unsigned = [ATTOpcode.signedWriteCommand.rawValue, UInt8(truncatingIfNeeded: handle.rawValue), UInt8(truncatingIfNeeded: handle.rawValue >> 8)] + value
        guard let command = ATTSignedWriteCommand(attributeHandle: handle, attributeValue: value,
                                                  authenticationSignature: signer(unsigned)) else {
            throw GATTError.needsBonding
        }
        try sendCommand(command)
    }

    /// Sends a command through the bearer, its refusal as a ``GATTError``.
    private func sendCommand<Command: ATTCommandPDU>(_ command: Command) throws(GATTError) {
        do throws(ATTBearerError) { try bearer.send(command) } catch {
            throw closedError ?? .invalidRequest(error.description)
        }
    }

    /// Enables notifications or indications of `characteristic` (§4.10, §4.11) by writing its CCCD (§3.3.3.3):
    /// `handler` is registered before the Write Request goes out, and removed again if the write fails.
    /// `configuration` defaults to notification when the characteristic notifies, else indication.
    /// Errors: ``GATTError/notFound(_:)`` when no CCCD was discovered for it, and the write's errors.
    public func subscribe(to characteristic: GATTCharacteristic, configuration: GATTClientCharacteristicConfiguration? = nil,
                          handler: @escaping ([UInt8]) -> Void, completion: @escaping (Result<Void, GATTError>) -> Void) {
        let wanted = configuration ?? (characteristic.properties.contains(.notify) ? .notification : .indication)
        guard let cccd = cache.descriptor(GATTAttributeType.clientCharacteristicConfiguration, of: characteristic) else {
            completion(.failure(.notFound("Client Characteristic Configuration of \(characteristic)")))
            return
        }
        setValueHandler(forValueHandle: characteristic.valueHandle, handler)
        write(wanted.bytes, to: cccd.handle) { [weak self] result in
            if case .failure = result { self?.setValueHandler(forValueHandle: characteristic.valueHandle, nil) }
            completion(result)
        }
    }

    /// Disables notifications and indications of `characteristic` by writing 0x0000 to its CCCD; the handler is
    /// removed once the write is answered.
    public func unsubscribe(from characteristic: GATTCharacteristic, completion: @escaping (Result<Void, GATTError>) -> Void) {
        guard let cccd = cache.descriptor(GATTAttributeType.clientCharacteristicConfiguration, of: characteristic) else {
            completion(.failure(.notFound("Client Characteristic Configuration of \(characteristic)")))
            return
        }
        write(GATTClientCharacteristicConfiguration().bytes, to: cccd.handle) { [weak self] result in
            self?.setValueHandler(forValueHandle: characteristic.valueHandle, nil)
            completion(result)
        }
    }
}
