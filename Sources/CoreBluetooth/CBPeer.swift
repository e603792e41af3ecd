// CBPeer: the base of remote devices, identified by a UUID.
import Foundation

/// A remote device (Apple's `CBPeer`; `NSCopying` as in the SDK).
open class CBPeer: NSObject, NSCopying, @unchecked Sendable {
    /// The device's stable identifier: the same for the same device seen through the same controller
    /// (a name-based UUID of both addresses, see `CBPeripheral`).
    /// (`open` so a test double can override it.)
    open var identifier: UUID { storedIdentifier }
    let storedIdentifier: UUID

    init(identifier: UUID) {
        self.storedIdentifier = identifier
        super.init()
    }

    /// Returns `self`: a peer object stands for its device, so a copy is the same object (NSCopying).
    open func copy(with zone: NSZone? = nil) -> Any { self }
}
