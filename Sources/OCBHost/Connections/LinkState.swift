// Everything the full host keeps for one LE connection: info, L2CAP router, and its ATT bearer with the GATT client.

import OCBATT
import OCBL2CAP

/// One established connection (on the host's queue only).
struct LinkState: ATTLink {
    var info: ConnectionInfo
    /// The peer's address on the air for this connection (a resolvable private address stays one); `info.peer` is
    /// the address the device is known by (a bond's, ``Bond/knownAddress``), which can differ.
    var airAddress: PeerAddress
    var router: L2CAPConnectionRouter
    /// The ATT bearer, GATT client and raw ATT requests of this connection.
    let att: LinkATT
    /// True once we sent Disconnect (the ending is then ours and reported without error).
    var disconnectRequested = false
    /// True for a link that won a race with its cancelled attempt: it is disconnected without being reported.
    var suppressEvents = false
    /// True after a Write Without Response could not go out at once: the next time it can,
    /// ``HostEvent/readyToSendWriteWithoutResponse(handle:)`` is emitted.
    var writeWithoutResponseBlocked = false
    /// Encryption in force and the procedure raising it (pairing, or encryption with a bond's key).
    var security = LinkSecurityState()

    init(info: ConnectionInfo, attTransactionTimeout: Duration = ATTBearer.defaultTransactionTimeout) {
        self.info = info
        airAddress = info.peer
        router = L2CAPConnectionRouter(handle: info.handle, securityManagerAttached: true)
        att = LinkATT(handle: info.handle, transactionTimeout: attTransactionTimeout)
    }
}
