// The bridge between a procedure's requests and responses and the ATT module's PDUs.
import OCBCore
import OCBATT

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
        guard opcode.kind == .response else { throw GATTError.unexpectedResponse(opcode.description) }
        let pdu: ATTPDU
        do throws(ATTDecodingError) {
            pdu = try ATTPDU(bytes: bytes)
        } catch {
            throw GATTError.malformed(GATTMalformedResponse(error))
        }
        try self.init(pdu)
    }

    /// The response a procedure consumes from an already decoded ATT PDU (the ATT bearer decodes every response
    /// once; this only picks the fields). Throws ``GATTError/unexpectedResponse(_:)`` for a PDU that is not a
    /// response a GATT procedure asks for.
    init(_ pdu: ATTPDU) throws(GATTError) {
        switch pdu {
        case .errorResponse(let response):
            self = .error(response.error, handle: response.attributeHandle)
        case .exchangeMTUResponse(let response):
            self = .exchangeMTU(serverRxMTU: response.serverRxMTU)
        case .findInformationResponse(let response):
            self = .findInformation(response.entries.map { ($0.handle, $0.uuid) })
        case .findByTypeValueResponse(let response):
            self = .findByTypeValue(response.handlesInformationList.map { ($0.foundAttributeHandle, $0.groupEndHandle) })
        case .readByTypeResponse(let response):
            self = .readByType(response.attributeDataList.map {
                GATTAttributeData(handle: $0.attributeHandle, endGroupHandle: $0.attributeHandle, value: $0.attributeValue)
            })
        case .readResponse(let response):
            self = .read(response.attributeValue)
        case .readBlobResponse(let response):
            self = .read(response.partAttributeValue)
        case .readMultipleResponse(let response):
            self = .readMultiple(response.setOfValues)
        case .readMultipleVariableResponse(let response):
            self = .readMultipleVariable(response.lengthValueTupleList.map { ($0.valueLength, $0.attributeValue) })
        case .readByGroupTypeResponse(let response):
            self = .readByGroupType(response.attributeDataList.map {
                GATTAttributeData(handle: $0.attributeHandle, endGroupHandle: $0.endGroupHandle, value: $0.attributeValue)
            })
        case .writeResponse:
            self = .write
        case .prepareWriteResponse(let response):
            self = .prepareWrite(handle: response.attributeHandle, offset: response.valueOffset, value: response.partAttributeValue)
        case .executeWriteResponse:
            self = .executeWrite
        default:
            throw GATTError.unexpectedResponse(pdu.opcode.description)
        }
    }
}
