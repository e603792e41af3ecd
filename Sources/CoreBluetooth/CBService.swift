// CBService: a discovered GATT service with its handle range, characteristics and included services.
internal import OCBCore
internal import OCBATT
package import OCBGATT
import Foundation

/// A service of a peripheral (Apple's `CBService`; Core v5.4 Vol 3 Part G §3.1).
open class CBService: CBAttribute, @unchecked Sendable {
    /// The service as the link's GATT client discovered it (the one database model; this object is its view).
    package let attribute: GATTService
    private weak var owner: CBPeripheral?
    var storedCharacteristics: [CBCharacteristic]?
    var storedIncludedServices: [CBService]?
    /// The include declarations of this service as discovered (Vol 3 Part G §3.2), for their handles.
    package var includeDeclarations: [GATTIncludedService]? { lock.run { storedIncludeDeclarations } }
    var storedIncludeDeclarations: [GATTIncludedService]?

    init(_ discovered: GATTService, peripheral: CBPeripheral, lock: StateLock) {
        attribute = discovered
        owner = peripheral
        super.init(uuid: CBUUID(bluetoothUUID: discovered.uuid), lock: lock)
    }

    /// The service's handle range (declaration handle ... last handle).
    var startHandle: AttributeHandle { attribute.startHandle }
    var endHandle: AttributeHandle { attribute.handles.upperBound }

    /// The peripheral the service belongs to (weak, as in iOS 15+).
    open var peripheral: CBPeripheral? { lock.run { owner } }
    /// True for a primary service (0x2800), false for a secondary one (0x2801).
    open var isPrimary: Bool { attribute.isPrimary }
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
        "<CBService: \(Unmanaged.passUnretained(self).toOpaque()), isPrimary = \(attribute.isPrimary ? "YES" : "NO"), UUID = \(uuid)>"
    }
}
