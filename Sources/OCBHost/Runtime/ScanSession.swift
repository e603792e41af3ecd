// The scan in progress and the command family (legacy or extended) the controller is held to until Reset.

import OCBHCI

/// Legacy or extended advertising/scanning/initiating commands. A controller that has seen one family answers
/// the other with Command Disallowed until Reset (Core v5.4 Vol 4 Part E §3.1.1).
enum CommandFamily: Sendable, Hashable {
    /// LE Set Scan Parameters/Enable, LE Create Connection.
    case legacy
    /// LE Set Extended Scan Parameters/Enable, LE Extended Create Connection.
    case extended
}

extension CommandFamily {
    /// The scan family other than this one when the controller lists that family's scan parameters and enable
    /// commands (Supported Commands, Core v5.4 Vol 4 Part E §6.27: octet 26 bits 2-3 legacy, octet 37 bits 5-6
    /// extended), else nil.
    func otherScanFamily(supported: SupportedCommands) -> CommandFamily? {
        switch self {
        case .legacy:
            supported.contains(.leSetExtendedScanParameters) && supported.contains(.leSetExtendedScanEnable) ? .extended : nil
        case .extended:
            supported.contains(.leSetScanParameters) && supported.contains(.leSetScanEnable) ? .legacy : nil
        }
    }
}

/// One running scan.
struct ScanSession {
    var options: ScanOptions
    var merger: ScanResultMerger
    /// The family of the scan commands sent (for the disable); unused while ``discovery`` is set.
    var family: CommandFamily
    /// Kernel mode only: the scan is the kernel's discovery (management Start Discovery), not our own commands.
    var discovery: KernelDiscovery? = nil

    /// The discoveries the reports of the read at hand found, in order, not handed over yet: the host hands them to
    /// its event queue together (``SerialHost/flushDiscoveries()``) before any other packet of the read, at the read's
    /// end, and whenever ``SerialBatcher/turnLimit`` (256) have gathered after a report event, so at most that many
    /// and one event's reports (an LE Advertising Report event carries at most 25) wait here.
    private(set) var found: [DiscoveredDevice] = []

    /// What feeding the merger one report did: whether its next deadline moved (the host re-arms its timer), and
    /// whether ``found`` holds a hand-over's worth (``SerialBatcher/turnLimit``: the host hands them over at once, so a
    /// long read of a flood is handled while it is read). Told by the feeding itself, so the host looks at the
    /// session once per report, not twice (each look at a class's stored property is an exclusivity check).
    struct Collected {
        var deadlineMoved: Bool
        var isFull: Bool
    }

    /// Feeds one report of a legacy PDU read in place from its event (``HCI/LEAdvertisingReportView``) to the merger,
    /// the devices to report joining ``found``.
    /// `now` is the read's time as the merger's stamp (``ScanResultMerger/stamp(_:)``).
    mutating func collect(_ report: LEAdvertisingReportView.Report, at now: ScanResultMerger.Stamp) -> Collected {
        let before = merger.nextDeadlineStamp
        merger.receive(report, at: now, into: &found)
        return Collected(deadlineMoved: merger.nextDeadlineStamp != before, isFull: found.count >= SerialBatcher<HostDelivery>.turnLimit)
    }

    /// The same for an observation made of a report (a bonded device's rotating address, reported by its identity; a
    /// report the in-place view does not take: an extended advertisement, a malformed event's decoded reports).
    mutating func collect(_ observation: AdvertisingObservation, now: ContinuousClock.Instant) -> Collected {
        collect(observation, at: ScanResultMerger.stamp(now))
    }

    /// The same at a time already converted to the merger's stamp (a read's, ``ScanResultMerger/stamp(_:)``).
    mutating func collect(_ observation: AdvertisingObservation, at now: ScanResultMerger.Stamp) -> Collected {
        let before = merger.nextDeadlineStamp
        merger.receive(observation, at: now, into: &found)
        return Collected(deadlineMoved: merger.nextDeadlineStamp != before, isFull: found.count >= SerialBatcher<HostDelivery>.turnLimit)
    }

    /// The most discoveries a hand-over holds for ``takeFound(refillingFrom:)`` to leave room for as many only (a quiet
    /// scan's reads).
    static let smallHandOver = 16

    /// Takes ``found`` out (nil when empty), leaving an empty buffer with room for as many, or for a whole hand-over
    /// (``SerialBatcher/turnLimit``) after more than a few: the next read's are likely as many, and during a flood a
    /// read's reports fill a hand-over and leave a remainder, so room for the remainder alone grew by doubling at the
    /// next read (each growth a copy and an allocation of several KiB).
    /// With each hand-over the merger takes the records the layers above handed back since (`spares`, the host's) when
    /// it runs low and some are there (a look without the lock otherwise).
    mutating func takeFound(refillingFrom spares: DiscoveredDevice.Payload.Spares) -> [DiscoveredDevice]? {
        guard !found.isEmpty else { return nil }
        if merger.wantsSpares, !spares.isEmpty { merger.addSpares(spares.takeAll()) }
        var taken: [DiscoveredDevice] = []
        swap(&taken, &found)
        found.reserveCapacity(taken.count > Self.smallHandOver ? max(taken.count, SerialBatcher<HostDelivery>.turnLimit) : taken.count)
        return taken
    }
}

/// Who runs the kernel discovery a kernel-mode scan receives its reports from (BlueZ doc/mgmt-api.txt).
enum KernelDiscovery: Sendable, Hashable {
    /// Our first Start Discovery is on its way; the controller's reports may come before its answer and are kept.
    case starting
    /// Our Start Discovery succeeded and no Discovering 0 came since: ours to stop.
    case owned
    /// Start Discovery answered Busy: another client (bluetoothd, `bluetoothctl scan on`, another process) runs one;
    /// the controller's reports reach our raw socket all the same.
    case shared
    /// A round ended (Discovering 0) and our Start Discovery for the next is on its way.
    case restarting
}
