// A bond's part in signed writes: the next signature with this host's CSRK, and the counter it spends.

import OCBCore
import OCBSMP

extension Bond {
    /// The 12-byte Authentication Signature of `message` (Core v5.4 Vol 3 Part H §2.4.5, ``OCBSMP/SMPSignature``) with
    /// this host's CSRK (``localSignatureKey``) and SignCounter (``localSignCounter``), and the bond with the counter one
    /// more, to be saved before the write goes; nil without a key, with a malformed one, or when the counter is spent.
    func signing(_ message: [UInt8]) -> (signature: [UInt8], next: Bond)? {
        guard let key = localSignatureKey.flatMap(Hex.bytes) else { return nil }
        let counter = localSignCounter ?? 0
        guard counter < UInt32.max, let signature = try? SMPSignature.sign(message, csrk: key, counter: counter) else { return nil }
        var next = self
        next.localSignCounter = counter + 1
        return (signature, next)
    }
}
