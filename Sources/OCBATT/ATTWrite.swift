// ATT_WRITE_REQ, ATT_WRITE_RSP and ATT_WRITE_CMD: writing one attribute value.

import OCBCore

/// ATT_WRITE_REQ (Core v5.4 Vol 3 Part F §3.4.5.1).
///
/// Layout: Opcode 0x12, Attribute Handle (2), Attribute Value (the rest).
public struct ATTWriteRequest: ATTRequestPDU, ATTHandleValueLayout {
    /// 0x12, ATT_WRITE_REQ.
    public static let opcode = ATTOpcode.writeRequest
    /// The handle to write.
    public var attributeHandle: AttributeHandle
    /// The value, 0 to ATT_MTU - 3 bytes.
    public var attributeValue: [UInt8]

    /// Makes the PDU.
    public init(attributeHandle: AttributeHandle, attributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
    }
}

/// ATT_WRITE_RSP (Core v5.4 Vol 3 Part F §3.4.5.2).
///
/// Layout: Opcode 0x13 (1 byte).
public struct ATTWriteResponse: ATTOpcodeOnlyLayout {
    /// 0x13, ATT_WRITE_RSP.
    public static let opcode = ATTOpcode.writeResponse

    /// Makes the PDU.
    public init() {}
}

/// ATT_WRITE_CMD (Core v5.4 Vol 3 Part F §3.4.5.3).
///
/// Layout: Opcode 0x52, Attribute Handle (2), Attribute Value (the rest).
public struct ATTWriteCommand: ATTCommandPDU, ATTHandleValueLayout {
    /// 0x52, ATT_WRITE_CMD (Command Flag set on method 0x12).
    public static let opcode = ATTOpcode.writeCommand
    /// The handle to write.
    public var attributeHandle: AttributeHandle
    /// The value, 0 to ATT_MTU - 3 bytes.
    public var attributeValue: [UInt8]

    /// Makes the PDU.
    public init(attributeHandle: AttributeHandle, attributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
    }
}
