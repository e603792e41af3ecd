// The reasons an L2CAP_COMMAND_REJECT_RSP gives (Core v5.4 Vol 3 Part A §4.1).

/// The Reason field of L2CAP_COMMAND_REJECT_RSP (Core v5.4 Vol 3 Part A §4.1, Table 4.3), 2 bytes.
public struct L2CAPCommandRejectReason: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The 16-bit reason.
    public var rawValue: UInt16

    /// Wraps a reason value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Wraps a reason literal.
    public init(integerLiteral value: UInt16) { rawValue = value }

    /// 0x0000: Command not understood (no data).
    public static let commandNotUnderstood: L2CAPCommandRejectReason = 0x0000
    /// 0x0001: Signaling MTU exceeded (data: the actual MTUsig, 2 bytes).
    public static let signalingMTUExceeded: L2CAPCommandRejectReason = 0x0001
    /// 0x0002: Invalid CID in request (data: local CID then remote CID, 2 bytes each).
    public static let invalidCIDInRequest: L2CAPCommandRejectReason = 0x0002

    public var description: String {
        switch self {
        case .commandNotUnderstood: "Command not understood"
        case .signalingMTUExceeded: "Signaling MTU exceeded"
        case .invalidCIDInRequest: "Invalid CID in request"
        default: "reason 0x" + String(rawValue, radix: 16, uppercase: true)
        }
    }
}
