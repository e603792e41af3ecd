// How a peripheral hands the app's requests to the backend and answers each with its delegate callback.
internal import OCBCore
internal import OCBHost
internal import OCBGATT
internal import OCBATT
import Foundation

extension CBPeripheral {
    /// Takes a request: `check` (run with the lock held, only when connected) gives a local error, if any, which is
    /// answered on the delegate queue without the backend; otherwise the request goes to the backend at once (from the
    /// caller's thread) and waits among ``operations`` for its response. The facade keeps no queue of its own: the
    /// link's ATT bearer orders the GATT requests (one transaction at a time, one procedure per turn), and Read RSSI
    /// goes to the controller without waiting behind them.
    func enqueue(_ kind: PendingOperation.Kind, check: () -> (any Error)?) {
        let operation: PendingOperation = lock.run {
            let id = RequestID(rawValue: manager?.nextRequestNumber() ?? 0)
            var error: (any Error)?
            if storedState != .connected {
                Diagnostics.misuse("\(self) can only accept commands while in the connected state")
                error = CBError(.notConnected)
            } else {
                error = check()
            }
            let operation = PendingOperation(id: id, kind: kind, localError: error)
            if error == nil { operations.append(operation) }
            return operation
        }
        // Sent now, from the caller's thread (as iOS sends to bluetoothd): a delegate queue busy with a flood's
        // discoveries does not hold the request; only its answer comes on the delegate queue.
        dispatch(operation)
    }

    /// Why `attribute` cannot be used on this peripheral now, if it cannot (lock held).
    func ownershipError(_ attribute: CBAttribute) -> (any Error)? {
        let owner: CBPeripheral? = switch attribute {
        case let service as CBService: service.peripheral
        case let characteristic as CBCharacteristic: characteristic.service?.peripheral
        case let descriptor as CBDescriptor: descriptor.characteristic?.service?.peripheral
        default: nil
        }
        if attribute.invalidated { return CBError(.invalidHandle) }
        return owner === self ? nil : CBError(.invalidParameters)
    }

    /// Answers a request's local error (on the delegate queue), or sends it to the backend (from the caller's thread).
    /// An attribute invalidated (or a link lost) since it was checked is answered without the backend too.
    private func dispatch(_ operation: PendingOperation) {
        if let error = operation.localError { return queue.async { self.answer(operation, outcome: .failure(error)) } }
        let error: (any Error)? = lock.run {
            guard operations.contains(where: { $0 === operation }) else { return nil }  // failed by a disconnect already
            var error = ownershipErrorIfAttribute(operation.kind)
            if storedState != .connected { error = CBError(.notConnected) }
            if error != nil { operations.removeAll { $0 === operation } }
            operation.sent = error == nil
            return error
        }
        if let error { return queue.async { self.answer(operation, outcome: .failure(error)) } }
        if operation.sent { send(operation) }
    }

    /// Re-checks an attribute invalidated while the request waited (lock held).
    private func ownershipErrorIfAttribute(_ kind: PendingOperation.Kind) -> (any Error)? {
        switch kind {
        case .discoverServices, .readRSSI, .pair: nil
        case .openL2CAPChannel: CBError(.operationNotSupported)
        case .discoverIncludedServices(_, let service), .discoverCharacteristics(_, let service): ownershipError(service)
        case .discoverDescriptors(let c), .readCharacteristic(let c), .writeCharacteristic(let c, _, _), .setNotify(let c, _):
            ownershipError(c)
        case .readDescriptor(let d), .writeDescriptor(let d, _): ownershipError(d)
        }
    }

    private func send(_ operation: PendingOperation) {
        let id = operation.id
        switch operation.kind {
        case .discoverServices(let uuids):
            backend.discoverServices(peer, request: id, uuids: uuids)
        case .discoverIncludedServices(_, let service):
            backend.discoverIncludedServices(peer, request: id, in: service.startHandle...service.endHandle)
        case .discoverCharacteristics(let uuids, let service):
            backend.discoverCharacteristics(peer, request: id, in: service.startHandle...service.endHandle, uuids: uuids)
        case .discoverDescriptors(let characteristic):
            if characteristic.valueHandle < characteristic.endHandle {
                backend.discoverDescriptors(peer, request: id, in: (characteristic.valueHandle + 1)...characteristic.endHandle)
            } else {
                queue.async { self.handleResponse(id, .descriptors([])) }
            }
        case .readCharacteristic(let characteristic):
            backend.read(peer, request: id, handle: characteristic.valueHandle)
        case .readDescriptor(let descriptor):
            backend.read(peer, request: id, handle: descriptor.handle)
        case .writeCharacteristic(let characteristic, let bytes, let withResponse):
            backend.write(peer, request: operation.id, handle: characteristic.valueHandle, value: bytes, withResponse: withResponse)
        case .writeDescriptor(let descriptor, let bytes):
            backend.write(peer, request: id, handle: descriptor.handle, value: bytes, withResponse: true)
        case .setNotify(let characteristic, let enabled):
            let properties = characteristic.properties
            let configuration: GATTClientCharacteristicConfiguration = enabled ? (properties.contains(.notify) ? .notification : .indication) : []
            let cccd = lock.run { characteristic.storedDescriptors?.first { $0.uuid.bluetoothUUID == BluetoothUUID(0x2902) }?.handle }
            backend.setNotification(peer, request: id, valueHandle: characteristic.valueHandle, endHandle: characteristic.endHandle,
                                    cccdHandle: cccd, configuration: configuration)
        case .readRSSI:
            backend.readRSSI(peer, request: id)
        case .pair:
            backend.pair(peer, request: id)
        case .openL2CAPChannel:
            // Never reached: the request carries a local error (see `openL2CAPChannel(_:)`); answer it anyway.
            queue.async { self.handleResponse(id, .failure(.other("LE credit based channels are not supported"))) }
        }
    }

    /// A backend response for the request with `id` (on the delegate queue). Stray ones are ignored.
    func handleResponse(_ id: RequestID, _ response: BackendResponse) {
        let operation: PendingOperation? = lock.run {
            guard let index = operations.firstIndex(where: { $0.id == id && $0.sent }) else { return nil }
            return operations.remove(at: index)
        }
        guard let operation else { return }
        answer(operation, with: response)
    }

    /// Fails every queued request with `CBError.peripheralDisconnected` (on the delegate queue, after the link dropped).
    func failAll(_ operations: [PendingOperation]) {
        for operation in operations {
            answer(operation, outcome: .failure(CBError(.peripheralDisconnected)))
        }
    }

    /// Applies a result to the objects and calls the delegate method of the request.
    private func answer(_ operation: PendingOperation, with response: BackendResponse) {
        answer(operation, outcome: response.outcome)
    }

    private func answer(_ operation: PendingOperation, outcome: Result<BackendResponse, any Error>) {
        let delegate = self.delegate
        switch operation.kind {
        case .discoverServices(let uuids):
            let error = apply(outcome) { (services: [GATTService]) in mergeServices(services, filter: uuids) }
            delegate?.peripheral(self, didDiscoverServices: error)
        case .discoverIncludedServices(let uuids, let service):
            let error = apply(outcome) { (includes: [GATTIncludedService]) in mergeIncluded(includes, filter: uuids, into: service) }
            delegate?.peripheral(self, didDiscoverIncludedServicesFor: service, error: error)
        case .discoverCharacteristics(let uuids, let service):
            let error = apply(outcome) { (found: [GATTCharacteristic]) in mergeCharacteristics(found, filter: uuids, into: service) }
            delegate?.peripheral(self, didDiscoverCharacteristicsFor: service, error: error)
        case .discoverDescriptors(let characteristic):
            let error = apply(outcome) { (found: [GATTDescriptor]) in mergeDescriptors(found, into: characteristic) }
            delegate?.peripheral(self, didDiscoverDescriptorsFor: characteristic, error: error)
        case .readCharacteristic(let characteristic):
            let error = apply(outcome) { (bytes: [UInt8]) in characteristic.storedValue = Data(bytes) }
            delegate?.peripheral(self, didUpdateValueFor: characteristic, error: error)
        case .readDescriptor(let descriptor):
            let error = apply(outcome) { (bytes: [UInt8]) in
                descriptor.storedValue = CBDescriptor.typedValue(uuid: descriptor.uuid.bluetoothUUID, bytes: bytes)
            }
            delegate?.peripheral(self, didUpdateValueFor: descriptor, error: error)
        case .writeCharacteristic(let characteristic, _, let withResponse):
            let error = applyWritten(outcome) {}
            if withResponse { delegate?.peripheral(self, didWriteValueFor: characteristic, error: error) }
        case .writeDescriptor(let descriptor, _):
            let error = applyWritten(outcome) {}
            delegate?.peripheral(self, didWriteValueFor: descriptor, error: error)
        case .setNotify(let characteristic, let enabled):
            let error = applyWritten(outcome) { characteristic.storedIsNotifying = enabled }
            delegate?.peripheral(self, didUpdateNotificationStateFor: characteristic, error: error)
        case .readRSSI:
            var rssi = 0
            let error = apply(outcome) { (value: Int) in rssi = value }
                ?? ((-127...20).contains(rssi) ? nil : CBError(.unknown))
            if error == nil { lock.run { storedRSSI = NSNumber(value: rssi) } }
            delegate?.peripheral(self, didReadRSSI: NSNumber(value: error == nil ? rssi : 0), error: error)
        case .pair:
            let error = apply(outcome) { (security: LinkSecurity) in storedSecurity = security }
            delegate?.peripheral(self, didCompletePairingWithError: error)
        case .openL2CAPChannel:
            let error: any Error = switch outcome {
            case .failure(let error): error
            case .success: CBError(.operationNotSupported)
            }
            delegate?.peripheral(self, didOpen: nil, error: error)
        }
    }

    /// Runs `body` with the lock held on the payload of a success; the error otherwise (wrong payload → `.unknown`).
    private func apply<T>(_ outcome: Result<BackendResponse, any Error>, _ body: (T) -> Void) -> (any Error)? {
        switch outcome {
        case .failure(let error):
            return error
        case .success(let response):
            let payload: Any? = switch response {
            case .services(let list): list
            case .characteristics(let list): list
            case .descriptors(let list): list
            case .includedServices(let list): list
            case .value(let bytes): bytes
            case .rssi(let value): value
            case .security(let security): security
            case .written, .failure: nil
            }
            guard let typed = payload as? T else { return CBError(.unknown) }
            lock.run { body(typed) }
            return nil
        }
    }

    private func applyWritten(_ outcome: Result<BackendResponse, any Error>, _ body: () -> Void) -> (any Error)? {
        switch outcome {
        case .failure(let error): return error
        case .success(.written):
            lock.run { body() }
            return nil
        case .success: return CBError(.unknown)
        }
    }
}

extension BackendResponse {
    /// The response as a result, backend errors mapped to Core Bluetooth errors.
    var outcome: Result<BackendResponse, any Error> {
        if case .failure(let error) = self { return .failure(error.coreBluetoothError) }
        return .success(self)
    }
}
