// ATT_SIGNED_WRITE_CMD: a write command with a 12-byte authentication signature.

import OCBCore

/// ATT_SIGNED_WRITE_CMD (Core v5.4 Vol 3 Part F §3.4.5.4).
///
/// Layout: Opcode 0xD2, Attribute Handle (2), Attribute Value (0 to ATT_MTU - 15 bytes),
/// Authentication Signature (12 bytes, Vol 3 Part H §2.4.5). Decoding throws when fewer than 14 bytes follow the opcode.
public struct ATTSignedWriteCommand: ATTCommandPDU {
    /// 0xD2, ATT_SIGNED_WRITE_CMD (Authentication Signature Flag, Command Flag and method 0x12).
    public static let opcode = ATTOpcode.signedWriteCommand
    /// Length of the Authentication Signature, in bytes.
    public static let signatureLength = 12
    /// The handle to write.
    public var attributeHandle: AttributeHandle
    /// The value.
    public var attributeValue: [UInt8]
    /// The 12-byte signature (SignCounter then MAC).
    public var authenticationSignature: [UInt8]

    /// Makes the PDU; nil unless `authenticationSignature` is 12 bytes.
    public init?(attributeHandle: AttributeHandle, attributeValue: [UInt8], authenticationSignature: [UInt8]) {
        guard authenticationSignature.count == Self.signatureLength else { return nil }
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
        self.authenticationSignature = authenticationSignature
    }

    /// Decodes the PDU: the last 12 bytes are the signature, the bytes between handle and signature the value.
    /// Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0xD2) or `.truncated` (fewer than 15
    /// bytes). The signature is not verified here.
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        attributeHandle = try reader.handle("Attribute Handle")
        let valueLength = reader.remaining - Self.signatureLength
        guard valueLength >= 0 else {
            throw reader.fail("Authentication Signature", .truncated(needed: Self.signatureLength, available: reader.remaining))
        }
        attributeValue = try reader.bytes(valueLength, "Attribute Value")
        authenticationSignature = reader.rest()
    }

    /// 15 + value-length bytes: 0xD2, Attribute Handle (little-endian), Attribute Value, Authentication Signature.
    public var bytes: [UInt8] { [Self.opcode.rawValue, UInt8(truncatingIfNeeded: attributeHandle.rawValue), UInt8(truncatingIfNeeded: attributeHandle.rawValue >> 8)] + attributeValue + authenticationSignature }
}
