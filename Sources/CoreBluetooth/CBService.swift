// CBService: a discovered GATT service with its handle range, characteristics and included services.
internal import OCBCore
import Foundation

/// A service of a peripheral (Apple's `CBService`; Core v5.4 Vol 3 Part G §3.1).
open class CBService: CBAttribute, @unchecked Sendable {
    /// The service's handle range (declaration handle ... last handle).
    let startHandle: UInt16
    let endHandle: UInt16
    private weak var owner: CBPeripheral?
    private let primary: Bool
    var storedCharacteristics: [CBCharacteristic]?
    var storedIncludedServices: [CBService]?

    init(_ discovered: DiscoveredService, peripheral: CBPeripheral, lock: StateLock) {
        startHandle = discovered.startHandle
        endHandle = max(discovered.startHandle, discovered.endHandle)
        primary = discovered.isPrimary
        owner = peripheral
        super.init(uuid: CBUUID(bluetoothUUID: discovered.uuid), lock: lock)
    }

    /// The peripheral the service belongs to (weak, as in iOS 15+).
    open var peripheral: CBPeripheral? { lock.run { owner } }
    /// True for a primary service (0x2800), false for a secondary one (0x2801).
    open var isPrimary: Bool { primary }
    /// The characteristics discovered so far by `discoverCharacteristics(_:for:)`, nil before.
    open var characteristics: [CBCharacteristic]? { lock.run { storedCharacteristics } }
    /// The included services discovered by `discoverIncludedServices(_:for:)`, nil before.
    open var includedServices: [CBService]? { lock.run { storedIncludedServices } }

    /// Marks the service, its characteristics and their descriptors invalid (lock held).
    func invalidateTree() {
        invalidated = true
        for characteristic in storedCharacteristics ?? [] {
            characteristic.invalidated = true
            characteristic.storedIsNotifying = false
            for descriptor in characteristic.storedDescriptors ?? [] { descriptor.invalidated = true }
        }
    }

    open override var description: String {
        "<CBService: \(Unmanaged.passUnretained(self).toOpaque()), isPrimary = \(primary ? "YES" : "NO"), UUID = \(uuid)>"
    }
}
