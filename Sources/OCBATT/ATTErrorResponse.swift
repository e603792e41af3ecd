// ATT_ERROR_RSP: the server's refusal of a request.

import OCBCore

/// ATT_ERROR_RSP (Core v5.4 Vol 3 Part F §3.4.1.1).
///
/// Layout (5 bytes): Opcode 0x01, Request Opcode In Error (1), Attribute Handle In Error (2), Error Code (1).
public struct ATTErrorResponse: ATTPDUCoding {
    /// 0x01, ATT_ERROR_RSP.
    public static let opcode = ATTOpcode.errorResponse
    /// The opcode of the request that failed.
    public var requestOpcode: ATTOpcode
    /// The handle the error concerns (0x0000 when none).
    public var attributeHandle: AttributeHandle
    /// The reason.
    public var error: ATTError

    /// Makes the PDU.
    public init(requestOpcode: ATTOpcode, attributeHandle: AttributeHandle, error: ATTError) {
        self.requestOpcode = requestOpcode
        self.attributeHandle = attributeHandle
        self.error = error
    }

    /// Decodes the 5-byte PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x01),
    /// `.truncated` (fewer than 5 bytes) or `.trailingBytes` (more). Any Request Opcode and Error Code value is kept,
    /// including reserved and application (0x80...0x9F) codes.
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        requestOpcode = ATTOpcode(rawValue: try reader.uint8("Request Opcode In Error"))
        attributeHandle = try reader.handle("Attribute Handle In Error")
        error = ATTError(rawValue: try reader.uint8("Error Code"))
        try reader.end()
    }

    /// The 5 bytes: 0x01, Request Opcode In Error, Attribute Handle In Error (little-endian), Error Code.
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 5)
        writer.write(Self.opcode.rawValue)
        writer.write(requestOpcode.rawValue)
        writer.write(attributeHandle)
        writer.write(error.rawValue)
        return writer.bytes
    }
}
