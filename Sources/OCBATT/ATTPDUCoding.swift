// The protocols every ATT PDU type conforms to: coding, and the request and command roles.

/// An ATT PDU type that encodes to and decodes from its bytes (Core v5.4 Vol 3 Part F §3.3, §3.4).
///
/// The bytes are the whole PDU: Attribute Opcode (1 byte), then the parameters, as carried in an L2CAP
/// basic frame on CID 0x0004.
public protocol ATTPDUCoding: Hashable, Sendable {
    /// The PDU's Attribute Opcode.
    static var opcode: ATTOpcode { get }
    /// Decodes the PDU (opcode byte included). Throws ``ATTDecodingError`` naming the field and offset.
    init(bytes: [UInt8]) throws(ATTDecodingError)
    /// The PDU's bytes, opcode first.
    var bytes: [UInt8] { get }
}

/// A client request: exactly one is outstanding on a bearer, answered by its response or an Error Response (§3.3.2).
public protocol ATTRequestPDU: ATTPDUCoding {}

/// A command: sent at any time, never answered (§3.3.2, Command Flag set).
public protocol ATTCommandPDU: ATTPDUCoding {}
