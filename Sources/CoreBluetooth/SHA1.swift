// SHA-1 (FIPS 180-4 §6.1) through OpenSSL's libcrypto, used only to derive name-based (version 5) UUIDs for peripheral identifiers.

@_implementationOnly import COCBCrypto

/// SHA-1 of a byte string (FIPS 180-4 §6.1.2), computed by libcrypto's `EVP_Digest` (never by our own code). Not for
/// security: it names peripherals (RFC 9562 §5.5).
enum SHA1 {
    /// Starts libcrypto and fetches SHA-1 now, once per process (a manager's start: the first discovery then does not
    /// wait a millisecond or two for it).
    /// Never inlined, nor is ``digest(_:)``: the shim's once-state is `static` in its header, one copy per object file
    /// that uses it, so both must use it from this file's.
    @inline(never) static func prepare() { ocb_sha1_prepare() }

    /// The 20-byte digest of `message`. libcrypto's one-shot digest cannot fail for SHA-1 short of an allocation
    /// failure inside OpenSSL; should it ever, the result is 20 zero bytes (a constant identifier, never a crash).
    @inline(never) static func digest(_ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 20)
        // Through the shim, which starts libcrypto without its atexit cleanup (see ocb_crypto_init).
        let ok = message.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                ocb_sha1(input.baseAddress, input.count, output.baseAddress)
            }
        }
        guard ok == 1 else { return [UInt8](repeating: 0, count: 20) }
        return out
    }
}
