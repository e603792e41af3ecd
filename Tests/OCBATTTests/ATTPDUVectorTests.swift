// One byte vector per ATT PDU, built from the spec's field layouts (Core v5.4 Vol 3 Part F §3.4), encoded and decoded.

import OCBATT
import OCBCore
import Testing

@Suite struct ATTPDUVectorTests {
    static let signature: [UInt8] = Array(0xA0...0xAB)

    static let vectors: [(String, ATTPDU)] = [
        ("01 0a 05 00 0a", .errorResponse(ATTErrorResponse(requestOpcode: .readRequest, attributeHandle: 0x0005, error: .attributeNotFound))),
        ("02 05 02", .exchangeMTURequest(ATTExchangeMTURequest(clientRxMTU: 517))),
        ("03 67 00", .exchangeMTUResponse(ATTExchangeMTUResponse(serverRxMTU: 103))),
        ("04 01 00 ff ff", .findInformationRequest(ATTFindInformationRequest(startingHandle: 0x0001, endingHandle: 0xFFFF))),
        ("05 01 0e 00 02 29 0f 00 01 29", .findInformationResponse(ATTFindInformationResponse(format: .uuid16, entries: [
            .init(handle: 0x000E, uuid: BluetoothUUID(0x2902)), .init(handle: 0x000F, uuid: BluetoothUUID(0x2901))])!)),
        ("06 01 00 ff ff 00 28 0d 18", .findByTypeValueRequest(ATTFindByTypeValueRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeType: 0x2800, attributeValue: [0x0d, 0x18]))),
        ("07 01 00 05 00 06 00 ff ff", .findByTypeValueResponse(ATTFindByTypeValueResponse(handlesInformationList: [
            .init(foundAttributeHandle: 1, groupEndHandle: 5), .init(foundAttributeHandle: 6, groupEndHandle: 0xFFFF)]))),
        ("08 01 00 ff ff 03 28", .readByTypeRequest(ATTReadByTypeRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeType: BluetoothUUID(0x2803)))),
        ("08 01 00 ff ff ab 89 67 45 23 01 ef 9d bc 4a 34 12 ef be 00 00", .readByTypeRequest(ATTReadByTypeRequest(
            startingHandle: 1, endingHandle: 0xFFFF, attributeType: BluetoothUUID("0000BEEF-1234-4ABC-9DEF-0123456789AB")!))),
        ("09 07 02 00 02 03 00 00 2a 04 00 02 05 00 01 2a", .readByTypeResponse(ATTReadByTypeResponse(attributeDataList: [
            .init(attributeHandle: 2, attributeValue: [0x02, 0x03, 0x00, 0x00, 0x2a]),
            .init(attributeHandle: 4, attributeValue: [0x02, 0x05, 0x00, 0x01, 0x2a])])!)),
        ("0a 03 00", .readRequest(ATTReadRequest(attributeHandle: 3))),
        ("0b 41 42 43", .readResponse(ATTReadResponse(attributeValue: [0x41, 0x42, 0x43]))),
        ("0c 03 00 16 00", .readBlobRequest(ATTReadBlobRequest(attributeHandle: 3, valueOffset: 22))),
        ("0d 44 45", .readBlobResponse(ATTReadBlobResponse(partAttributeValue: [0x44, 0x45]))),
        ("0e 03 00 05 00", .readMultipleRequest(ATTReadMultipleRequest(setOfHandles: [3, 5]))),
        ("0f 01 02 03", .readMultipleResponse(ATTReadMultipleResponse(setOfValues: [1, 2, 3]))),
        ("10 01 00 ff ff 00 28", .readByGroupTypeRequest(ATTReadByGroupTypeRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeGroupType: BluetoothUUID(0x2800)))),
        ("11 06 01 00 05 00 00 18 06 00 09 00 0f 18", .readByGroupTypeResponse(ATTReadByGroupTypeResponse(attributeDataList: [
            .init(attributeHandle: 1, endGroupHandle: 5, attributeValue: [0x00, 0x18]),
            .init(attributeHandle: 6, endGroupHandle: 9, attributeValue: [0x0f, 0x18])])!)),
        ("12 0f 00 01 00", .writeRequest(ATTWriteRequest(attributeHandle: 0x000F, attributeValue: [0x01, 0x00]))),
        ("13", .writeResponse(ATTWriteResponse())),
        ("16 10 00 04 00 01 02", .prepareWriteRequest(ATTPrepareWriteRequest(attributeHandle: 0x10, valueOffset: 4, partAttributeValue: [1, 2]))),
        ("17 10 00 04 00 01 02", .prepareWriteResponse(ATTPrepareWriteResponse(attributeHandle: 0x10, valueOffset: 4, partAttributeValue: [1, 2]))),
        ("18 01", .executeWriteRequest(ATTExecuteWriteRequest(flags: .writeAllPendingPreparedValues))),
        ("18 00", .executeWriteRequest(ATTExecuteWriteRequest(flags: .cancelAllPreparedWrites))),
        ("19", .executeWriteResponse(ATTExecuteWriteResponse())),
        ("1b 0e 00 2a", .handleValueNotification(ATTHandleValueNotification(attributeHandle: 0x000E, attributeValue: [0x2a]))),
        ("1d 0e 00 01 02", .handleValueIndication(ATTHandleValueIndication(attributeHandle: 0x000E, attributeValue: [1, 2]))),
        ("1e", .handleValueConfirmation(ATTHandleValueConfirmation())),
        ("20 03 00 05 00", .readMultipleVariableRequest(ATTReadMultipleVariableRequest(setOfHandles: [3, 5]))),
        ("21 02 00 01 02 01 00 03", .readMultipleVariableResponse(ATTReadMultipleVariableResponse(lengthValueTupleList: [
            .init(attributeValue: [1, 2]), .init(attributeValue: [3])]))),
        ("23 0e 00 01 00 2a 10 00 02 00 01 02", .multipleHandleValueNotification(ATTMultipleHandleValueNotification(handleLengthValueTupleList: [
            .init(attributeHandle: 0x0E, attributeValue: [0x2a]), .init(attributeHandle: 0x10, attributeValue: [1, 2])]))),
        ("52 10 00 01 02", .writeCommand(ATTWriteCommand(attributeHandle: 0x10, attributeValue: [1, 2]))),
        ("d2 10 00 07 a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 aa ab", .signedWriteCommand(ATTSignedWriteCommand(attributeHandle: 0x10, attributeValue: [7], authenticationSignature: signature)!)),
    ]

    @Test(arguments: 0..<vectors.count) func encodeAndDecode(index: Int) throws {
        let (text, pdu) = Self.vectors[index]
        #expect(pdu.bytes == hex(text))
        #expect(try ATTPDU(bytes: hex(text)) == pdu)
        #expect(pdu.opcode.rawValue == hex(text).first)
    }

    @Test func everyOpcodeHasAVector() {
        let opcodes = Set(Self.vectors.map(\.1.opcode.rawValue))
        #expect(opcodes == [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11,
                            0x12, 0x13, 0x16, 0x17, 0x18, 0x19, 0x1B, 0x1D, 0x1E, 0x20, 0x21, 0x23, 0x52, 0xD2])
    }

    /// Field case G3: Find Information Response, format 2.
    @Test func g3FindInformation128() throws {
        let response = try ATTFindInformationResponse(bytes: hex("05 02 0e 00 ab 89 67 45 23 01 ef 9d bc 4a 34 12 ef be 00 00"))
        #expect(response.format == .uuid128)
        #expect(response.entries.count == 1)
        #expect(response.entries.first?.handle == 0x000E)
        #expect(response.entries.first?.uuid.uuidString128 == "0000BEEF-1234-4ABC-9DEF-0123456789AB")
    }

    @Test func readMultipleVariableCutFinalTuple() throws {
        let response = try ATTReadMultipleVariableResponse(bytes: hex("21 02 00 01 02 05 00 03 04"))
        #expect(response.lengthValueTupleList == [.init(valueLength: 2, attributeValue: [1, 2]), .init(valueLength: 5, attributeValue: [3, 4])])
        #expect(response.lengthValueTupleList.last?.isTruncated == true)
    }

    @Test func opcodeBits() {
        #expect(ATTOpcode.signedWriteCommand.isCommand && ATTOpcode.signedWriteCommand.hasAuthenticationSignature)
        #expect(ATTOpcode.signedWriteCommand.method == 0x12 && ATTOpcode.writeCommand.method == 0x12)
        #expect(ATTOpcode.writeCommand.isCommand && !ATTOpcode.writeCommand.hasAuthenticationSignature)
        #expect(!ATTOpcode.writeRequest.isCommand)
        #expect(ATTOpcode.readByTypeRequest.name == "ATT_READ_BY_TYPE_REQ")
        #expect(ATTOpcode.readByTypeRequest.responseOpcode == .readByTypeResponse)
        #expect(ATTOpcode.handleValueIndication.kind == .indication)
        #expect(ATTOpcode(rawValue: 0x3F).kind == .unknown)
    }
}
