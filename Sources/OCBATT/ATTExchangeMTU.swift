// ATT_EXCHANGE_MTU_REQ and ATT_EXCHANGE_MTU_RSP: each side's receive MTU.

import OCBCore

/// ATT_EXCHANGE_MTU_REQ (Core v5.4 Vol 3 Part F §3.4.2.1).
///
/// Layout (3 bytes): Opcode 0x02, Client Rx MTU (2, bytes: the largest ATT PDU the client can receive).
public struct ATTExchangeMTURequest: ATTPDUCoding {
    /// 0x02, ATT_EXCHANGE_MTU_REQ.
    public static let opcode = ATTOpcode.exchangeMTURequest
    /// The client's receive MTU, in bytes.
    public var clientRxMTU: UInt16

    /// Makes the PDU.
    public init(clientRxMTU: UInt16) { self.clientRxMTU = clientRxMTU }

    /// Decodes the 3-byte PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x02),
    /// `.truncated` (fewer than 3 bytes) or `.trailingBytes` (more). A Client Rx MTU below 23 is kept as received.
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        clientRxMTU = try reader.uint16("Client Rx MTU")
        try reader.end()
    }

    /// The 3 bytes: 0x02, Client Rx MTU (little-endian).
    public var bytes: [UInt8] { [Self.opcode.rawValue, UInt8(truncatingIfNeeded: clientRxMTU), UInt8(truncatingIfNeeded: clientRxMTU >> 8)] }
}

/// ATT_EXCHANGE_MTU_RSP (Core v5.4 Vol 3 Part F §3.4.2.2).
///
/// Layout (3 bytes): Opcode 0x03, Server Rx MTU (2, bytes: the largest ATT PDU the server can receive).
public struct ATTExchangeMTUResponse: ATTPDUCoding {
    /// 0x03, ATT_EXCHANGE_MTU_RSP.
    public static let opcode = ATTOpcode.exchangeMTUResponse
    /// The server's receive MTU, in bytes.
    public var serverRxMTU: UInt16

    /// Makes the PDU.
    public init(serverRxMTU: UInt16) { self.serverRxMTU = serverRxMTU }

    /// Decodes the 3-byte PDU. Throws ``ATTDecodingError``: `.empty`, `.unexpectedOpcode` (byte 0 not 0x03),
    /// `.truncated` (fewer than 3 bytes) or `.trailingBytes` (more). A Server Rx MTU below 23 is kept as received;
    /// the bearer uses min(Client Rx MTU, Server Rx MTU) and never less than 23 (§3.4.2.2).
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        serverRxMTU = try reader.uint16("Server Rx MTU")
        try reader.end()
    }

    /// The 3 bytes: 0x03, Server Rx MTU (little-endian).
    public var bytes: [UInt8] { [Self.opcode.rawValue, UInt8(truncatingIfNeeded: serverRxMTU), UInt8(truncatingIfNeeded: serverRxMTU >> 8)] }
}
