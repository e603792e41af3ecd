// What the host runtime reports to the CoreBluetooth facade: state, advertisements, connections, GATT results.
package import OCBATT
package import OCBHCI
package import OCBAdvertising
package import OCBCore
package import OCBGATT
package import OCBHost

/// An event from a ``CentralBackend``.
package enum BackendEvent: Sendable, Equatable {
    /// The manager state; `controller` is the controller's public address (BD_ADDR, Read BD_ADDR Vol 4 Part E
    /// §7.4.6) once known, used to derive peripheral identifiers. Every state below `.poweredOn` ends scanning
    /// and every connection without further events.
    case stateChanged(CBManagerState, controller: BluetoothAddress?)
    /// The security of the link to `peer` changed (encrypted after pairing or with a bond's key).
    case securityChanged(PeerAddress, LinkSecurity)
    /// A pairing with `peer` needs the user (``CBPairingDelegate``).
    case pairingPrompt(PeerAddress, PairingPrompt, id: UInt64)
    /// The controller's bonded devices, each by the address it is known by (the host's `Bond.knownAddress`) and its
    /// identity address: their identifiers are known to `retrievePeripherals(withIdentifiers:)` from power-on.
    case bonded([BondedPeer])
    /// An advertisement, already merged with its scan response (see ``AdvertisementReport``).
    case advertisement(AdvertisementReport)
    /// A turn of the host's discoveries (at most about 256) in the order received, each as ``advertisement(_:)`` of its
    /// report as received (``AdvertisementReport/init(received:)``): the facade decides on them under one look at its
    /// lock, and makes the report of each that coalescing keeps (``DiscoveryCandidate``), not of those it turns away.
    case discovered([DiscoveredDevice])
    /// The connection to `peer` is up, its ATT_MTU exchanged: `mtu` is the link's published ATT_MTU, for the
    /// peripheral to read (Vol 3 Part F §3.2.8, §3.4.2).
    case connected(PeerAddress, mtu: LinkMTU)
    /// A connection attempt ended without a connection; `reason` is the HCI error code (Vol 1 Part F §1.3).
    case connectionFailed(PeerAddress, reason: HCIErrorCode)
    /// The connection ended; `reason` is the HCI error code of Disconnection Complete (Vol 4 Part E §7.7.5):
    /// 0x08 Connection Timeout, 0x13 Remote User Terminated, 0x16 Connection Terminated by Local Host, ...;
    /// `error` is `.timeout` when the host ended the link because an ATT transaction timed out (Vol 3 Part F §3.3.3),
    /// `.controllerLost` when it ended because the controller went away.
    case disconnected(PeerAddress, reason: HCIErrorCode, error: BackendError? = nil)
    /// The result of the request `RequestID` on `peer`.
    case response(PeerAddress, RequestID, BackendResponse)
    /// A Handle Value Notification (`isIndication` false) or Indication (Vol 3 Part F §3.4.7.1/§3.4.7.2).
    case valueNotified(PeerAddress, handle: AttributeHandle, value: [UInt8], isIndication: Bool)
    /// Whether a Write Command can be queued now (controller ACL buffers, Vol 4 Part E §4.1.1).
    case writeWithoutResponseAvailability(PeerAddress, canSend: Bool)
    /// One Write Without Response the facade handed over has gone to the link (or was dropped); `canSend` as in
    /// ``writeWithoutResponseAvailability(_:canSend:)`` right after it. Sent once per `write(…withResponse: false)`.
    case writeWithoutResponseSent(PeerAddress, canSend: Bool)
    /// The peer's Service Changed indication (Vol 3 Part G §7.1): attributes in `range` changed.
    case servicesChanged(PeerAddress, range: ClosedRange<AttributeHandle>)
    /// The peer's GAP Device Name (0x2A00, Vol 3 Part C §12.1) was read or changed.
    case nameChanged(PeerAddress, name: String)
    /// The scan the facade asked for did not start, or the host ended it while the controller stayed usable;
    /// `reason` is one line saying what happened and what to do (e.g. the controller answered LE Set Scan Enable,
    /// Vol 4 Part E §7.8.11, with 0x0C Command Disallowed because another process scans).
    case scanFailed(reason: String)
    /// The scan the facade asked to stop has stopped: every discovery of it was handed over before this event.
    case scanStopped
}

/// The result of a request.
package enum BackendResponse: Sendable, Equatable {
    /// Primary services found.
    case services([GATTService])
    /// Characteristics found.
    case characteristics([GATTCharacteristic])
    /// Descriptors found.
    case descriptors([GATTDescriptor])
    /// The include declarations found in a service (Vol 3 Part G §4.5.1), with their handles.
    case includedServices([GATTIncludedService])
    /// A value read.
    case value([UInt8])
    /// A write (or CCCD write) was acknowledged.
    case written
    /// An RSSI in dBm (-127...20; Vol 4 Part E §7.5.4).
    case rssi(Int)
    /// The link is encrypted (`pair`): how (Core v5.4 Vol 3 Part C §10.2).
    case security(LinkSecurity)
    /// The request failed.
    case failure(BackendError)
}

/// Why a request failed.
package enum BackendError: Error, Sendable, Equatable {
    /// An ATT Error Response with this Error Code (Vol 3 Part F §3.4.1.1) → `CBATTError`.
    case att(ATTError)
    /// The ATT transaction timed out (30 s, Vol 3 Part F §3.3.3) → `CBError.connectionTimeout`.
    case timeout
    /// The link went down during the request → `CBError.peripheralDisconnected`.
    case disconnected
    /// There is no connection → `CBError.notConnected`.
    case notConnected
    /// The link ended because the controller went away (powered off, removed, lost, unresponsive) →
    /// `CBError.peripheralDisconnected`; an auto-reconnect connection does not reconnect (the manager's state drops
    /// below `.poweredOn`, which invalidates its peripherals).
    case controllerLost
    /// The peer no longer has the bond's key (Encryption Change 0x06 PIN or Key Missing) →
    /// `CBError.peerRemovedPairingInformation`, with the host's text.
    case peerRemovedPairingInformation(String)
    /// Pairing timed out (the 30 s SMP timeout, Core v5.4 Vol 3 Part H §3.4) → `CBError.encryptionTimedOut`.
    case encryptionTimedOut(String)
    /// Any other failure → `CBError.unknown`.
    case other(String)
}

/// A bonded device as the facade needs it: the address the host reports it by, and its identity address.
package struct BondedPeer: Sendable, Hashable {
    /// The address the host reports the device by (`Bond.knownAddress`).
    package var known: PeerAddress
    /// The device's identity address (public or random static; Core v5.4 Vol 3 Part H §3.6.5).
    package var identity: BluetoothAddress

    /// Makes the value.
    package init(known: PeerAddress, identity: BluetoothAddress) {
        self.known = known
        self.identity = identity
    }
}
