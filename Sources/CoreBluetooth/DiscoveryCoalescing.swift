// Apple's rule for a scan without AllowDuplicates: one discovery per peripheral, one more when its scan response comes.
internal import OCBHost

/// The peripherals already reported in this scan, for `scanForPeripherals` without
/// `CBCentralManagerScanOptionAllowDuplicatesKey`. Apple: "multiple discoveries of the same peripheral are coalesced
/// into a single discovery event"; a report that brings a scan response the first one lacked gives one more (the
/// data is then complete), and data that merely changes (a counter in manufacturer data) gives none.
///
/// Bound: at most ``capacity`` peripherals are remembered; beyond that the one first seen longest ago is forgotten
/// (``RecentlySeen``), so a scan among more advertisers than that may report one again, and never grows without end.
struct DiscoveryCoalescing {
    /// The most peripherals remembered per scan.
    static let capacity = 8_192

    /// Per peer: whether the report delivered carried a scan response.
    private var seen = RecentlySeen<PeerAddress, Bool>(capacity: capacity)

    /// Whether ``admit(_:hasScanResponse:)`` would deliver a report from `peer`, recording nothing.
    func wouldAdmit(_ peer: PeerAddress, hasScanResponse: Bool) -> Bool {
        switch seen[peer] {
        case true?: false
        case false?: hasScanResponse
        case nil: true
        }
    }

    /// Whether a report from `peer` is delivered; records it when it is.
    mutating func admit(_ peer: PeerAddress, hasScanResponse: Bool) -> Bool {
        switch seen[peer] {
        case true?:
            return false
        case false?:
            guard hasScanResponse else { return false }
            seen.set(peer, true)
            return true
        case nil:
            seen.set(peer, hasScanResponse)
            return true
        }
    }

    /// Forgets every peripheral (a new scan).
    mutating func reset() { seen.removeAll() }

    /// The number of peripherals remembered.
    var count: Int { seen.count }
}
