// Connections over the host: connect without timeout, MTU exchange and Service Changed set-up, cancel, link loss.
internal import OCBCore
internal import OCBGATT
internal import OCBHCI
internal import OCBHost

extension HostCentralBackend {
    /// ATT_MTU offered at connection (the largest, Core v5.4 Vol 3 Part F §3.2.9: 512-byte values plus headers).
    static let offeredMTU: UInt16 = 517

    /// Asks the host to connect with no timeout (as iOS); a second call while connected or connecting is ignored.
    /// Ends in ``BackendEvent/connected(_:mtu:)`` after the MTU exchange (offering 517), or
    /// ``BackendEvent/connectionFailed(_:reason:)``.
    package func connect(_ peer: PeerAddress) {
        submit { [self] in
            guard links[peer] == nil, !connecting.contains(peer) else { return }
            connecting.insert(peer)
            host.connect(to: peer, options: ConnectOptions(timeout: nil))
        }
    }

    /// Disconnects a connected peer (HCI Disconnect, reason 0x13 Remote User Terminated Connection, Core v5.4 Vol 4
    /// Part E §7.1.6) or cancels its pending attempt (LE Create Connection Cancel, §7.8.13); no effect otherwise.
    package func cancelConnection(_ peer: PeerAddress) {
        submit { [self] in
            if let link = links[peer] {
                // Disconnect with 0x13 Remote User Terminated Connection, as iOS (Vol 4 Part E §7.1.6).
                host.disconnect(link.handle, reason: .remoteUserTerminatedConnection)
            } else if connecting.contains(peer) {
                host.cancelConnect(to: peer)
            }
        }
    }

    /// The host connected (on `queue`): exchange the MTU, report `connected`, then set up Service Changed.
    func linkUp(_ info: ConnectionInfo) {
        let peer = info.peer
        guard connecting.remove(peer) != nil else {
            // Nobody asked (any more): drop the link.
            host.disconnect(info.handle, reason: .remoteUserTerminatedConnection)
            return
        }
        links[peer] = Link(handle: info.handle, ready: false)
        host.exchangeMTU(Self.offeredMTU, on: info.handle) { [weak self] _ in
            // A refused exchange leaves ATT_MTU at 23 (Vol 3 Part F §3.2.8); the bearer holds whichever it is.
            guard let self, var link = links[peer], link.handle == info.handle else { return }
            link.ready = true
            links[peer] = link
            host.withGATT(info.handle) { [weak self] client in
                guard let self, let client else { return }
                client.serviceChangeHandler = { [weak self] change in self?.post(.servicesChanged(peer, range: change.range)) }
                // Service Changed indications (Vol 3 Part G §7.1), before any request of the app; a peer without the
                // characteristic has nothing to enable.
                client.enableServiceChangedIndications { _ in }
            }
            emit(.connected(peer, mtu: host.linkMTU(on: info.handle) ?? LinkMTU()))
        }
    }

    /// A connection attempt ended without a link (on `queue`).
    func attemptFailed(_ peer: PeerAddress, _ error: HostError) {
        guard connecting.remove(peer) != nil else { return }
        emit(.connectionFailed(peer, reason: error.connectionFailureReason))
    }

    /// A link ended (on `queue`), after an ATT transaction timeout when `attTimedOut`; pending GATT procedures fail
    /// with `.disconnected` through the client.
    func linkDown(_ peer: PeerAddress, handle: ConnectionHandle, reason: HCIErrorCode, error: BackendError? = nil) {
        guard let link = links[peer], link.handle == handle else { return }
        links[peer] = nil
        emit(.disconnected(peer, reason: reason, error: error))
    }
}
