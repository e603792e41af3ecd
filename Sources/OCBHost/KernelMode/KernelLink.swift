// One kernel-mode connection: its L2CAP ATT socket, what we know of it, and its ATT bearer with the GATT client.

/// A connection made through a kernel L2CAP socket (on the ``KernelHost``'s queue only).
struct KernelLink: ATTLink {
    var info: ConnectionInfo
    let socket: L2CAPSocket
    /// The ATT bearer, GATT client and raw ATT requests of this connection.
    let att: LinkATT
    var disconnectRequested = false
    /// The raise of the link's security in progress, if any (BT_SECURITY).
    var security = KernelLinkSecurity()

    init(info: ConnectionInfo, socket: L2CAPSocket) {
        self.info = info
        self.socket = socket
        att = LinkATT(handle: info.handle)
        att.client.raisesSecurityOnError = true
    }
}
