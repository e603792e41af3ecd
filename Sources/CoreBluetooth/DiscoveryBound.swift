// The bound on discoveries waiting for a slow delegate: past it they are dropped, counted and logged once.
internal import OCBHost
import Foundation

extension CBCentralManager {
    /// At most this many discoveries (`centralManager(_:didDiscover:advertisementData:rssi:)`) wait on the delegate
    /// queue, and at most ``discoveryQueueByteBound`` bytes of them; further ones are dropped until the delegate catches
    /// up, counted in ``droppedDiscoveryCount`` (a Linux addition), with one `[CoreBluetooth] WARNING:` line per
    /// overflow (at most one a minute). A scan among thousands of advertisers with a delegate slower than the air keeps
    /// memory bounded. A waiting discovery is compact (``PreparedDiscovery``: the report with the bytes as received, about 110
    /// bytes for a legacy advertisement; it is parsed, and its peripheral and dictionary made, when it is delivered), so the bound can absorb
    /// a long burst: 65,536 is about 0.2 s at the stack's intake (scripts/bench-scan), during which a delegate queue
    /// that keeps up on average may not be run at all on a machine of two busy cores, and about 13 MB at most.
    static let discoveryQueueBound = 65_536

    /// At most this many bytes of waiting discoveries, as each report estimates what it holds
    /// (``AdvertisementReport/heapBytes``): 16 MiB, about 9,500 discoveries of the largest extended advertisements
    /// (1,650 bytes of data), so large ones cannot make the count bound cost 200 MB.
    static let discoveryQueueByteBound = 16 << 20

    /// Discoveries dropped because the delegate was slower than the air, since the manager was made (Linux addition;
    /// Apple's CoreBluetooth throttles discoveries in ways it does not count).
    /// Counts the manager's own drops and those of the host beneath it (which holds at most 16,384 for the manager).
    public var droppedDiscoveryCount: Int { discoveryBoundLock.withLock { discoveryBound.dropped } + backend.droppedDiscoveryCount }

    /// Logs the one warning of an overflow of ``discoveryQueueBound`` (see ``prepareDiscovery(_:)``).
    func warnDiscoveriesDropped() {
        Diagnostics.warning("the delegate is slower than the advertisements: \(Self.discoveryQueueBound) discoveries (or "
                            + "\(Self.discoveryQueueByteBound >> 20) MiB of them) wait for it, further ones are dropped (CBCentralManager.droppedDiscoveryCount) until it catches up")
    }

}
