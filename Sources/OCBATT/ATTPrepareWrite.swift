// ATT_PREPARE_WRITE_REQ and ATT_PREPARE_WRITE_RSP: queueing part of a long write.

import OCBCore

/// ATT_PREPARE_WRITE_REQ (Core v5.4 Vol 3 Part F §3.4.6.1).
///
/// Layout: Opcode 0x16, Attribute Handle (2), Value Offset (2, bytes), Part Attribute Value (0 to ATT_MTU - 5 bytes).
public struct ATTPrepareWriteRequest: ATTRequestPDU, ATTPreparedValueLayout {
    /// 0x16, ATT_PREPARE_WRITE_REQ.
    public static let opcode = ATTOpcode.prepareWriteRequest
    /// The handle to write.
    public var attributeHandle: AttributeHandle
    /// Offset of the first byte of the part, in bytes.
    public var valueOffset: UInt16
    /// The part of the value.
    public var partAttributeValue: [UInt8]

    /// Makes the PDU.
    public init(attributeHandle: AttributeHandle, valueOffset: UInt16, partAttributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.valueOffset = valueOffset
        self.partAttributeValue = partAttributeValue
    }
}

/// ATT_PREPARE_WRITE_RSP (Core v5.4 Vol 3 Part F §3.4.6.2).
///
/// Layout: Opcode 0x17, Attribute Handle (2), Value Offset (2), Part Attribute Value (echoing the request).
/// Comparing the echo with the request (§3.4.6.1) is the GATT client's job.
public struct ATTPrepareWriteResponse: ATTPreparedValueLayout {
    /// 0x17, ATT_PREPARE_WRITE_RSP.
    public static let opcode = ATTOpcode.prepareWriteResponse
    /// The handle written.
    public var attributeHandle: AttributeHandle
    /// The offset, in bytes.
    public var valueOffset: UInt16
    /// The part as the server queued it.
    public var partAttributeValue: [UInt8]

    /// Makes the PDU.
    public init(attributeHandle: AttributeHandle, valueOffset: UInt16, partAttributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.valueOffset = valueOffset
        self.partAttributeValue = partAttributeValue
    }
}
