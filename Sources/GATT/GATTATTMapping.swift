// The bridge between a procedure's requests and responses and the ATT module's PDUs.
import BluetoothCore
import ATT

extension GATTRequest {
    /// The ATT request PDU for this request (Core v5.4 Vol 3 Part F §3.4).
    var pdu: any ATTPDUCoding {
        switch self {
        case .exchangeMTU(let clientRxMTU):
            ATTExchangeMTURequest(clientRxMTU: clientRxMTU)
        case .findInformation(let start, let end):
            ATTFindInformationRequest(startingHandle: start, endingHandle: end)
        case .findByTypeValue(let start, let end, let type, let value):
            ATTFindByTypeValueRequest(startingHandle: start, endingHandle: end, attributeType: type, attributeValue: value)
        case .readByType(let start, let end, let type):
            ATTReadByTypeRequest(startingHandle: start, endingHandle: end, attributeType: type)
        case .read(let handle):
            ATTReadRequest(attributeHandle: handle)
        case .readBlob(let handle, let offset):
            ATTReadBlobRequest(attributeHandle: handle, valueOffset: offset)
        case .readMultiple(let handles):
            ATTReadMultipleRequest(setOfHandles: handles)
        case .readMultipleVariable(let handles):
            ATTReadMultipleVariableRequest(setOfHandles: handles)
        case .readByGroupType(let start, let end, let type):
            ATTReadByGroupTypeRequest(startingHandle: start, endingHandle: end, attributeGroupType: type)
        case .write(let handle, let value):
            ATTWriteRequest(attributeHandle: handle, attributeValue: value)
        case .prepareWrite(let handle, let offset, let value):
            ATTPrepareWriteRequest(attributeHandle: handle, valueOffset: offset, partAttributeValue: value)
        case .executeWrite(let commit):
            ATTExecuteWriteRequest(flags: commit ? .writeAllPendingPreparedValues : .cancelAllPreparedWrites)
        }
    }
}

extension GATTResponse {
    /// Decodes a response PDU (opcode first) for a procedure. Throws ``GATTError/malformed(_:)`` with the
    /// ATT decoding error when the PDU is invalid, ``GATTError/unexpectedResponse(_:)`` for a PDU that is not
    /// a response a GATT procedure asks for.
    init(bytes: [UInt8]) throws(GATTError) {
        let opcode = ATTOpcode(rawValue: bytes.first ?? 0)
        let answers: Set<ATTOpcode> = [
            .errorResponse, .exchangeMTUResponse, .findInformationResponse, .findByTypeValueResponse, .readByTypeResponse,
            .readResponse, .readBlobResponse, .readMultipleResponse, .readMultipleVariableResponse,
            .readByGroupTypeResponse, .writeResponse, .prepareWriteResponse, .executeWriteResponse,
        ]
        guard answers.contains(opcode) else { throw GATTError.unexpectedResponse(opcode.description) }
        do throws(ATTDecodingError) {
            switch opcode {
            case .errorResponse:
                let pdu = try ATTErrorResponse(bytes: bytes)
                self = .error(pdu.error, handle: pdu.attributeHandle)
            case .findInformationResponse:
                self = .findInformation(try ATTFindInformationResponse(bytes: bytes).entries.map { ($0.handle, $0.uuid) })
            case .findByTypeValueResponse:
                self = .findByTypeValue(try ATTFindByTypeValueResponse(bytes: bytes).handlesInformationList.map {
                    ($0.foundAttributeHandle, $0.groupEndHandle)
                })
            case .readByTypeResponse:
                self = .readByType(try ATTReadByTypeResponse(bytes: bytes).attributeDataList.map {
                    GATTAttributeData(handle: $0.attributeHandle, endGroupHandle: $0.attributeHandle, value: $0.attributeValue)
                })
            case .readResponse:
                self = .read(try ATTReadResponse(bytes: bytes).attributeValue)
            case .readBlobResponse:
                self = .read(try ATTReadBlobResponse(bytes: bytes).partAttributeValue)
            case .readMultipleResponse:
                self = .readMultiple(try ATTReadMultipleResponse(bytes: bytes).setOfValues)
            case .readMultipleVariableResponse:
                self = .readMultipleVariable(try ATTReadMultipleVariableResponse(bytes: bytes).lengthValueTupleList.map {
                    ($0.valueLength, $0.attributeValue)
                })
            case .readByGroupTypeResponse:
                self = .readByGroupType(try ATTReadByGroupTypeResponse(bytes: bytes).attributeDataList.map {
                    GATTAttributeData(handle: $0.attributeHandle, endGroupHandle: $0.endGroupHandle, value: $0.attributeValue)
                })
            case .writeResponse:
                _ = try ATTWriteResponse(bytes: bytes)
                self = .write
            case .prepareWriteResponse:
                let pdu = try ATTPrepareWriteResponse(bytes: bytes)
                self = .prepareWrite(handle: pdu.attributeHandle, offset: pdu.valueOffset, value: pdu.partAttributeValue)
            case .executeWriteResponse:
                _ = try ATTExecuteWriteResponse(bytes: bytes)
                self = .executeWrite
            default:
                self = .exchangeMTU(serverRxMTU: try ATTExchangeMTUResponse(bytes: bytes).serverRxMTU)
            }
        } catch {
            throw GATTError.malformed(GATTMalformedResponse(response: opcode.description, reason: error.description))
        }
    }
}
