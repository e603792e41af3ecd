// The events a host pushes to the layer above, in the order they happened, on the queue the caller chose.

import OCBHCI

/// One thing that happened in a ``CentralHost``; delivered through the handler given to
/// ``CentralHost/setEventHandler(queue:_:)``, in order, on that queue.
public enum HostEvent: Sendable {
    /// The host's state changed (first event after ``CentralHost/start(completion:)``).
    case stateChanged(HostState)
    /// A scan found a device (merged advertising and scan response data).
    case discovered(DiscoveredDevice)
    /// Scanning ended without being asked (transport lost, Hardware Error, controller refused); carries why.
    case scanStopped(HostError)
    /// A connection was established (we are central).
    case connected(ConnectionInfo)
    /// A connection attempt ended without a connection (timeout, cancel, controller status, transport lost).
    case connectionFailed(PeerAddress, HostError)
    /// A connection ended. `reason` is the Disconnection Complete reason (Core v5.4 Vol 4 Part E §7.7.5), e.g.
    /// 0x13 when the peer's user terminated it, 0x16 when we did; `error` is nil only when we asked for it
    /// with ``CentralHost/disconnect(_:reason:)``.
    case disconnected(ConnectionInfo, reason: HCIErrorCode, error: HostError?)
    /// The ATT_MTU of a connection changed after an MTU exchange (Core v5.4 Vol 3 Part F §3.4.2).
    case mtuChanged(handle: ConnectionHandle, mtu: UInt16)
    /// A pairing on the link needs the user (Passkey Entry, Numeric Comparison): answer with
    /// ``CentralHost/answerPairing(_:_:)``; the SMP timeout (30 s) runs meanwhile.
    /// `id` numbers the prompt: an answer for another id (an older prompt of a pairing that ended) is dropped.
    case pairingPrompt(handle: ConnectionHandle, prompt: PairingPrompt, id: UInt64)
    /// The controller's bonds: every one at power-on (after the key store was read), all again after a new one.
    case bonds([Bond])
    /// The link's security changed: encrypted with a bond's key, or by pairing (Core v5.4 Vol 3 Part C §10.2).
    case securityChanged(handle: ConnectionHandle, security: LinkSecurity)
    /// The link parameters changed (LE Connection Update Complete, Vol 4 Part E §7.7.65.3).
    case connectionUpdated(handle: ConnectionHandle, parameters: LinkParameters)
    /// The maximum LE data lengths changed (LE Data Length Change, Vol 4 Part E §7.7.65.7), octets and µs.
    case dataLengthChanged(handle: ConnectionHandle, maxTxOctets: UInt16, maxTxTime: UInt16, maxRxOctets: UInt16, maxRxTime: UInt16)
    /// The PHYs changed (LE PHY Update Complete, Vol 4 Part E §7.7.65.12): 1 = LE 1M, 2 = LE 2M, 3 = LE Coded.
    case phyUpdated(handle: ConnectionHandle, txPHY: UInt8, rxPHY: UInt8)
    /// An ATT PDU from the peer that is not a response to our request: a Handle Value Notification (0x1B) or
    /// Indication (0x1D; the host has already sent the Handle Value Confirmation), Core v5.4 Vol 3 Part F §3.4.7,
    /// for a handle the connection's GATT client takes no values of (values subscribed through the client reach its
    /// handler only); every Multiple Handle Value Notification (0x23).
    case attReceived(handle: ConnectionHandle, pdu: [UInt8])
    /// A Write Without Response on `handle` can go out again (``CentralHost/canSendWriteWithoutResponse(_:)`` turned
    /// true after having been false: the controller acknowledged ACL packets with Number Of Completed Packets,
    /// Core v5.4 Vol 4 Part E §7.7.19).
    case readyToSendWriteWithoutResponse(handle: ConnectionHandle)
    /// The transport to the controller closed or a send on it failed; the text says why ("transport closed: …",
    /// "send failed: …"). The host then ends every link and scan and reports the new state.
    case transportLost(String)
    /// The btsnoop recording asked for (``HostConfiguration/btsnoopPath``, ``KernelHost/btsnoopPath``) is off or has
    /// stopped; the text says why. The host itself goes on.
    case recordingProblem(String)
    /// A diagnostic line for the log (malformed input dropped, a controller fault).
    case diagnostic(String)
    /// A line for the operator: how the host had to work (scanning with another client's discovery; a fallback
    /// because a capability is missing). The host goes on.
    case notice(String)
    /// The controller did not answer a command (its opcode) within the command timeout while powered on (full-host
    /// mode): the host has ended scanning and every link with ``HostError/commandTimeout(_:)`` and is
    /// ``HostState/resetting``. Call ``CentralHost/start(completion:)`` to reset (HCI Reset, Core v5.4 Vol 4 Part E
    /// §7.3.2) and re-initialise it.
    case controllerUnresponsive(HCIOpcode)
    /// The controller this host lost is usable again: kernel mode saw it powered on or added back (management New
    /// Settings with Powered set, or Index Added, BlueZ doc/mgmt-api.txt). Call ``CentralHost/start(completion:)``
    /// to open it.
    case controllerAvailable
}
