// One request of a peripheral: what was asked, its token, and a local error found before sending it.
internal import OCBCore

/// A request of the app on a peripheral, from the call until its delegate callback.
final class PendingOperation: @unchecked Sendable {
    /// What the app asked for.
    enum Kind {
        case discoverServices([BluetoothUUID]?)
        case discoverIncludedServices([BluetoothUUID]?, CBService)
        case discoverCharacteristics([BluetoothUUID]?, CBService)
        case discoverDescriptors(CBCharacteristic)
        case readCharacteristic(CBCharacteristic)
        case readDescriptor(CBDescriptor)
        case writeCharacteristic(CBCharacteristic, [UInt8], withResponse: Bool)
        case writeDescriptor(CBDescriptor, [UInt8])
        case setNotify(CBCharacteristic, Bool)
        case readRSSI
        /// Linux only (`CBPeripheral.pair()`): encrypt the link, pairing (and bonding) when there is no bond.
        case pair
        /// Always answered locally with `CBError.operationNotSupported` (no LE credit based channels yet).
        case openL2CAPChannel(CBL2CAPPSM)
    }

    /// The token sent to the backend, echoed in its response.
    let id: RequestID
    let kind: Kind
    /// An error found before sending (property check, not connected); answered without the backend.
    var localError: (any Error)?
    /// True once handed to the backend.
    var sent = false

    init(id: RequestID, kind: Kind, localError: (any Error)? = nil) {
        self.id = id
        self.kind = kind
        self.localError = localError
    }
}
