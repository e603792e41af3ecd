// What the facade reads of a discovery to decide whether it reaches the delegate, before it makes the report it keeps.
internal import OCBCore
internal import OCBHost

/// A discovery as ``CBCentralManager/prepareDiscoveries(_:)`` decides on it (coalescing, the bound on discoveries
/// waiting, the services filter): a report already made, or a device as the host made it, whose report is made only
/// once coalescing keeps it (``makeReport()``; the services filter reads the report). Read where it lies in the batch:
/// a coalesced scan turns most of a turn's discoveries away, and one turned away then costs no report, no reference
/// taken to the host's record.
protocol DiscoveryCandidate {
    /// The advertiser.
    var peer: PeerAddress { get }
    /// Whether a scan response is merged in (SCAN_RSP, Core v5.4 Vol 6 Part B §2.3.2.2).
    var hasScanResponse: Bool { get }
    /// What the report counts for in the bound's bytes (``AdvertisementReport/heapBytes``).
    var heapBytes: Int { get }
    /// The report the delegate gets.
    func makeReport() -> AdvertisementReport
}

extension AdvertisementReport: DiscoveryCandidate {
    /// Itself.
    func makeReport() -> AdvertisementReport { self }
}

extension DiscoveredDevice: DiscoveryCandidate {
    /// Whether the host merged a scan response in.
    var hasScanResponse: Bool { payload.scanResponseData != nil }
    /// ``AdvertisementReport/heapBytes`` of its report as received.
    var heapBytes: Int { ReceivedAdvertisement.heapBytes(of: payload) }
    /// The facade's view of the discovery (``AdvertisementReport/init(received:)``): its bytes as received, shared with
    /// the host, parsed only where a field is read (on the delegate queue, once, into the advertisementData;
    /// ``ReceivedAdvertisement`` has the merge rules); RSSI nil when the controller gave 127. The thread that reads the
    /// controller neither parses nor allocates for it.
    func makeReport() -> AdvertisementReport { AdvertisementReport(received: self) }
}
