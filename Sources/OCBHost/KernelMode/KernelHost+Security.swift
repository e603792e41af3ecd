// Link security in kernel mode: the kernel's Security Manager pairs and encrypts; this host asks it to.

import OCBATT
import OCBHCI

extension KernelHost {
    /// ``CentralHost/secure(_:completion:)``: not yet in kernel mode; fails with ``HostError/unsupported(_:)``.
    public func secure(_ handle: ConnectionHandle, completion: @escaping @Sendable (Result<LinkSecurity, HostError>) -> Void) {
        deliver { completion(.failure(.unsupported("pairing in kernel mode"))) }
    }

    /// ``SerialHost/knownPeer(forPrivate:)``: none; the kernel resolves private addresses with the IRKs it holds.
    func knownPeer(forPrivate peer: PeerAddress) -> PeerAddress? { nil }

    /// ``CentralHost/security(of:)``: unknown in kernel mode (nil).
    public func security(of handle: ConnectionHandle) -> LinkSecurity? { nil }

    /// ``ATTLinkHost/securityRequired(_:on:)``: the request completes with its error (the bearer parks none here,
    /// as ``OCBATT/ATTBearer/raisesSecurityOnError`` stays off in kernel mode).
    func securityRequired(_ response: ATTErrorResponse, on handle: ConnectionHandle) {
        guard let att = links[handle]?.att else { return }
        applyATT(att.securityNotRaised(now: clock.now), on: handle)
    }
}
