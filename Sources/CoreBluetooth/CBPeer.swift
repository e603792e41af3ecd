// CBPeer: the base of remote devices, identified by a UUID.
import Foundation

/// A remote device (Apple's `CBPeer`).
open class CBPeer: NSObject, @unchecked Sendable {
    /// The device's stable identifier: the same for the same device seen through the same controller
    /// (a name-based UUID of both addresses, see `CBPeripheral`).
    public let identifier: UUID

    init(identifier: UUID) {
        self.identifier = identifier
        super.init()
    }
}
