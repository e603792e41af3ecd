// CBPeripheral: a remote peripheral, its connection state, services and the GATT requests the app makes on it.
internal import OCBCore
internal import OCBHost
import Foundation

/// A remote peripheral (Apple's `CBPeripheral`).
///
/// Requests (discover, read, write, notify, RSSI, L2CAP channel) go to the link at once and are answered on the manager's
/// queue, each by exactly one delegate callback with a value or an error. The link's ATT bearer runs the GATT ones one
/// at a time in the order they were made; Read RSSI is answered by the controller without waiting behind them:
/// - not connected → `CBError.notConnected` (and an API MISUSE log line, as iOS logs);
/// - an attribute invalidated by a disconnect or Service Changed → `CBError.invalidHandle`;
///   an attribute of another peripheral → `CBError.invalidParameters`;
/// - property checks, as iOS: reading without `.read` → `CBATTError.readNotPermitted`; writing with response
///   without `.write` → `CBATTError.writeNotPermitted`; `setNotifyValue` without `.notify`/`.indicate` →
///   `CBATTError.requestNotSupported`; a value longer than 512 bytes → `CBATTError.invalidAttributeValueLength`;
///   writing the CCCD (0x2902) with `writeValue(_:for:)` → `CBError.uuidNotAllowed`;
/// - ATT Error Responses → `CBATTError` with the code on air; a disconnect mid-request → `CBError.peripheralDisconnected`.
/// Writes without response have no callback: one the characteristic does not allow, or longer than
/// `maximumWriteValueLength(for: .withoutResponse)` (refused by the link's GATT client), is dropped with a logged warning.
open class CBPeripheral: CBPeer, @unchecked Sendable {
    let lock: StateLock
    /// The controller's address of the device.
    let peer: PeerAddress
    let queue: DispatchQueue
    let backend: any CentralBackend
    weak var manager: CBCentralManager?

    weak var storedDelegate: (any CBPeripheralDelegate)?
    var storedName: String?
    /// The last advertisement delivered, with (in a scan with AllowDuplicates) the advertisementData made of it, so a
    /// device repeating itself gets the same dictionary without building it again, and one whose data changed has the
    /// old dictionary's storage rewritten when the app let it go; without AllowDuplicates its content mark and name only (the
    /// name a later discovery's is compared with). Its content is told by the host's record a report carries
    /// (``AdvertisementReport/ContentMark``), not kept: equal bytes in another record count as new. Made at the first discovery and changed in place after; touched only
    /// by the delivery of discoveries, on the delegate queue (one batch at a time), so it needs no lock.
    var lastAdvertisement: LastAdvertisement?

    /// A peripheral's last advertisement delivered (``lastAdvertisement``), one object changed in place.
    final class LastAdvertisement {
        /// What tells whether a later report has its content (not the report: the host's record of its bytes is then
        /// freed by the host's reader, which made it).
        var content: AdvertisementReport.ContentMark
        /// The advertisementData made of it (without the RSSI) and what is known of its values; nil when not kept (a
        /// scan without AllowDuplicates gives each dictionary to be recycled once delivered) and once given to be recycled.
        var record: AdvertisementDataRecord?
        /// Its local name.
        var name: String?

        init(content: AdvertisementReport.ContentMark, record: AdvertisementDataRecord?, name: String?) {
            self.content = content
            self.record = record
            self.name = name
        }

        /// ``record``, taken out (left nil): when the app let the dictionary go, the one returned is its only reference.
        func takeRecord() -> AdvertisementDataRecord? {
            var taken: AdvertisementDataRecord?
            swap(&taken, &record)
            return taken
        }
    }
    var storedState: CBPeripheralState = .disconnected
    var storedServices: [CBService]?
    var storedCanSend = true
    /// Write Without Response values handed to the backend and not yet reported sent.
    var writesWithoutResponseInFlight = 0
    /// True after the warning about writes dropped past ``writeWithoutResponseLimit``, until the writes drained.
    var writeDropLogged = false
    /// The link's security as `pair()` last reported it (lock held); reset when the link ends.
    var storedSecurity = LinkSecurity()
    /// The last RSSI `readRSSI()` read, dBm (the deprecated `rssi` property).
    var storedRSSI: NSNumber?
    /// Requests not yet answered, oldest first.
    var operations: [PendingOperation] = []
    /// Set by cancelPeripheralConnection until the link is down.
    var cancelRequested = false
    /// Connect options of the current connection.
    var autoReconnect = false
    /// Values dropped because the delegate queue was full (``CBCentralManager/notificationQueueBound``).
    var storedDroppedNotifications = 0

    init(identifier: UUID, peer: PeerAddress, manager: CBCentralManager) {
        self.lock = manager.lock
        self.peer = peer
        self.queue = manager.queue
        self.backend = manager.backend
        self.manager = manager
        super.init(identifier: identifier)
    }

    /// The delegate (weak). Its methods are called on the manager's queue.
    open var delegate: (any CBPeripheralDelegate)? {
        get { lock.run { storedDelegate } }
        set { lock.run { storedDelegate = newValue } }
    }
    /// The GAP Device Name, or the advertised local name before one is read; nil if neither is known.
    open var name: String? { lock.run { storedName } }
    /// The connection state.
    open var state: CBPeripheralState { lock.run { storedState } }
    /// The services discovered so far, nil before `discoverServices(_:)` answered (and after a disconnect).
    open var services: [CBService]? { lock.run { storedServices } }
    /// False while the controller's buffers are full; `peripheralIsReady(toSendWriteWithoutResponse:)` follows.
    open var canSendWriteWithoutResponse: Bool { lock.run { canSendNow } }

    /// At most this many Write Without Response values are on their way to the link at once (see
    /// ``canSendWriteWithoutResponse``): Apple's loop `while canSendWriteWithoutResponse { write }` sends that many,
    /// then `peripheralIsReady(toSendWriteWithoutResponse:)` says when to go on.
    static let writeWithoutResponseWindow = 8
    /// Writes past this many in flight (an app that ignores `canSendWriteWithoutResponse`) are dropped with one
    /// warning line, so memory stays bounded.
    static let writeWithoutResponseInFlightLimit = 256

    /// True while connected, the host's queue toward the controller has room and fewer than
    /// ``writeWithoutResponseWindow`` writes are on their way (lock held).
    var canSendNow: Bool {
        storedState == .connected && storedCanSend && writesWithoutResponseInFlight < Self.writeWithoutResponseWindow
    }
    /// Whether ANCS is authorized; always false on Linux.
    open var ancsAuthorized: Bool { false }
    /// The RSSI of the connection in dBm from the last successful `readRSSI()` (HCI Read RSSI, Core v5.4 Vol 4
    /// Part E §7.5.4), nil before the first (iOS 5-8 API). Set just before `peripheral(_:didReadRSSI:error:)` is
    /// called; kept after a disconnect; never set from advertisements.
    @available(*, deprecated, message: "Use peripheral(_:didReadRSSI:error:) instead")
    open var rssi: NSNumber? { lock.run { storedRSSI } }

    /// The largest value one write can carry: without response ATT_MTU-3 (Core v5.4 Vol 3 Part F §3.4.5.3), at
    /// most 512, the maximum attribute value length (Vol 3 Part F §3.2.9: a server drops a longer Write Command);
    /// 512 with response (longer than ATT_MTU-3 uses prepared writes), as iOS.
    open func maximumWriteValueLength(for type: CBCharacteristicWriteType) -> Int {
        switch type {
        case .withResponse: 512
        case .withoutResponse: Self.writeWithoutResponseLimit(mtu: attMTU)
        }
    }

    /// The link's published ATT_MTU while connected (``BackendEvent/connected(_:mtu:)``); nil otherwise.
    var linkMTU: LinkMTU?

    /// ATT_MTU of the connection as its bearer publishes it (23 when not connected); no queue hop, so it may be read
    /// with the lock held (descriptions in log lines are).
    var attMTU: Int { lock.run { linkMTU }?.value ?? 23 }

    /// min(ATT_MTU-3, 512) bytes.
    static func writeWithoutResponseLimit(mtu: Int) -> Int { max(0, min(mtu - 3, 512)) }

    /// Discovers primary services, all when `serviceUUIDs` is nil; answers `peripheral(_:didDiscoverServices:)`.
    open func discoverServices(_ serviceUUIDs: [CBUUID]?) {
        enqueue(.discoverServices(serviceUUIDs?.map(\.bluetoothUUID))) { nil }
    }

    /// Discovers the services `service` includes; answers `peripheral(_:didDiscoverIncludedServicesFor:error:)`.
    open func discoverIncludedServices(_ includedServiceUUIDs: [CBUUID]?, for service: CBService) {
        enqueue(.discoverIncludedServices(includedServiceUUIDs?.map(\.bluetoothUUID), service)) { self.ownershipError(service) }
    }

    /// Discovers characteristics of `service`; answers `peripheral(_:didDiscoverCharacteristicsFor:error:)`.
    open func discoverCharacteristics(_ characteristicUUIDs: [CBUUID]?, for service: CBService) {
        enqueue(.discoverCharacteristics(characteristicUUIDs?.map(\.bluetoothUUID), service)) { self.ownershipError(service) }
    }

    /// Discovers the descriptors of `characteristic`; answers `peripheral(_:didDiscoverDescriptorsFor:error:)`.
    open func discoverDescriptors(for characteristic: CBCharacteristic) {
        enqueue(.discoverDescriptors(characteristic)) { self.ownershipError(characteristic) }
    }

    /// Reads the value; answers `peripheral(_:didUpdateValueFor:error:)` (characteristic).
    open func readValue(for characteristic: CBCharacteristic) {
        enqueue(.readCharacteristic(characteristic)) {
            if let error = self.ownershipError(characteristic) { return error }
            return characteristic.properties.contains(.read) ? nil : CBATTError(.readNotPermitted)
        }
    }

    /// Reads a descriptor; answers `peripheral(_:didUpdateValueFor:error:)` (descriptor).
    open func readValue(for descriptor: CBDescriptor) {
        enqueue(.readDescriptor(descriptor)) { self.ownershipError(descriptor) }
    }

    /// Writes the value. `.withResponse` answers `peripheral(_:didWriteValueFor:error:)`; `.withoutResponse` has no
    /// callback (see the type's note for what is dropped). A characteristic with Authenticated Signed Writes but not
    /// Write Without Response gets a Signed Write Without Response (signed with the CSRK this host gave the device when
    /// bonding; on an encrypted link a plain Write Without Response, Core v5.4 Vol 3 Part G §4.9.2); without a bond it
    /// is dropped with a logged warning saying to pair first.
    open func writeValue(_ data: Data, for characteristic: CBCharacteristic, type: CBCharacteristicWriteType) {
        let bytes = [UInt8](data)
        switch type {
        case .withResponse:
            enqueue(.writeCharacteristic(characteristic, bytes, withResponse: true)) {
                if let error = self.ownershipError(characteristic) { return error }
                guard characteristic.properties.contains(.write) else { return CBATTError(.writeNotPermitted) }
                return bytes.count > 512 ? CBATTError(.invalidAttributeValueLength) : nil
            }
        case .withoutResponse:
            // A value longer than ATT_MTU-3 is refused by the link's GATT client, which holds ATT_MTU, and dropped with a
            // warning there: no per-write hop to read it here.
            let refusal: String? = lock.run {
                if storedState != .connected { return "\(self) can only accept commands while in the connected state" }
                if ownershipError(characteristic) != nil { return "\(characteristic) is not a valid characteristic of \(self)" }
                if !characteristic.properties.contains(.writeWithoutResponse) && !characteristic.properties.contains(.authenticatedSignedWrites) {
                    return "Characteristic \(characteristic) does not specify the \"Write Without Response\" property - ignoring response-less write"
                }
                if bytes.count > 512 {
                    return "write without response of \(bytes.count) bytes exceeds the maximum attribute value length, 512 - ignoring it"
                }
                if writesWithoutResponseInFlight >= Self.writeWithoutResponseInFlightLimit {
                    defer { writeDropLogged = true }
                    return writeDropLogged ? "" : "\(Self.writeWithoutResponseInFlightLimit) writes without response are on their way; "
                        + "further ones are dropped until they have gone (check canSendWriteWithoutResponse before writing)"
                }
                writesWithoutResponseInFlight += 1
                return nil
            }
            if let refusal {
                if !refusal.isEmpty { Diagnostics.warning(refusal) }
            } else {
                // A command, not a request (Vol 3 Part F §3.3): it goes out now, while the caller runs, not behind
                // the requests waiting for their responses.
                if characteristic.properties.contains(.writeWithoutResponse) {
                    backend.write(peer, request: nil, handle: characteristic.valueHandle, value: bytes, withResponse: false)
                } else {
                    // Only Authenticated Signed Writes (0x40): a Signed Write Without Response (Vol 3 Part G §4.9.2).
                    backend.writeSigned(peer, handle: characteristic.valueHandle, value: bytes)
                }
            }
        }
    }

    /// Writes a descriptor; answers `peripheral(_:didWriteValueFor:error:)` (descriptor). The CCCD (0x2902) is
    /// refused with `CBError.uuidNotAllowed` (iOS raises an exception): use `setNotifyValue(_:for:)`.
    open func writeValue(_ data: Data, for descriptor: CBDescriptor) {
        let bytes = [UInt8](data)
        enqueue(.writeDescriptor(descriptor, bytes)) {
            if let error = self.ownershipError(descriptor) { return error }
            if descriptor.uuid.bluetoothUUID == BluetoothUUID(0x2902) {
                Diagnostics.misuse("Client Characteristic Configuration descriptors must be configured using setNotifyValue:forCharacteristic:")
                return CBError(.uuidNotAllowed)
            }
            return bytes.count > 512 ? CBATTError(.invalidAttributeValueLength) : nil
        }
    }

    /// Turns notifications (or indications, when the characteristic has only those) on or off by writing the CCCD;
    /// answers `peripheral(_:didUpdateNotificationStateFor:error:)`, then `didUpdateValueFor` per notification.
    open func setNotifyValue(_ enabled: Bool, for characteristic: CBCharacteristic) {
        enqueue(.setNotify(characteristic, enabled)) {
            if let error = self.ownershipError(characteristic) { return error }
            let properties = characteristic.properties
            return properties.contains(.notify) || properties.contains(.indicate) ? nil : CBATTError(.requestNotSupported)
        }
    }

    /// Reads the connection's RSSI; answers `peripheral(_:didReadRSSI:error:)` (and updates the deprecated `rssi`).
    open func readRSSI() {
        enqueue(.readRSSI) { nil }
    }

    /// Opens an L2CAP connection-oriented channel to `PSM` (iOS 11); answers `peripheral(_:didOpen:error:)`.
    ///
    /// Linux: LE credit based channels (Core v5.4 Vol 3 Part A §4.22) are not implemented in this stack yet.
    /// Every call logs `[CoreBluetooth] WARNING: ...` and is answered, on the manager's queue in order with the
    /// peripheral's other requests, by `peripheral(_:didOpen:error:)` with a nil channel and
    /// `CBError.operationNotSupported` (`CBError.notConnected` when the peripheral is not connected).
    open func openL2CAPChannel(_ PSM: CBL2CAPPSM) {
        Diagnostics.warning("openL2CAPChannel(\(PSM)) is not supported on Linux yet (no LE credit based channels): answering didOpen with CBError.operationNotSupported")
        enqueue(.openL2CAPChannel(PSM)) { CBError(.operationNotSupported) }
    }

    open override var description: String {
        let mtu = attMTU
        let details: String = lock.run {
            "name = \(storedName ?? "(null)"), mtu = \(mtu), state = \(storedState)"
        }
        return "<CBPeripheral: \(Unmanaged.passUnretained(self).toOpaque()), identifier = \(identifier.uuidString), \(details)>"
    }
}
