// CBCharacteristic: a discovered characteristic with its properties, last value, descriptors and notify state.
internal import OCBCore
import Foundation

/// A characteristic of a service (Apple's `CBCharacteristic`; Core v5.4 Vol 3 Part G §3.3).
open class CBCharacteristic: CBAttribute, @unchecked Sendable {
    /// Handles: declaration, value, last handle of the definition.
    let declarationHandle: UInt16
    let valueHandle: UInt16
    let endHandle: UInt16
    private weak var owner: CBService?
    private let propertyBits: CBCharacteristicProperties
    var storedValue: Data?
    var storedDescriptors: [CBDescriptor]?
    var storedIsNotifying = false

    init(_ discovered: DiscoveredCharacteristic, service: CBService, lock: StateLock) {
        declarationHandle = discovered.declarationHandle
        valueHandle = discovered.valueHandle
        endHandle = max(discovered.valueHandle, discovered.endHandle)
        propertyBits = CBCharacteristicProperties(rawValue: UInt(discovered.properties))
        owner = service
        super.init(uuid: CBUUID(bluetoothUUID: discovered.uuid), lock: lock)
    }

    /// The service the characteristic belongs to (weak, as in iOS 15+).
    open var service: CBService? { lock.run { owner } }
    /// The properties from the declaration (Vol 3 Part G §3.3.1.1).
    open var properties: CBCharacteristicProperties { propertyBits }
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
        return "<CBCharacteristic: \(Unmanaged.passUnretained(self).toOpaque()), UUID = \(uuid), properties = 0x\(String(propertyBits.rawValue, radix: 16, uppercase: true)), value = \(valueText), notifying = \(isNotifying ? "YES" : "NO")>"
    }
}
