// ATT_HANDLE_VALUE_NTF, ATT_HANDLE_VALUE_IND and ATT_HANDLE_VALUE_CFM: server-initiated values.

import OCBCore

/// ATT_HANDLE_VALUE_NTF (Core v5.4 Vol 3 Part F §3.4.7.1).
///
/// Layout: Opcode 0x1B, Attribute Handle (2), Attribute Value (the rest).
public struct ATTHandleValueNotification: ATTHandleValueLayout {
    /// 0x1B, ATT_HANDLE_VALUE_NTF.
    public static let opcode = ATTOpcode.handleValueNotification
    /// The handle of the notified value.
    public var attributeHandle: AttributeHandle
    /// The value, 0 to ATT_MTU - 3 bytes.
    public var attributeValue: [UInt8]

    /// Makes the PDU.
    public init(attributeHandle: AttributeHandle, attributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
    }
}

/// ATT_HANDLE_VALUE_IND (Core v5.4 Vol 3 Part F §3.4.7.2).
///
/// Layout: Opcode 0x1D, Attribute Handle (2), Attribute Value (the rest).
public struct ATTHandleValueIndication: ATTHandleValueLayout {
    /// 0x1D, ATT_HANDLE_VALUE_IND.
    public static let opcode = ATTOpcode.handleValueIndication
    /// The handle of the indicated value.
    public var attributeHandle: AttributeHandle
    /// The value, 0 to ATT_MTU - 3 bytes.
    public var attributeValue: [UInt8]

    /// Makes the PDU.
    public init(attributeHandle: AttributeHandle, attributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
    }
}

/// ATT_HANDLE_VALUE_CFM (Core v5.4 Vol 3 Part F §3.4.7.3).
///
/// Layout: Opcode 0x1E (1 byte).
public struct ATTHandleValueConfirmation: ATTOpcodeOnlyLayout {
    /// 0x1E, ATT_HANDLE_VALUE_CFM.
    public static let opcode = ATTOpcode.handleValueConfirmation

    /// Makes the PDU.
    public init() {}
}
