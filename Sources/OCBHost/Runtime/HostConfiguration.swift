// How a full host opens and configures its controller: transport, own address, timeouts, capture file.

import OCBCore
import OCBHCI

/// Settings for a ``HostController``.
public struct HostConfiguration: Sendable {
    /// Which own address the host scans and initiates with (Core v5.4 Vol 4 Part E §7.8.10 Own_Address_Type).
    public enum OwnAddress: Sendable, Hashable {
        /// The public address when the controller has one (BD_ADDR not all-zero), else a random static one.
        case automatic
        /// Always the public address.
        case `public`
        /// A random static address (Vol 6 Part B §1.3.2.1), set with LE Set Random Address at bring-up;
        /// nil generates one (two top bits 0b11, the rest random, neither all-zero nor all-one).
        case randomStatic(BluetoothAddress?)
    }

    /// Opens a fresh transport to the controller; called at every ``HostController/start(completion:)``.
    public var makeTransport: @Sendable () throws -> any HCITransport
    /// The own address policy; default ``OwnAddress/automatic``.
    public var ownAddress: OwnAddress
    /// How long a command may wait for Command Complete / Command Status; default 2 s (BlueZ's HCI_CMD_TIMEOUT).
    public var commandTimeout: Duration
    /// Path of a btsnoop file recording every packet sent and received; nil records nothing.
    public var btsnoopPath: String?
    /// How long an ATT request may wait for its response before the bearer closes and the link is disconnected;
    /// default 30 s, the ATT transaction timeout (Core v5.4 Vol 3 Part F §3.3.3). Shorter only for tests.
    public var attTransactionTimeout: Duration
    /// How long after LE Create Connection a host that is behind a flood skips advertising reports to reach the LE
    /// Connection Complete sooner (``HostController``'s shedding); default 1 s. Past it the attempt waits for a peer
    /// that is not at hand (a reconnect may wait hours), and reports are handled. Zero never sheds for an attempt.
    public var attemptSheddingWindow: Duration = .seconds(1)
    /// Pairing, bonding and where bonds are kept (``SecurityConfiguration``).
    public var security = SecurityConfiguration()

    /// Makes a configuration.
    public init(makeTransport: @escaping @Sendable () throws -> any HCITransport, ownAddress: OwnAddress = .automatic,
                commandTimeout: Duration = .seconds(2), btsnoopPath: String? = nil,
                attTransactionTimeout: Duration = .seconds(30)) {
        self.makeTransport = makeTransport
        self.ownAddress = ownAddress
        self.commandTimeout = commandTimeout
        self.btsnoopPath = btsnoopPath
        self.attTransactionTimeout = attTransactionTimeout
    }
}
