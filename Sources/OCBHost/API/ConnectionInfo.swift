// What the host knows about one LE connection: handle, peer, role and parameters (ATT_MTU is its bearer's).

import OCBHCI

/// The link parameters of an LE connection (Core v5.4 Vol 4 Part E §7.7.65.1, §7.7.65.3).
public struct LinkParameters: Sendable, Hashable {
    /// Connection interval in 1.25 ms units (0x0006...0x0C80, 7.5 ms...4 s).
    public var interval: UInt16
    /// Peripheral latency in connection events (0x0000...0x01F3).
    public var latency: UInt16
    /// Supervision timeout in 10 ms units (0x000A...0x0C80, 100 ms...32 s).
    public var supervisionTimeout: UInt16

    /// Makes the value.
    public init(interval: UInt16, latency: UInt16, supervisionTimeout: UInt16) {
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
    }
}

/// The role of the local device on a connection (Core v5.4 Vol 4 Part E §7.7.65.1, Role 0x00 central, 0x01 peripheral).
public enum ConnectionRole: Sendable, Hashable {
    /// We initiated the connection.
    case central
    /// The peer initiated it (not used by this central-only stack, kept as reported).
    case peripheral
}

/// One established LE connection, as reported in ``HostEvent``s. Its ATT_MTU is not copied here: the connection's
/// ATT bearer owns it (``CentralHost/linkMTU(on:)``, ``HostEvent/mtuChanged(handle:mtu:)``).
public struct ConnectionInfo: Sendable, Hashable {
    /// Connection_Handle (0x0000...0x0EFF).
    public var handle: ConnectionHandle
    /// The remote device.
    public var peer: PeerAddress
    /// Our role.
    public var role: ConnectionRole
    /// The current link parameters.
    public var parameters: LinkParameters

    /// Makes the value.
    public init(handle: ConnectionHandle, peer: PeerAddress, role: ConnectionRole, parameters: LinkParameters) {
        self.handle = handle
        self.peer = peer
        self.role = role
        self.parameters = parameters
    }
}
