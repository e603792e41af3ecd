// The bound on discoveries waiting for a slow delegate: past it they are dropped, counted and logged once.
internal import OCBHost
import Foundation

extension CBCentralManager {
    /// At most this many discoveries (`centralManager(_:didDiscover:advertisementData:rssi:)`) wait on the delegate
    /// queue; further ones are dropped until the delegate catches up, counted in ``droppedDiscoveryCount`` (a Linux
    /// addition), with one `[CoreBluetooth] WARNING:` line per overflow. A scan among thousands of advertisers with
    /// AllowDuplicates and a delegate slower than the air keeps memory bounded (each waiting report holds at most
    /// 1,650 bytes of advertising data and scan response).
    static let discoveryQueueBound = 1024

    /// Discoveries dropped because the delegate was slower than the air, since the manager was made (Linux addition;
    /// Apple's CoreBluetooth throttles discoveries in ways it does not count).
    public var droppedDiscoveryCount: Int { discoveryBoundLock.withLock { discoveryBound.dropped } }

    /// Admits one discovery to the delegate queue, or counts it as dropped (on the backend's queue).
    func admitDiscovery() -> Bool {
        let (admitted, warn) = discoveryBoundLock.withLock { discoveryBound.admit() }
        if warn {
            Diagnostics.warning("the delegate is slower than the advertisements: \(Self.discoveryQueueBound) discoveries wait for "
                                + "it, further ones are dropped (CBCentralManager.droppedDiscoveryCount) until it catches up")
        }
        return admitted
    }

    /// One admitted discovery reached the delegate queue.
    func discoveryDelivered() {
        discoveryBoundLock.withLock { discoveryBound.delivered() }
    }
}
