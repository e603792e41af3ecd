// CBAttribute: the base of services, characteristics and descriptors, identified by a CBUUID.
import Foundation

/// A GATT attribute of a peripheral (Apple's `CBAttribute`).
///
/// Attributes are valid until their peripheral disconnects or a Service Changed indication covers them
/// (Core v5.4 Vol 3 Part G §7.1); requests on an invalidated attribute end with `CBError.invalidHandle`.
open class CBAttribute: NSObject, @unchecked Sendable {
    /// The attribute's type UUID (Apple's read-only `uuid`; `open` so a test double can override it).
    open var uuid: CBUUID { storedUUID }
    let storedUUID: CBUUID
    /// The lock of the owning manager.
    let lock: StateLock
    /// Set when the attribute stops being valid.
    var invalidated = false

    init(uuid: CBUUID, lock: StateLock) {
        self.storedUUID = uuid
        self.lock = lock
        super.init()
    }

    /// False once the peripheral disconnected or the attribute's service changed.
    var isValid: Bool { lock.run { !invalidated } }
}
