// Malformed ATT PDUs give typed errors naming the PDU, the field and the offset.

import OCBATT
import Testing

@Suite struct ATTMalformedPDUTests {
    func error(_ text: String) -> ATTDecodingError? {
        do { _ = try ATTPDU(bytes: hex(text)); return nil } catch { return error }
    }

    @Test func findInformationFormats() {
        #expect(error("05 03 0e 00 02 29") == ATTDecodingError(opcode: .findInformationResponse, field: "Format", offset: 1, reason: .reservedValue(3)))
        #expect(error("05 00 0e 00 02 29") == ATTDecodingError(opcode: .findInformationResponse, field: "Format", offset: 1, reason: .reservedValue(0)))
        #expect(error("05 01 0e 00 02") == ATTDecodingError(opcode: .findInformationResponse, field: "Information Data", offset: 2,
                                                            reason: .notAWholeNumberOfEntries(entryLength: 4, bodyLength: 3)))
        // A format-2 body of 4-byte entries: 4 bytes are not one 18-byte entry.
        #expect(error("05 02 0e 00 02 29") == ATTDecodingError(opcode: .findInformationResponse, field: "Information Data", offset: 2,
                                                               reason: .notAWholeNumberOfEntries(entryLength: 18, bodyLength: 4)))
        #expect(error("05 01")?.reason == .tooFewEntries(minimum: 1, actual: 0))
    }

    @Test func lengthPrefixedLists() {
        #expect(error("09 00 01 00") == ATTDecodingError(opcode: .readByTypeResponse, field: "Length", offset: 1, reason: .invalidEntryLength(0)))
        #expect(error("09 01 01") == ATTDecodingError(opcode: .readByTypeResponse, field: "Length", offset: 1, reason: .invalidEntryLength(1)))
        #expect(error("09 04 01 00 02") == ATTDecodingError(opcode: .readByTypeResponse, field: "Attribute Data List", offset: 2,
                                                            reason: .notAWholeNumberOfEntries(entryLength: 4, bodyLength: 3)))
        #expect(error("11 03 01 00 05") == ATTDecodingError(opcode: .readByGroupTypeResponse, field: "Length", offset: 1, reason: .invalidEntryLength(3)))
        #expect(error("11 06 01 00 05 00 00 18 06") == ATTDecodingError(opcode: .readByGroupTypeResponse, field: "Attribute Data List", offset: 2,
                                                                        reason: .notAWholeNumberOfEntries(entryLength: 6, bodyLength: 7)))
        #expect(error("07 01 00 05") == ATTDecodingError(opcode: .findByTypeValueResponse, field: "Handles Information List", offset: 1,
                                                         reason: .notAWholeNumberOfEntries(entryLength: 4, bodyLength: 3)))
    }

    @Test func wrongLengths() {
        #expect(error("02 05") == ATTDecodingError(opcode: .exchangeMTURequest, field: "Client Rx MTU", offset: 1, reason: .truncated(needed: 2, available: 1)))
        #expect(error("13 00") == ATTDecodingError(opcode: .writeResponse, field: "end of PDU", offset: 1, reason: .trailingBytes(count: 1)))
        #expect(error("01 0a 05 00") == ATTDecodingError(opcode: .errorResponse, field: "Error Code", offset: 4, reason: .truncated(needed: 1, available: 0)))
        #expect(error("0a 03") == ATTDecodingError(opcode: .readRequest, field: "Attribute Handle", offset: 1, reason: .truncated(needed: 2, available: 1)))
        #expect(error("08 01 00 ff ff 03 28 00") == ATTDecodingError(opcode: .readByTypeRequest, field: "Attribute Type", offset: 5, reason: .invalidUUIDLength(3)))
        #expect(error("0e 03 00") == ATTDecodingError(opcode: .readMultipleRequest, field: "Set Of Handles", offset: 1, reason: .tooFewEntries(minimum: 2, actual: 1)))
        #expect(error("d2 10 00 01 02") == ATTDecodingError(opcode: .signedWriteCommand, field: "Authentication Signature", offset: 3,
                                                            reason: .truncated(needed: 12, available: 2)))
        #expect(error("23 0e 00 05 00 01") == ATTDecodingError(opcode: .multipleHandleValueNotification, field: "Attribute Value", offset: 5,
                                                               reason: .truncated(needed: 5, available: 1)))
        #expect(error("18 02") == ATTDecodingError(opcode: .executeWriteRequest, field: "Flags", offset: 1, reason: .reservedValue(2)))
    }

    @Test func unknownAndEmpty() {
        #expect(error("3f 00")?.reason == .unknownOpcode)
        #expect(error("")?.reason == .empty)
        #expect(throws: ATTDecodingError(opcode: .readRequest, field: "Attribute Opcode", offset: 0, reason: .unexpectedOpcode(.readResponse))) {
            try ATTReadRequest(bytes: hex("0b 01"))
        }
    }
}
