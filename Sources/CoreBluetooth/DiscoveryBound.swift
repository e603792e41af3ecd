// The bound on discoveries waiting for a slow delegate: past it they are dropped, counted and logged once.
internal import OCBHost
import Foundation

extension CBCentralManager {
    /// At most this many discoveries (`centralManager(_:didDiscover:advertisementData:rssi:)`) wait on the delegate
    /// queue; further ones are dropped until the delegate catches up, counted in ``droppedDiscoveryCount`` (a Linux
    /// addition), with one `[CoreBluetooth] WARNING:` line per overflow (at most one a minute). A scan among thousands of advertisers with
    /// AllowDuplicates and a delegate slower than the air keeps memory bounded (each waiting report holds at most
    /// 1,650 bytes of advertising data and scan response: at most about 7 MB in all). 4,096 absorbs a burst of 14 ms
    /// at the about 300,000 reports/s the stack takes in (scripts/bench-scan), longer than a scheduler time slice, so a
    /// delegate that keeps up on average loses nothing to a thread not being run for a moment.
    static let discoveryQueueBound = 4096

    /// Discoveries dropped because the delegate was slower than the air, since the manager was made (Linux addition;
    /// Apple's CoreBluetooth throttles discoveries in ways it does not count).
    /// Counts the manager's own drops and those of the host beneath it (which holds at most 16,384 for the manager).
    public var droppedDiscoveryCount: Int { discoveryBoundLock.withLock { discoveryBound.dropped } + backend.droppedDiscoveryCount }

    /// Logs the one warning of an overflow of ``discoveryQueueBound`` (see ``prepareDiscovery(_:)``).
    func warnDiscoveriesDropped() {
        Diagnostics.warning("the delegate is slower than the advertisements: \(Self.discoveryQueueBound) discoveries wait for "
                            + "it, further ones are dropped (CBCentralManager.droppedDiscoveryCount) until it catches up")
    }

    /// One admitted discovery reached the delegate queue.
    func discoveryDelivered() {
        discoveryBoundLock.withLock { discoveryBound.delivered() }
    }
}
