// Any ATT PDU, decoded from bytes by its opcode.

/// Any ATT PDU of Core v5.4 Vol 3 Part F §3.4, one case per PDU type.
///
/// ``init(bytes:)`` reads the opcode and decodes the matching PDU; it throws ``ATTDecodingError`` for an empty PDU,
/// an opcode the spec does not define (reason ``ATTDecodingError/Reason/unknownOpcode``) or a malformed PDU.
public enum ATTPDU: Hashable, Sendable {
    /// ``ATTErrorResponse``.
    case errorResponse(ATTErrorResponse)
    /// ``ATTExchangeMTURequest``.
    case exchangeMTURequest(ATTExchangeMTURequest)
    /// ``ATTExchangeMTUResponse``.
    case exchangeMTUResponse(ATTExchangeMTUResponse)
    /// ``ATTFindInformationRequest``.
    case findInformationRequest(ATTFindInformationRequest)
    /// ``ATTFindInformationResponse``.
    case findInformationResponse(ATTFindInformationResponse)
    /// ``ATTFindByTypeValueRequest``.
    case findByTypeValueRequest(ATTFindByTypeValueRequest)
    /// ``ATTFindByTypeValueResponse``.
    case findByTypeValueResponse(ATTFindByTypeValueResponse)
    /// ``ATTReadByTypeRequest``.
    case readByTypeRequest(ATTReadByTypeRequest)
    /// ``ATTReadByTypeResponse``.
    case readByTypeResponse(ATTReadByTypeResponse)
    /// ``ATTReadRequest``.
    case readRequest(ATTReadRequest)
    /// ``ATTReadResponse``.
    case readResponse(ATTReadResponse)
    /// ``ATTReadBlobRequest``.
    case readBlobRequest(ATTReadBlobRequest)
    /// ``ATTReadBlobResponse``.
    case readBlobResponse(ATTReadBlobResponse)
    /// ``ATTReadMultipleRequest``.
    case readMultipleRequest(ATTReadMultipleRequest)
    /// ``ATTReadMultipleResponse``.
    case readMultipleResponse(ATTReadMultipleResponse)
    /// ``ATTReadByGroupTypeRequest``.
    case readByGroupTypeRequest(ATTReadByGroupTypeRequest)
    /// ``ATTReadByGroupTypeResponse``.
    case readByGroupTypeResponse(ATTReadByGroupTypeResponse)
    /// ``ATTReadMultipleVariableRequest``.
    case readMultipleVariableRequest(ATTReadMultipleVariableRequest)
    /// ``ATTReadMultipleVariableResponse``.
    case readMultipleVariableResponse(ATTReadMultipleVariableResponse)
    /// ``ATTWriteRequest``.
    case writeRequest(ATTWriteRequest)
    /// ``ATTWriteResponse``.
    case writeResponse(ATTWriteResponse)
    /// ``ATTWriteCommand``.
    case writeCommand(ATTWriteCommand)
    /// ``ATTSignedWriteCommand``.
    case signedWriteCommand(ATTSignedWriteCommand)
    /// ``ATTPrepareWriteRequest``.
    case prepareWriteRequest(ATTPrepareWriteRequest)
    /// ``ATTPrepareWriteResponse``.
    case prepareWriteResponse(ATTPrepareWriteResponse)
    /// ``ATTExecuteWriteRequest``.
    case executeWriteRequest(ATTExecuteWriteRequest)
    /// ``ATTExecuteWriteResponse``.
    case executeWriteResponse(ATTExecuteWriteResponse)
    /// ``ATTHandleValueNotification``.
    case handleValueNotification(ATTHandleValueNotification)
    /// ``ATTHandleValueIndication``.
    case handleValueIndication(ATTHandleValueIndication)
    /// ``ATTHandleValueConfirmation``.
    case handleValueConfirmation(ATTHandleValueConfirmation)
    /// ``ATTMultipleHandleValueNotification``.
    case multipleHandleValueNotification(ATTMultipleHandleValueNotification)

    /// Decodes any PDU (opcode byte first).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        guard let first = bytes.first else {
            throw ATTDecodingError(opcode: ATTOpcode(rawValue: 0), field: "Attribute Opcode", offset: 0, reason: .empty)
        }
        switch ATTOpcode(rawValue: first) {
        case .errorResponse: self = .errorResponse(try ATTErrorResponse(bytes: bytes))
        case .exchangeMTURequest: self = .exchangeMTURequest(try ATTExchangeMTURequest(bytes: bytes))
        case .exchangeMTUResponse: self = .exchangeMTUResponse(try ATTExchangeMTUResponse(bytes: bytes))
        case .findInformationRequest: self = .findInformationRequest(try ATTFindInformationRequest(bytes: bytes))
        case .findInformationResponse: self = .findInformationResponse(try ATTFindInformationResponse(bytes: bytes))
        case .findByTypeValueRequest: self = .findByTypeValueRequest(try ATTFindByTypeValueRequest(bytes: bytes))
        case .findByTypeValueResponse: self = .findByTypeValueResponse(try ATTFindByTypeValueResponse(bytes: bytes))
        case .readByTypeRequest: self = .readByTypeRequest(try ATTReadByTypeRequest(bytes: bytes))
        case .readByTypeResponse: self = .readByTypeResponse(try ATTReadByTypeResponse(bytes: bytes))
        case .readRequest: self = .readRequest(try ATTReadRequest(bytes: bytes))
        case .readResponse: self = .readResponse(try ATTReadResponse(bytes: bytes))
        case .readBlobRequest: self = .readBlobRequest(try ATTReadBlobRequest(bytes: bytes))
        case .readBlobResponse: self = .readBlobResponse(try ATTReadBlobResponse(bytes: bytes))
        case .readMultipleRequest: self = .readMultipleRequest(try ATTReadMultipleRequest(bytes: bytes))
        case .readMultipleResponse: self = .readMultipleResponse(try ATTReadMultipleResponse(bytes: bytes))
        case .readByGroupTypeRequest: self = .readByGroupTypeRequest(try ATTReadByGroupTypeRequest(bytes: bytes))
        case .readByGroupTypeResponse: self = .readByGroupTypeResponse(try ATTReadByGroupTypeResponse(bytes: bytes))
        case .readMultipleVariableRequest: self = .readMultipleVariableRequest(try ATTReadMultipleVariableRequest(bytes: bytes))
        case .readMultipleVariableResponse: self = .readMultipleVariableResponse(try ATTReadMultipleVariableResponse(bytes: bytes))
        case .writeRequest: self = .writeRequest(try ATTWriteRequest(bytes: bytes))
        case .writeResponse: self = .writeResponse(try ATTWriteResponse(bytes: bytes))
        case .writeCommand: self = .writeCommand(try ATTWriteCommand(bytes: bytes))
        case .signedWriteCommand: self = .signedWriteCommand(try ATTSignedWriteCommand(bytes: bytes))
        case .prepareWriteRequest: self = .prepareWriteRequest(try ATTPrepareWriteRequest(bytes: bytes))
        case .prepareWriteResponse: self = .prepareWriteResponse(try ATTPrepareWriteResponse(bytes: bytes))
        case .executeWriteRequest: self = .executeWriteRequest(try ATTExecuteWriteRequest(bytes: bytes))
        case .executeWriteResponse: self = .executeWriteResponse(try ATTExecuteWriteResponse(bytes: bytes))
        case .handleValueNotification: self = .handleValueNotification(try ATTHandleValueNotification(bytes: bytes))
        case .handleValueIndication: self = .handleValueIndication(try ATTHandleValueIndication(bytes: bytes))
        case .handleValueConfirmation: self = .handleValueConfirmation(try ATTHandleValueConfirmation(bytes: bytes))
        case .multipleHandleValueNotification: self = .multipleHandleValueNotification(try ATTMultipleHandleValueNotification(bytes: bytes))
        default: throw ATTDecodingError(opcode: ATTOpcode(rawValue: first), field: "Attribute Opcode", offset: 0, reason: .unknownOpcode)
        }
    }

    /// The PDU's opcode.
    public var opcode: ATTOpcode {
        switch self {
        case .errorResponse: .errorResponse
        case .exchangeMTURequest: .exchangeMTURequest
        case .exchangeMTUResponse: .exchangeMTUResponse
        case .findInformationRequest: .findInformationRequest
        case .findInformationResponse: .findInformationResponse
        case .findByTypeValueRequest: .findByTypeValueRequest
        case .findByTypeValueResponse: .findByTypeValueResponse
        case .readByTypeRequest: .readByTypeRequest
        case .readByTypeResponse: .readByTypeResponse
        case .readRequest: .readRequest
        case .readResponse: .readResponse
        case .readBlobRequest: .readBlobRequest
        case .readBlobResponse: .readBlobResponse
        case .readMultipleRequest: .readMultipleRequest
        case .readMultipleResponse: .readMultipleResponse
        case .readByGroupTypeRequest: .readByGroupTypeRequest
        case .readByGroupTypeResponse: .readByGroupTypeResponse
        case .readMultipleVariableRequest: .readMultipleVariableRequest
        case .readMultipleVariableResponse: .readMultipleVariableResponse
        case .writeRequest: .writeRequest
        case .writeResponse: .writeResponse
        case .writeCommand: .writeCommand
        case .signedWriteCommand: .signedWriteCommand
        case .prepareWriteRequest: .prepareWriteRequest
        case .prepareWriteResponse: .prepareWriteResponse
        case .executeWriteRequest: .executeWriteRequest
        case .executeWriteResponse: .executeWriteResponse
        case .handleValueNotification: .handleValueNotification
        case .handleValueIndication: .handleValueIndication
        case .handleValueConfirmation: .handleValueConfirmation
        case .multipleHandleValueNotification: .multipleHandleValueNotification
        }
    }

    /// The PDU's bytes, opcode first.
    public var bytes: [UInt8] {
        switch self {
        case .errorResponse(let pdu): pdu.bytes
        case .exchangeMTURequest(let pdu): pdu.bytes
        case .exchangeMTUResponse(let pdu): pdu.bytes
        case .findInformationRequest(let pdu): pdu.bytes
        case .findInformationResponse(let pdu): pdu.bytes
        case .findByTypeValueRequest(let pdu): pdu.bytes
        case .findByTypeValueResponse(let pdu): pdu.bytes
        case .readByTypeRequest(let pdu): pdu.bytes
        case .readByTypeResponse(let pdu): pdu.bytes
        case .readRequest(let pdu): pdu.bytes
        case .readResponse(let pdu): pdu.bytes
        case .readBlobRequest(let pdu): pdu.bytes
        case .readBlobResponse(let pdu): pdu.bytes
        case .readMultipleRequest(let pdu): pdu.bytes
        case .readMultipleResponse(let pdu): pdu.bytes
        case .readByGroupTypeRequest(let pdu): pdu.bytes
        case .readByGroupTypeResponse(let pdu): pdu.bytes
        case .readMultipleVariableRequest(let pdu): pdu.bytes
        case .readMultipleVariableResponse(let pdu): pdu.bytes
        case .writeRequest(let pdu): pdu.bytes
        case .writeResponse(let pdu): pdu.bytes
        case .writeCommand(let pdu): pdu.bytes
        case .signedWriteCommand(let pdu): pdu.bytes
        case .prepareWriteRequest(let pdu): pdu.bytes
        case .prepareWriteResponse(let pdu): pdu.bytes
        case .executeWriteRequest(let pdu): pdu.bytes
        case .executeWriteResponse(let pdu): pdu.bytes
        case .handleValueNotification(let pdu): pdu.bytes
        case .handleValueIndication(let pdu): pdu.bytes
        case .handleValueConfirmation(let pdu): pdu.bytes
        case .multipleHandleValueNotification(let pdu): pdu.bytes
        }
    }
}
