// One kernel-mode connection: its L2CAP ATT socket, what we know of it, and its ATT sequencing.

/// A connection made through a kernel L2CAP socket (on the ``KernelHost``'s queue only).
struct KernelLink {
    var info: ConnectionInfo
    let socket: L2CAPSocket
    var att = ATTTransactions()
    var attHandlers: [UInt64: (Result<[UInt8], HostError>) -> Void] = [:]
    var disconnectRequested = false
}
