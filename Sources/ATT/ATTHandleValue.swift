// ATT_HANDLE_VALUE_NTF, ATT_HANDLE_VALUE_IND and ATT_HANDLE_VALUE_CFM: server-initiated values.

import BluetoothCore

/// ATT_HANDLE_VALUE_NTF (Core v5.4 Vol 3 Part F §3.4.7.1).
///
/// Layout: Opcode 0x1B, Attribute Handle (2), Attribute Value (the rest).
public struct ATTHandleValueNotification: ATTPDUCoding {
    public static let opcode = ATTOpcode.handleValueNotification
    /// The handle of the notified value.
    public var attributeHandle: UInt16
    /// The value, 0 to ATT_MTU - 3 bytes.
    public var attributeValue: [UInt8]

    /// Makes the PDU.
    public init(attributeHandle: UInt16, attributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
    }

    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        attributeHandle = try reader.uint16("Attribute Handle")
        attributeValue = reader.rest()
    }

    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 3 + attributeValue.count)
        writer.write(Self.opcode.rawValue)
        writer.write(attributeHandle)
        writer.write(contentsOf: attributeValue)
        return writer.bytes
    }
}

/// ATT_HANDLE_VALUE_IND (Core v5.4 Vol 3 Part F §3.4.7.2).
///
/// Layout: Opcode 0x1D, Attribute Handle (2), Attribute Value (the rest).
public struct ATTHandleValueIndication: ATTPDUCoding {
    public static let opcode = ATTOpcode.handleValueIndication
    /// The handle of the indicated value.
    public var attributeHandle: UInt16
    /// The value, 0 to ATT_MTU - 3 bytes.
    public var attributeValue: [UInt8]

    /// Makes the PDU.
    public init(attributeHandle: UInt16, attributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
    }

    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        attributeHandle = try reader.uint16("Attribute Handle")
        attributeValue = reader.rest()
    }

    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 3 + attributeValue.count)
        writer.write(Self.opcode.rawValue)
        writer.write(attributeHandle)
        writer.write(contentsOf: attributeValue)
        return writer.bytes
    }
}

/// ATT_HANDLE_VALUE_CFM (Core v5.4 Vol 3 Part F §3.4.7.3).
///
/// Layout: Opcode 0x1E (1 byte).
public struct ATTHandleValueConfirmation: ATTPDUCoding {
    public static let opcode = ATTOpcode.handleValueConfirmation

    /// Makes the PDU.
    public init() {}

    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        let reader = try ATTPDUReader(bytes, opcode: Self.opcode)
        try reader.end()
    }

    public var bytes: [UInt8] {
        [Self.opcode.rawValue]
    }
}
