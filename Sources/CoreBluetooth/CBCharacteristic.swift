// CBCharacteristic: a discovered characteristic with its properties, last value, descriptors and notify state.
internal import OCBCore
internal import OCBATT
package import OCBGATT
import Foundation

/// A characteristic of a service (Apple's `CBCharacteristic`; Core v5.4 Vol 3 Part G §3.3).
open class CBCharacteristic: CBAttribute, @unchecked Sendable {
    /// The characteristic as the link's GATT client discovered it (the one database model; this object is its view).
    package let attribute: GATTCharacteristic
    private weak var owner: CBService?
    var storedValue: Data?
    var storedDescriptors: [CBDescriptor]?
    var storedIsNotifying = false

    init(_ discovered: GATTCharacteristic, service: CBService, lock: StateLock) {
        attribute = discovered
        owner = service
        super.init(uuid: CBUUID(bluetoothUUID: discovered.uuid), lock: lock)
    }

    /// Handles: declaration, value, last handle of the definition.
    var declarationHandle: AttributeHandle { attribute.declarationHandle }
    var valueHandle: AttributeHandle { attribute.valueHandle }
    var endHandle: AttributeHandle { max(attribute.valueHandle, attribute.endHandle) }

    /// The service the characteristic belongs to (weak, as in iOS 15+).
    open var service: CBService? { lock.run { owner } }
    /// The properties from the declaration (Vol 3 Part G §3.3.1.1).
    open var properties: CBCharacteristicProperties { CBCharacteristicProperties(rawValue: UInt(attribute.properties.rawValue)) }
    /// The last value read or notified; nil before the first.
    open var value: Data? { lock.run { storedValue } }
    /// The descriptors discovered by `discoverDescriptors(for:)`, nil before.
    open var descriptors: [CBDescriptor]? { lock.run { storedDescriptors } }
    /// True while notifications or indications are on (after `didUpdateNotificationStateFor` reported it).
    open var isNotifying: Bool { lock.run { storedIsNotifying } }
    /// Whether the value is broadcast; always false on Linux (iOS 5-8 API).
    @available(*, deprecated, message: "Deprecated by Apple in iOS 8")
    open var isBroadcasted: Bool { false }

    open override var description: String {
        let valueText = lock.run { storedValue.map { "{length = \($0.count)}" } ?? "(null)" }
        return "<CBCharacteristic: \(Unmanaged.passUnretained(self).toOpaque()), UUID = \(uuid), properties = 0x\(String(properties.rawValue, radix: 16, uppercase: true)), value = \(valueText), notifying = \(isNotifying ? "YES" : "NO")>"
    }
}
