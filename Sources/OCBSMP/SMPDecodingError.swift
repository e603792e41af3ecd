// Why bytes on the SMP channel are not an SMP PDU: empty, an unknown code, or the wrong length for the code.

/// A malformed SMP PDU (Core v5.4 Vol 3 Part H §3.3); the receiver answers Pairing Failed with Command Not Supported
/// (unknown code) or Invalid Parameters (wrong length), §3.4.
public enum SMPDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No bytes at all.
    case empty
    /// A code the specification does not define.
    case unknownCode(UInt8)
    /// A defined code with the wrong number of data bytes.
    case wrongLength(SMPCode, got: Int, expected: Int)

    public var description: String {
        switch self {
        case .empty: "SMP PDU: empty"
        case let .unknownCode(code): "SMP PDU: unknown code 0x\(String(code, radix: 16, uppercase: true))"
        case let .wrongLength(code, got, expected): "SMP \(code): \(got) data bytes, not \(expected)"
        }
    }
}
