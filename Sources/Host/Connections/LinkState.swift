// Everything the full host keeps for one LE connection: info, L2CAP router, ATT sequencing and waiting requests.

import L2CAP

/// One established connection (on the host's queue only).
struct LinkState {
    var info: ConnectionInfo
    var router: L2CAPConnectionRouter
    var att = ATTTransactions()
    /// Completions of ATT requests by transaction id.
    var attHandlers: [UInt64: (Result<[UInt8], HostError>) -> Void] = [:]
    /// True once we sent Disconnect (the ending is then ours and reported without error).
    var disconnectRequested = false
    /// True for a link that won a race with its cancelled attempt: it is disconnected without being reported.
    var suppressEvents = false

    init(info: ConnectionInfo) {
        self.info = info
        router = L2CAPConnectionRouter(handle: info.handle)
    }

    var nextDeadline: ContinuousClock.Instant? { att.nextDeadline }
}
