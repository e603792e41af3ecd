// How host runtime and GATT client failures become the facade's BackendError and HCI reason codes.
internal import OCBGATT
internal import OCBHCI
internal import OCBHost

extension BackendError {
    /// The backend error for a failed GATT procedure (Core v5.4 Vol 3 Part G §4):
    /// - `.att(code, handle)` → `.att(code)` with the Error Code as on air (Vol 3 Part F §3.4.1.1) → `CBATTError`;
    /// - `.timeout` (30 s ATT transaction timeout, Vol 3 Part F §3.3.3) → `.timeout` → `CBError.connectionTimeout`
    ///   (iOS reports a lost ATT bearer as a connection timeout);
    /// - `.disconnected` → `.disconnected` → `CBError.peripheralDisconnected`;
    /// - anything else (malformed response, invalidated by Service Changed, ...) → `.other(text)` → `CBError.unknown`.
    init(_ error: GATTError) {
        switch error {
        case .att(let code, _): self = .att(code)
        case .timeout: self = .timeout
        case .disconnected: self = .disconnected
        default: self = .other(error.description)
        }
    }

    /// The backend error for a failed host call made while the facade believes the peer connected:
    /// the link being gone (ended, not connected, host stopped) → `.disconnected`; ATT timeout → `.timeout`; the peer
    /// without the bond's key → `.peerRemovedPairingInformation`; pairing given up by this side (its 30 s timeout) →
    /// `.encryptionTimedOut`; else `.other(text)`.
    init(_ error: HostError) {
        switch error {
        case .disconnected, .notConnected, .stopped, .transportClosed, .hardwareError: self = .disconnected
        case .attTimeout: self = .timeout
        case .encryptionFailed(_, .pinOrKeyMissing): self = .peerRemovedPairingInformation(error.description)
        case .pairingTimedOut: self = .encryptionTimedOut(error.description)
        default: self = .other(error.description)
        }
    }
}

extension HostError {
    /// True when the error says the controller itself went away or was given up (transport closed or failed, Hardware
    /// Error, a command never answered, the host stopped or not powered on, a missing capability, a management
    /// command answered Invalid Index 0x11: the kernel no longer has the controller, doc/mgmt-api.txt): the host then
    /// reports a state below `.poweredOn`, which ends the facade's scan and invalidates its peripherals, so a scan or
    /// link ended this way needs no event of its own, and a link never reconnects by itself.
    var meansControllerLost: Bool {
        switch self {
        case .transportClosed, .transportFailed, .hardwareError, .commandTimeout, .stopped, .notPoweredOn, .permissionDenied: true
        case .managementCommandFailed(_, .invalidIndex): true
        default: false
        }
    }

    /// The HCI error code (Core v5.4 Vol 1 Part F §1.3) reported to the facade for a failed connection attempt:
    /// the controller's status when it gave one; 0x08 Connection Timeout for a host timeout; 0x02 Unknown Connection
    /// Identifier for a cancelled attempt (what LE Connection Complete carries after LE Create Connection Cancel);
    /// 0x22 LMP/LL Response Timeout for a controller that never answered; 0x3E Connection Failed to be Established
    /// otherwise (transport lost, host stopped, not powered on).
    var connectionFailureReason: HCIErrorCode {
        switch self {
        case .connectionFailed(_, let status): status
        case .commandFailed(_, let status): status
        case .connectTimeout: .connectionTimeout
        case .connectCancelled: .unknownConnectionIdentifier
        case .commandTimeout: .llResponseTimeout
        default: .connectionFailedToBeEstablished
        }
    }
}

extension HostError {
    /// Why the controller cannot be used, for the unavailability warning: what to do for a kernel without Bluetooth
    /// or a missing capability, the transport's own words otherwise ("connect to tcp:127.0.0.1:1 failed: Connection
    /// refused (errno 111)"), else the error's description.
    var unavailabilityReason: String {
        switch self {
        case .noBluetoothSupport:
            "this kernel has no Bluetooth support (socket(AF_BLUETOOTH) gives EAFNOSUPPORT): load the bluetooth modules, "
                + "or pick tcp:HOST:PORT or serial:DEVICE with CBCentralManagerOptionTransportKey or OCB_TRANSPORT"
        case .permissionDenied(let what):
            "permission denied: \(what) (needs CAP_NET_RAW and CAP_NET_ADMIN: run as root or setcap the executable)"
        case .transportFailed(let what):
            what
        default:
            description
        }
    }
}
