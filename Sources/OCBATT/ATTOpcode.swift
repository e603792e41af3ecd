// The ATT opcode byte: method, command flag and authentication signature flag, with the spec's names.

import OCBCore

/// An Attribute Opcode (Core v5.4 Vol 3 Part F §3.3.1, Table 3.1; values in §3.4.8, Table 3.37).
///
/// One byte: bits 0-5 Method, bit 6 Command Flag, bit 7 Authentication Signature Flag.
/// Named constants exist for every PDU of §3.4; any other value is kept as given.
public struct ATTOpcode: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The opcode byte.
    public var rawValue: UInt8

    /// Wraps an opcode byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Wraps an opcode literal.
    public init(integerLiteral value: UInt8) { rawValue = value }

    /// Bits 0-5, the method.
    public var method: UInt8 { rawValue & 0x3F }
    /// Bit 6, the Command Flag: set for commands, which get no response.
    public var isCommand: Bool { rawValue & 0x40 != 0 }
    /// Bit 7, the Authentication Signature Flag: a 12-byte signature ends the PDU.
    public var hasAuthenticationSignature: Bool { rawValue & 0x80 != 0 }

    /// 0x01 ATT_ERROR_RSP (§3.4.1.1).
    public static let errorResponse: ATTOpcode = 0x01
    /// 0x02 ATT_EXCHANGE_MTU_REQ (§3.4.2.1).
    public static let exchangeMTURequest: ATTOpcode = 0x02
    /// 0x03 ATT_EXCHANGE_MTU_RSP (§3.4.2.2).
    public static let exchangeMTUResponse: ATTOpcode = 0x03
    /// 0x04 ATT_FIND_INFORMATION_REQ (§3.4.3.1).
    public static let findInformationRequest: ATTOpcode = 0x04
    /// 0x05 ATT_FIND_INFORMATION_RSP (§3.4.3.2).
    public static let findInformationResponse: ATTOpcode = 0x05
    /// 0x06 ATT_FIND_BY_TYPE_VALUE_REQ (§3.4.3.3).
    public static let findByTypeValueRequest: ATTOpcode = 0x06
    /// 0x07 ATT_FIND_BY_TYPE_VALUE_RSP (§3.4.3.4).
    public static let findByTypeValueResponse: ATTOpcode = 0x07
    /// 0x08 ATT_READ_BY_TYPE_REQ (§3.4.4.1).
    public static let readByTypeRequest: ATTOpcode = 0x08
    /// 0x09 ATT_READ_BY_TYPE_RSP (§3.4.4.2).
    public static let readByTypeResponse: ATTOpcode = 0x09
    /// 0x0A ATT_READ_REQ (§3.4.4.3).
    public static let readRequest: ATTOpcode = 0x0A
    /// 0x0B ATT_READ_RSP (§3.4.4.4).
    public static let readResponse: ATTOpcode = 0x0B
    /// 0x0C ATT_READ_BLOB_REQ (§3.4.4.5).
    public static let readBlobRequest: ATTOpcode = 0x0C
    /// 0x0D ATT_READ_BLOB_RSP (§3.4.4.6).
    public static let readBlobResponse: ATTOpcode = 0x0D
    /// 0x0E ATT_READ_MULTIPLE_REQ (§3.4.4.7).
    public static let readMultipleRequest: ATTOpcode = 0x0E
    /// 0x0F ATT_READ_MULTIPLE_RSP (§3.4.4.8).
    public static let readMultipleResponse: ATTOpcode = 0x0F
    /// 0x10 ATT_READ_BY_GROUP_TYPE_REQ (§3.4.4.9).
    public static let readByGroupTypeRequest: ATTOpcode = 0x10
    /// 0x11 ATT_READ_BY_GROUP_TYPE_RSP (§3.4.4.10).
    public static let readByGroupTypeResponse: ATTOpcode = 0x11
    /// 0x12 ATT_WRITE_REQ (§3.4.5.1).
    public static let writeRequest: ATTOpcode = 0x12
    /// 0x13 ATT_WRITE_RSP (§3.4.5.2).
    public static let writeResponse: ATTOpcode = 0x13
    /// 0x16 ATT_PREPARE_WRITE_REQ (§3.4.6.1).
    public static let prepareWriteRequest: ATTOpcode = 0x16
    /// 0x17 ATT_PREPARE_WRITE_RSP (§3.4.6.2).
    public static let prepareWriteResponse: ATTOpcode = 0x17
    /// 0x18 ATT_EXECUTE_WRITE_REQ (§3.4.6.3).
    public static let executeWriteRequest: ATTOpcode = 0x18
    /// 0x19 ATT_EXECUTE_WRITE_RSP (§3.4.6.4).
    public static let executeWriteResponse: ATTOpcode = 0x19
    /// 0x1B ATT_HANDLE_VALUE_NTF (§3.4.7.1).
    public static let handleValueNotification: ATTOpcode = 0x1B
    /// 0x1D ATT_HANDLE_VALUE_IND (§3.4.7.2).
    public static let handleValueIndication: ATTOpcode = 0x1D
    /// 0x1E ATT_HANDLE_VALUE_CFM (§3.4.7.3).
    public static let handleValueConfirmation: ATTOpcode = 0x1E
    /// 0x20 ATT_READ_MULTIPLE_VARIABLE_REQ (§3.4.4.11).
    public static let readMultipleVariableRequest: ATTOpcode = 0x20
    /// 0x21 ATT_READ_MULTIPLE_VARIABLE_RSP (§3.4.4.12).
    public static let readMultipleVariableResponse: ATTOpcode = 0x21
    /// 0x23 ATT_MULTIPLE_HANDLE_VALUE_NTF (§3.4.7.4).
    public static let multipleHandleValueNotification: ATTOpcode = 0x23
    /// 0x52 ATT_WRITE_CMD (§3.4.5.3).
    public static let writeCommand: ATTOpcode = 0x52
    /// 0xD2 ATT_SIGNED_WRITE_CMD (§3.4.5.4).
    public static let signedWriteCommand: ATTOpcode = 0xD2

    /// What a PDU of this opcode is (§3.3: requests, responses, commands, notifications, indications, confirmations).
    public enum Kind: Hashable, Sendable {
        /// A client request; the server answers with its response or an Error Response.
        case request
        /// A server response (Error Response included).
        case response
        /// A command: no response (Command Flag set).
        case command
        /// A server notification: no confirmation.
        case notification
        /// A server indication: the client confirms it.
        case indication
        /// A client confirmation of an indication.
        case confirmation
        /// An opcode the spec does not define.
        case unknown
    }

    /// The kind of PDU this opcode names; ``Kind/unknown`` for undefined values.
    public var kind: Kind {
        switch self {
        case .exchangeMTURequest, .findInformationRequest, .findByTypeValueRequest, .readByTypeRequest, .readRequest,
             .readBlobRequest, .readMultipleRequest, .readByGroupTypeRequest, .writeRequest, .prepareWriteRequest,
             .executeWriteRequest, .readMultipleVariableRequest:
            .request
        case .errorResponse, .exchangeMTUResponse, .findInformationResponse, .findByTypeValueResponse, .readByTypeResponse,
             .readResponse, .readBlobResponse, .readMultipleResponse, .readByGroupTypeResponse, .writeResponse,
             .prepareWriteResponse, .executeWriteResponse, .readMultipleVariableResponse:
            .response
        case .writeCommand, .signedWriteCommand: .command
        case .handleValueNotification, .multipleHandleValueNotification: .notification
        case .handleValueIndication: .indication
        case .handleValueConfirmation: .confirmation
        default: .unknown
        }
    }

    /// For a request, the opcode of its response (the request's opcode + 1, §3.4.8); nil otherwise.
    public var responseOpcode: ATTOpcode? {
        kind == .request ? ATTOpcode(rawValue: rawValue &+ 1) : nil
    }

    /// The spec's PDU name, e.g. "ATT_READ_BY_TYPE_REQ"; "opcode 0xNN" for undefined values.
    public var name: String {
        switch self {
        case .errorResponse: "ATT_ERROR_RSP"
        case .exchangeMTURequest: "ATT_EXCHANGE_MTU_REQ"
        case .exchangeMTUResponse: "ATT_EXCHANGE_MTU_RSP"
        case .findInformationRequest: "ATT_FIND_INFORMATION_REQ"
        case .findInformationResponse: "ATT_FIND_INFORMATION_RSP"
        case .findByTypeValueRequest: "ATT_FIND_BY_TYPE_VALUE_REQ"
        case .findByTypeValueResponse: "ATT_FIND_BY_TYPE_VALUE_RSP"
        case .readByTypeRequest: "ATT_READ_BY_TYPE_REQ"
        case .readByTypeResponse: "ATT_READ_BY_TYPE_RSP"
        case .readRequest: "ATT_READ_REQ"
        case .readResponse: "ATT_READ_RSP"
        case .readBlobRequest: "ATT_READ_BLOB_REQ"
        case .readBlobResponse: "ATT_READ_BLOB_RSP"
        case .readMultipleRequest: "ATT_READ_MULTIPLE_REQ"
        case .readMultipleResponse: "ATT_READ_MULTIPLE_RSP"
        case .readByGroupTypeRequest: "ATT_READ_BY_GROUP_TYPE_REQ"
        case .readByGroupTypeResponse: "ATT_READ_BY_GROUP_TYPE_RSP"
        case .writeRequest: "ATT_WRITE_REQ"
        case .writeResponse: "ATT_WRITE_RSP"
        case .prepareWriteRequest: "ATT_PREPARE_WRITE_REQ"
        case .prepareWriteResponse: "ATT_PREPARE_WRITE_RSP"
        case .executeWriteRequest: "ATT_EXECUTE_WRITE_REQ"
        case .executeWriteResponse: "ATT_EXECUTE_WRITE_RSP"
        case .handleValueNotification: "ATT_HANDLE_VALUE_NTF"
        case .handleValueIndication: "ATT_HANDLE_VALUE_IND"
        case .handleValueConfirmation: "ATT_HANDLE_VALUE_CFM"
        case .readMultipleVariableRequest: "ATT_READ_MULTIPLE_VARIABLE_REQ"
        case .readMultipleVariableResponse: "ATT_READ_MULTIPLE_VARIABLE_RSP"
        case .multipleHandleValueNotification: "ATT_MULTIPLE_HANDLE_VALUE_NTF"
        case .writeCommand: "ATT_WRITE_CMD"
        case .signedWriteCommand: "ATT_SIGNED_WRITE_CMD"
        default: "opcode 0x" + Hex.uppercase(rawValue, digits: 2)
        }
    }

    public var description: String { name }
}
