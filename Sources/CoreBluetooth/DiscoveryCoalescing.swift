// Apple's rule for a scan without AllowDuplicates: one discovery per peripheral, one more when its scan response comes.
internal import OCBHost

/// The peripherals already reported in this scan, for `scanForPeripherals` without
/// `CBCentralManagerScanOptionAllowDuplicatesKey`. Apple: "multiple discoveries of the same peripheral are coalesced
/// into a single discovery event"; a report that brings a scan response the first one lacked gives one more (the
/// data is then complete), and data that merely changes (a counter in manufacturer data) gives none.
///
/// Bound: at most ``capacity`` peripherals are remembered; beyond that the one remembered longest ago is forgotten
/// (first in, first out), so a scan among more advertisers than that may report one again, never grows without end.
struct DiscoveryCoalescing {
    /// The most peripherals remembered per scan.
    static let capacity = 8_192

    /// Per peer: whether the report delivered carried a scan response.
    private var seen: [PeerAddress: Bool] = [:]
    /// The peers in the order first seen, for eviction; `head` is the oldest still remembered.
    private var order: [PeerAddress] = []
    private var head = 0

    /// Whether a report from `peer` is delivered; records it when it is.
    mutating func admit(_ peer: PeerAddress, hasScanResponse: Bool) -> Bool {
        switch seen[peer] {
        case true?:
            return false
        case false?:
            guard hasScanResponse else { return false }
            seen[peer] = true
            return true
        case nil:
            if seen.count >= Self.capacity { evictOldest() }
            seen[peer] = hasScanResponse
            order.append(peer)
            return true
        }
    }

    /// Forgets every peripheral (a new scan).
    mutating func reset() {
        seen = [:]
        order = []
        head = 0
    }

    /// The number of peripherals remembered.
    var count: Int { seen.count }

    private mutating func evictOldest() {
        guard head < order.count else { return }
        seen[order[head]] = nil
        head += 1
        if head > Self.capacity {  // compact the consumed prefix now and then
            order.removeFirst(head)
            head = 0
        }
    }
}
