// The scan in progress and the command family (legacy or extended) the controller is held to until Reset.

/// Legacy or extended advertising/scanning/initiating commands. A controller that has seen one family answers
/// the other with Command Disallowed until Reset (Core v5.4 Vol 4 Part E §3.1.1).
enum CommandFamily: Sendable, Hashable {
    /// LE Set Scan Parameters/Enable, LE Create Connection.
    case legacy
    /// LE Set Extended Scan Parameters/Enable, LE Extended Create Connection.
    case extended
}

/// One running scan.
struct ScanSession {
    var options: ScanOptions
    var merger: ScanResultMerger
    var family: CommandFamily
}
