// Why a Security Manager cryptographic function gave no result.

/// A failure of the cryptographic toolbox (Core v5.4 Vol 3 Part H §2.2), typed so that pairing fails instead of trapping.
public enum SMPCryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An input had the wrong length: the function, the input's name, the bytes given and expected.
    case wrongLength(function: String, input: String, got: Int, expected: Int)
    /// The peer's public key is not a point of P-256 (Vol 3 Part H §2.3.5.6.1: pairing fails, DHKey Check Failed).
    case invalidPublicKey
    /// libcrypto failed (out of memory, a missing algorithm): the operation.
    case library(String)

    public var description: String {
        switch self {
        case let .wrongLength(function, input, got, expected): "\(function): \(input) is \(got) bytes, not \(expected)"
        case .invalidPublicKey: "the peer's public key is not a point on P-256"
        case let .library(operation): "libcrypto failed in \(operation)"
        }
    }
}
