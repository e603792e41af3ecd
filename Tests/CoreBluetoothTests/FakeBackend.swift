// A scripted CentralBackend: records every command and lets a test emit events.
import OCBCore
import OCBATT
import OCBGATT
import OCBHost
@testable import CoreBluetooth
import Foundation

/// Records commands as text and forwards test-emitted events to the manager.
final class FakeBackend: CentralBackend, @unchecked Sendable {
    private let lock = NSLock()
    private var handler: (@Sendable (BackendEvent) -> Void)?
    private var log: [String] = []
    private var ids: [RequestID] = []
    private var requests: [(call: String, id: RequestID)] = []
    let initialState: CBManagerState
    let controller = BluetoothAddress("00:1A:7D:DA:71:13")

    init(initialState: CBManagerState = .poweredOn) { self.initialState = initialState }

    /// Where the manager hands back the host's records it is done with, as to a host (``HostCentralBackend``'s); no
    /// scan takes them here.
    let discoveryRecordSpares: DiscoveredDevice.Payload.Spares? = DiscoveredDevice.Payload.Spares()

    /// The fake link's published ATT_MTU, handed over in ``BackendEvent/connected(_:mtu:)``.
    let linkMTU = LinkMTU()
    /// The ATT_MTU the fake link's bearer holds.
    var mtu: Int {
        get { linkMTU.value }
        set { linkMTU.publish(newValue) }
    }

    var calls: [String] { lock.withLock { log } }
    /// The request token of the most recent request.
    var lastRequest: RequestID { lock.withLock { ids.last ?? RequestID(rawValue: 0) } }
    /// The token of the most recent request whose recorded call starts with `prefix` ("read 6", "readRSSI").
    func request(_ prefix: String) -> RequestID {
        lock.withLock { requests.last { $0.call.hasPrefix(prefix) }?.id ?? RequestID(rawValue: 0) }
    }

    func emit(_ event: BackendEvent) { lock.withLock { handler }?(event) }

    private func record(_ text: String, _ id: RequestID? = nil) {
        lock.withLock {
            log.append(text)
            if let id {
                ids.append(id)
                requests.append((text, id))
            }
        }
    }

    func start(eventHandler: @escaping @Sendable (BackendEvent) -> Void) {
        lock.withLock { handler = eventHandler }
        record("start")
        eventHandler(.stateChanged(initialState, controller: controller))
    }
    func stop() { record("stop") }
    func startScan(_ parameters: ScanParameters) {
        record("startScan services=\(parameters.services.map { "\($0)" } ?? "nil") dup=\(parameters.allowDuplicates) sol=\(parameters.solicitedServices)")
    }
    func stopScan() { record("stopScan") }
    func connect(_ peer: PeerAddress) { record("connect \(peer.address)") }
    func cancelConnection(_ peer: PeerAddress) { record("cancel \(peer.address)") }
    func discoverServices(_ peer: PeerAddress, request: RequestID, uuids: [BluetoothUUID]?) {
        record("discoverServices \(uuids.map { "\($0)" } ?? "nil")", request)
    }
    func discoverIncludedServices(_ peer: PeerAddress, request: RequestID, in service: ClosedRange<AttributeHandle>) {
        record("discoverIncluded \(text(service))", request)
    }
    func discoverCharacteristics(_ peer: PeerAddress, request: RequestID, in service: ClosedRange<AttributeHandle>, uuids: [BluetoothUUID]?) {
        record("discoverCharacteristics \(text(service)) \(uuids.map { "\($0)" } ?? "nil")", request)
    }
    func discoverDescriptors(_ peer: PeerAddress, request: RequestID, in range: ClosedRange<AttributeHandle>) {
        record("discoverDescriptors \(text(range))", request)
    }
    func read(_ peer: PeerAddress, request: RequestID, handle: AttributeHandle) { record("read \(handle.rawValue)", request) }
    func write(_ peer: PeerAddress, request: RequestID?, handle: AttributeHandle, value: [UInt8], withResponse: Bool) {
        record("write \(handle.rawValue) \(Hex.string(value)) \(withResponse ? "req" : "cmd")", request)
    }
    func setNotification(_ peer: PeerAddress, request: RequestID, valueHandle: AttributeHandle, endHandle: AttributeHandle,
                         cccdHandle: AttributeHandle?, configuration: GATTClientCharacteristicConfiguration) {
        record("cccd \(valueHandle.rawValue)...\(endHandle.rawValue) at \(cccdHandle.map { String($0.rawValue) } ?? "?") = \(configuration.rawValue)", request)
    }
    /// A handle range as the log writes it: "1...8".
    private func text(_ range: ClosedRange<AttributeHandle>) -> String { "\(range.lowerBound.rawValue)...\(range.upperBound.rawValue)" }
    func readRSSI(_ peer: PeerAddress, request: RequestID) { record("readRSSI", request) }
    func pair(_ peer: PeerAddress, request: RequestID) { record("pair", request) }
    func writeSigned(_ peer: PeerAddress, handle: AttributeHandle, value: [UInt8]) {}
    func setPairingPrompts(_ enabled: Bool) {}
    func answerPairing(_ peer: PeerAddress, _ answer: PairingAnswer, prompt id: UInt64) {}
}
