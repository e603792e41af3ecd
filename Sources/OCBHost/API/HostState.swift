// The power state of a host's controller as the layer above sees it.

/// The state of a ``CentralHost`` (mirrors CBManagerState's meaning, without Apple's names).
///
/// `poweredOn` only after bring-up finished (Reset and every read and mask command answered).
/// Every other state refuses scans and connections with ``HostError/notPoweredOn``.
public enum HostState: Sendable, Hashable, CustomStringConvertible {
    /// Not started yet.
    case unknown
    /// Bring-up (Reset and the reads that follow) is in progress.
    case resetting
    /// The controller is up and configured; scans and connections are accepted.
    case poweredOn
    /// The controller was stopped, the transport closed, or bring-up failed; ``CentralHost/start()`` again to recover.
    case poweredOff
    /// The system has no Bluetooth support (e.g. `socket(AF_BLUETOOTH)` gives EAFNOSUPPORT).
    case unsupported
    /// The process lacks the permission to open the controller (EPERM/EACCES, e.g. no CAP_NET_RAW/CAP_NET_ADMIN).
    case unauthorized

    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .resetting: "resetting"
        case .poweredOn: "powered on"
        case .poweredOff: "powered off"
        case .unsupported: "unsupported"
        case .unauthorized: "unauthorized"
        }
    }
}
