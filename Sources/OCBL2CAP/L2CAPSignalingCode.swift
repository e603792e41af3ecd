// The signaling command codes of the LE signaling channel (Core v5.4 Vol 3 Part A §4, Table 4.2).

/// A signaling command code (Core v5.4 Vol 3 Part A §4, Table 4.2), the first byte of a signaling command.
///
/// Codes valid on the LE signaling channel (CID 0x0005) have named constants; any other value is kept as given.
public struct L2CAPSignalingCode: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The code byte.
    public var rawValue: UInt8

    /// Wraps a code byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Wraps a code literal.
    public init(integerLiteral value: UInt8) { rawValue = value }

    /// 0x01 L2CAP_COMMAND_REJECT_RSP (§4.1).
    public static let commandReject: L2CAPSignalingCode = 0x01
    /// 0x06 L2CAP_DISCONNECTION_REQ (§4.6).
    public static let disconnectionRequest: L2CAPSignalingCode = 0x06
    /// 0x07 L2CAP_DISCONNECTION_RSP (§4.7).
    public static let disconnectionResponse: L2CAPSignalingCode = 0x07
    /// 0x12 L2CAP_CONNECTION_PARAMETER_UPDATE_REQ (§4.20).
    public static let connectionParameterUpdateRequest: L2CAPSignalingCode = 0x12
    /// 0x13 L2CAP_CONNECTION_PARAMETER_UPDATE_RSP (§4.21).
    public static let connectionParameterUpdateResponse: L2CAPSignalingCode = 0x13
    /// 0x14 L2CAP_LE_CREDIT_BASED_CONNECTION_REQ (§4.22).
    public static let leCreditBasedConnectionRequest: L2CAPSignalingCode = 0x14
    /// 0x15 L2CAP_LE_CREDIT_BASED_CONNECTION_RSP (§4.23).
    public static let leCreditBasedConnectionResponse: L2CAPSignalingCode = 0x15
    /// 0x16 L2CAP_FLOW_CONTROL_CREDIT_IND (§4.24).
    public static let flowControlCreditIndication: L2CAPSignalingCode = 0x16
    /// 0x17 L2CAP_CREDIT_BASED_CONNECTION_REQ (§4.25).
    public static let creditBasedConnectionRequest: L2CAPSignalingCode = 0x17
    /// 0x18 L2CAP_CREDIT_BASED_CONNECTION_RSP (§4.26).
    public static let creditBasedConnectionResponse: L2CAPSignalingCode = 0x18
    /// 0x19 L2CAP_CREDIT_BASED_RECONFIGURE_REQ (§4.27).
    public static let creditBasedReconfigureRequest: L2CAPSignalingCode = 0x19
    /// 0x1A L2CAP_CREDIT_BASED_RECONFIGURE_RSP (§4.28).
    public static let creditBasedReconfigureResponse: L2CAPSignalingCode = 0x1A

    /// True for the codes that answer a request (Command Reject included); a response is never itself answered.
    public var isResponse: Bool {
        [Self.commandReject, .disconnectionResponse, .connectionParameterUpdateResponse, .leCreditBasedConnectionResponse,
         .creditBasedConnectionResponse, .creditBasedReconfigureResponse].contains(self)
    }

    public var description: String {
        switch self {
        case .commandReject: "L2CAP_COMMAND_REJECT_RSP"
        case .disconnectionRequest: "L2CAP_DISCONNECTION_REQ"
        case .disconnectionResponse: "L2CAP_DISCONNECTION_RSP"
        case .connectionParameterUpdateRequest: "L2CAP_CONNECTION_PARAMETER_UPDATE_REQ"
        case .connectionParameterUpdateResponse: "L2CAP_CONNECTION_PARAMETER_UPDATE_RSP"
        case .leCreditBasedConnectionRequest: "L2CAP_LE_CREDIT_BASED_CONNECTION_REQ"
        case .leCreditBasedConnectionResponse: "L2CAP_LE_CREDIT_BASED_CONNECTION_RSP"
        case .flowControlCreditIndication: "L2CAP_FLOW_CONTROL_CREDIT_IND"
        case .creditBasedConnectionRequest: "L2CAP_CREDIT_BASED_CONNECTION_REQ"
        case .creditBasedConnectionResponse: "L2CAP_CREDIT_BASED_CONNECTION_RSP"
        case .creditBasedReconfigureRequest: "L2CAP_CREDIT_BASED_RECONFIGURE_REQ"
        case .creditBasedReconfigureResponse: "L2CAP_CREDIT_BASED_RECONFIGURE_RSP"
        default: "signaling code 0x" + String(rawValue, radix: 16, uppercase: true)
        }
    }
}
