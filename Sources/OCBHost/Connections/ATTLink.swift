// What both hosts keep for every connection and the shared ATT code needs: its ConnectionInfo and its LinkATT.

/// One connection of an ``ATTLinkHost``: ``LinkState`` in full-host mode, ``KernelLink`` in kernel mode
/// (on the host's queue only).
protocol ATTLink {
    /// What is known of the connection; its `mtu` follows the ATT bearer's ATT_MTU.
    var info: ConnectionInfo { get set }
    /// The connection's ATT bearer, GATT client and raw ATT requests.
    var att: LinkATT { get }
}
