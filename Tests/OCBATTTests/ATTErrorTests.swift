// Every ATT error code with its spec name (Core v5.4 Vol 3 Part F §3.4.1.1; Supplement Part B §1.2).

import OCBATT
import Testing

@Suite struct ATTErrorTests {
    @Test func namedCodes() {
        let names = ["Invalid Handle", "Read Not Permitted", "Write Not Permitted", "Invalid PDU", "Insufficient Authentication",
                     "Request Not Supported", "Invalid Offset", "Insufficient Authorization", "Prepare Queue Full", "Attribute Not Found",
                     "Attribute Not Long", "Encryption Key Size Too Short", "Invalid Attribute Value Length", "Unlikely Error",
                     "Insufficient Encryption", "Unsupported Group Type", "Insufficient Resources", "Database Out Of Sync", "Value Not Allowed"]
        for (index, name) in names.enumerated() {
            let code = UInt8(index + 1)
            #expect(ATTError(rawValue: code).description == name)
            #expect(ATTError(rawValue: code).rawValue == code)
        }
        #expect(ATTError(rawValue: 0x0A) == .attributeNotFound)
        #expect(ATTError(rawValue: 0x13) == .valueNotAllowed)
    }

    @Test func applicationCommonAndReserved() {
        #expect(ATTError(rawValue: 0x80) == .application(0x80))
        #expect(ATTError(rawValue: 0x9F) == .application(0x9F))
        #expect(ATTError(rawValue: 0x9F).rawValue == 0x9F)
        #expect(ATTError(rawValue: 0xFC) == .writeRequestRejected)
        #expect(ATTError(rawValue: 0xFD).description == "Client Characteristic Configuration Descriptor Improperly Configured")
        #expect(ATTError(rawValue: 0xFE).description == "Procedure Already in Progress")
        #expect(ATTError(rawValue: 0xFF).description == "Out of Range")
        #expect(ATTError(rawValue: 0xFF).rawValue == 0xFF)
        #expect(ATTError(rawValue: 0x14) == .reserved(0x14))
        #expect(ATTError(rawValue: 0xA0) == .reserved(0xA0))
        #expect(ATTError(rawValue: 0x00) == .reserved(0x00))
    }
}
