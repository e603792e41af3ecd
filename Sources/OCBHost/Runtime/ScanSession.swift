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

    /// Feeds one observation to the merger in place (one access on the host's path of every report): the devices to
    /// report, and whether the merger's next deadline moved (the host's timer then needs re-arming).
    mutating func receive(_ observation: AdvertisingObservation, now: ContinuousClock.Instant) -> (devices: [DiscoveredDevice], deadlineMoved: Bool) {
        let before = merger.nextDeadline
        let devices = merger.receive(observation, now: now)
        return (devices, merger.nextDeadline != before)
    }

    /// The same for a legacy report read in place from its event (``HCI/LEAdvertisingReportView``).
    mutating func receive(_ report: LEAdvertisingReportView.Report, now: ContinuousClock.Instant) -> (devices: [DiscoveredDevice], deadlineMoved: Bool) {
        let before = merger.nextDeadline
        let devices = merger.receive(report, now: now)
        return (devices, merger.nextDeadline != before)
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
