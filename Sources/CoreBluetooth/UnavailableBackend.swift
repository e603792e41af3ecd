// The backend for an unusable transport option, and the hook that chooses the backend of each manager.
internal import OCBCore
internal import OCBATT
internal import OCBGATT
internal import OCBHost

/// A backend with no controller (a malformed transport option or `OCB_TRANSPORT`): it reports `.unsupported` and
/// ignores every command.
final class UnavailableBackend: CentralBackend {
    func start(eventHandler: @escaping @Sendable (BackendEvent) -> Void) {
        eventHandler(.stateChanged(.unsupported, controller: nil))
    }
    func stop() {}
    func startScan(_ parameters: ScanParameters) {}
    func stopScan() {}
    func connect(_ peer: PeerAddress) {}
    func cancelConnection(_ peer: PeerAddress) {}
    func discoverServices(_ peer: PeerAddress, request: RequestID, uuids: [BluetoothUUID]?) {}
    func discoverIncludedServices(_ peer: PeerAddress, request: RequestID, in service: ClosedRange<AttributeHandle>) {}
    func discoverCharacteristics(_ peer: PeerAddress, request: RequestID, in service: ClosedRange<AttributeHandle>, uuids: [BluetoothUUID]?) {}
    func discoverDescriptors(_ peer: PeerAddress, request: RequestID, in range: ClosedRange<AttributeHandle>) {}
    func read(_ peer: PeerAddress, request: RequestID, handle: AttributeHandle) {}
    func write(_ peer: PeerAddress, request: RequestID?, handle: AttributeHandle, value: [UInt8], withResponse: Bool) {}
    func setNotification(_ peer: PeerAddress, request: RequestID, valueHandle: AttributeHandle, endHandle: AttributeHandle,
                         cccdHandle: AttributeHandle?, configuration: GATTClientCharacteristicConfiguration) {}
    func readRSSI(_ peer: PeerAddress, request: RequestID) {}
    func pair(_ peer: PeerAddress, request: RequestID) {}
    func writeSigned(_ peer: PeerAddress, handle: AttributeHandle, value: [UInt8]) {}
    func setPairingPrompts(_ enabled: Bool) {}
    func answerPairing(_ peer: PeerAddress, _ answer: PairingAnswer, prompt id: UInt64) {}
}

/// Chooses the backend `CBCentralManager`'s public initialisers use.
package enum CentralBackendFactory {
    private static let lock = StateLock()
    nonisolated(unsafe) private static var storage: @Sendable (CentralBackendConfiguration) -> any CentralBackend = {
        HostCentralBackend(configuration: $0)
    }

    /// Makes the backend for a new manager. The default is a ``HostCentralBackend`` for the configuration's transport
    /// (``Host/KernelHost`` for `hciN`, ``Host/HostController`` for `user:hciN`, `tcp:HOST:PORT`, `serial:PATH@BAUD`);
    /// tests and tools may install another.
    package static var make: @Sendable (CentralBackendConfiguration) -> any CentralBackend {
        get { lock.run { storage } }
        set { lock.run { storage = newValue } }
    }
}
