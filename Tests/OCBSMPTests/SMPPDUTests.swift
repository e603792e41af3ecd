// SMP PDUs decoded and encoded: the pairing PDUs of the specification's c1 example, key distribution, malformed input.
import OCBCore
import OCBSMP
import Testing

@Suite("SMP PDUs")
struct SMPPDUTests {
    @Test("the c1 example's preq and pres (Vol 3 Part H §2.2.3: 07071000000101, 05000800000302, most significant first)")
    func pairingRequestAndResponse() throws {
        // On the air least significant first: code 01, IO DisplayYesNo, no OOB, AuthReq 0, 16-byte keys, keys 07/07.
        let request = try SMPPDU(bytes: [0x01, 0x01, 0x00, 0x00, 0x10, 0x07, 0x07])
        let requested = SMPPairingFeatures(ioCapability: .displayYesNo, authenticationRequirements: [], maximumEncryptionKeySize: 16,
                                           initiatorKeyDistribution: [.encryptionKey, .identityKey, .signingKey],
                                           responderKeyDistribution: [.encryptionKey, .identityKey, .signingKey])
        #expect(request == .pairingRequest(requested))
        #expect(request.bytes.reversed() == [0x07, 0x07, 0x10, 0x00, 0x00, 0x01, 0x01])  // preq as c1 takes it
        // code 02, IO NoInputNoOutput, no OOB, AuthReq 0, 8-byte keys, initiator none, responder EncKey|SignKey.
        let response = try SMPPDU(bytes: [0x02, 0x03, 0x00, 0x00, 0x08, 0x00, 0x05])
        #expect(response == .pairingResponse(SMPPairingFeatures(ioCapability: .noInputNoOutput, authenticationRequirements: [],
                                                                maximumEncryptionKeySize: 8, initiatorKeyDistribution: [],
                                                                responderKeyDistribution: [.encryptionKey, .signingKey])))
        #expect(response.bytes == [0x02, 0x03, 0x00, 0x00, 0x08, 0x00, 0x05])
    }

    @Test("Secure Connections features: Bonding, MITM, SC, CT2 bits (AuthReq 0x2D)")
    func authenticationRequirements() throws {
        let pdu = try SMPPDU(bytes: [0x01, 0x04, 0x00, 0x2D, 0x10, 0x0B, 0x0B])
        guard case .pairingRequest(let features) = pdu else { Issue.record("\(pdu)"); return }
        #expect(features.authenticationRequirements == [.bonding, .mitm, .secureConnections, .ct2])
        #expect(features.ioCapability == .keyboardDisplay)
        #expect(features.initiatorKeyDistribution == [.encryptionKey, .identityKey, .linkKey])
    }

    @Test("key distribution PDUs round trip: identity address least significant first, EDIV little-endian, public key X then Y")
    func keyDistribution() throws {
        let address = try #require(BluetoothAddress("C1:A0:00:00:00:01"))
        let identity = SMPPDU.identityAddressInformation(type: 0x01, address: address)
        #expect(identity.bytes == [0x09, 0x01, 0x01, 0x00, 0x00, 0x00, 0xA0, 0xC1])
        #expect(try SMPPDU(bytes: identity.bytes) == identity)
        let central = SMPPDU.centralIdentification(ediv: 0x1234, rand: [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(central.bytes == [0x07, 0x34, 0x12, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(try SMPPDU(bytes: central.bytes) == central)
        let key = SMPPDU.pairingPublicKey(x: [UInt8](repeating: 0xAA, count: 32), y: [UInt8](repeating: 0xBB, count: 32))
        #expect(key.bytes.count == 65)
        #expect(try SMPPDU(bytes: key.bytes) == key)
        #expect(try SMPPDU(bytes: [0x05, 0x05]) == .pairingFailed(.pairingNotSupported))
        #expect(SMPPairingFailedReason.dhKeyCheckFailed.description == "0x0B DHKey Check Failed")
        #expect(try SMPPDU(bytes: [0x0B, 0x0D]) == .securityRequest([.bonding, .mitm, .secureConnections]))
    }

    @Test("malformed PDUs are typed errors: empty, an unknown code, a wrong length for the code")
    func malformed() {
        #expect(throws: SMPDecodingError.empty) { try SMPPDU(bytes: []) }
        #expect(throws: SMPDecodingError.unknownCode(0x0F)) { try SMPPDU(bytes: [0x0F, 0x00]) }
        #expect(throws: SMPDecodingError.wrongLength(.pairingRequest, got: 3, expected: 6)) { try SMPPDU(bytes: [0x01, 1, 2, 3]) }
        #expect(throws: SMPDecodingError.wrongLength(.pairingPublicKey, got: 63, expected: 64)) {
            try SMPPDU(bytes: [0x0C] + [UInt8](repeating: 0, count: 63))
        }
        // Every code with one byte too many or too few, and every length 0...70 of random-looking data: never a trap.
        for code in SMPCode.allCases {
            #expect(throws: SMPDecodingError.self) { try SMPPDU(bytes: [code.rawValue] + [UInt8](repeating: 0x5A, count: code.dataLength + 1)) }
        }
        for length in 0...70 {
            for first in [UInt8(0x00), 0x01, 0x0C, 0x0E, 0xFF] {
                _ = try? SMPPDU(bytes: [first] + (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37) })
            }
        }
    }
}
