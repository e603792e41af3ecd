// Data length and PHY commands: LE Set/Read data lengths, LE Set/Read PHY, LE Set Default PHY.

import OCBCore

/// HCI LE Set Data Length (Core v5.4 Vol 4 Part E §7.8.33): Connection_Handle (2), TX_Octets (2, 0x001B...0x00FB),
/// TX_Time (2, µs, 0x0148...0x4290); returns Connection_Handle.
public struct HCILESetDataLength: HCICommand {
    /// 0x2022 (OGF 0x08 LE Controller, OCF 0x0022).
    public static let opcode = HCIOpcode.leSetDataLength
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// TX_Octets: preferred maximum LL payload, bytes.
    public var txOctets: UInt16
    /// TX_Time: preferred maximum transmit time, microseconds.
    public var txTime: UInt16
    /// Makes the command (defaults: 251 bytes, 2120 µs).
    public init(handle: ConnectionHandle, txOctets: UInt16 = 251, txTime: UInt16 = 2120) {
        self.handle = handle
        self.txOctets = txOctets
        self.txTime = txTime
    }
    /// The 6 bytes: Connection_Handle (cut to 12 bits), TX_Octets, TX_Time, all little-endian. Values are sent as
    /// given; the controller rejects ones outside the ranges above.
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 6)
        writer.write(handle)
        writer.write(txOctets)
        writer.write(txTime)
        return writer.bytes
    }
    /// Decodes Connection_Handle.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> ConnectionHandle {
        try decodeHandle(bytes, command: opcode)
    }
}

/// The data lengths of LE Read Maximum Data Length (Core v5.4 Vol 4 Part E §7.8.46): octets in bytes, times in µs.
public struct LEMaximumDataLength: Hashable, Sendable {
    /// Supported_Max_TX_Octets.
    public var maxTxOctets: UInt16
    /// Supported_Max_TX_Time, µs.
    public var maxTxTime: UInt16
    /// Supported_Max_RX_Octets.
    public var maxRxOctets: UInt16
    /// Supported_Max_RX_Time, µs.
    public var maxRxTime: UInt16
    /// Makes the value from its fields.
    public init(maxTxOctets: UInt16, maxTxTime: UInt16, maxRxOctets: UInt16, maxRxTime: UInt16) {
        self.maxTxOctets = maxTxOctets
        self.maxTxTime = maxTxTime
        self.maxRxOctets = maxRxOctets
        self.maxRxTime = maxRxTime
    }
}

/// HCI LE Read Maximum Data Length (Core v5.4 Vol 4 Part E §7.8.46): returns four 2-byte values (TX octets, TX time,
/// RX octets, RX time).
public struct HCILEReadMaximumDataLength: HCICommand {
    /// 0x202F (OGF 0x08 LE Controller, OCF 0x002F).
    public static let opcode = HCIOpcode.leReadMaximumDataLength
    /// Makes the command.
    public init() {}
    /// No parameter bytes.
    public var parameters: [UInt8] { [] }
    /// Decodes the 8 bytes after Status. Throws ``HCIEventDecodingError`` naming the first field that is short;
    /// extra bytes are ignored.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> LEMaximumDataLength {
        var reader = FieldReader(bytes, event: opcode.name)
        return LEMaximumDataLength(maxTxOctets: try reader.u16("Supported_Max_TX_Octets"), maxTxTime: try reader.u16("Supported_Max_TX_Time"),
                                   maxRxOctets: try reader.u16("Supported_Max_RX_Octets"), maxRxTime: try reader.u16("Supported_Max_RX_Time"))
    }
}

/// The suggested default data length (Core v5.4 Vol 4 Part E §7.8.34/35): octets in bytes, time in µs.
public struct LESuggestedDefaultDataLength: Hashable, Sendable {
    /// Suggested_Max_TX_Octets (0x001B...0x00FB).
    public var maxTxOctets: UInt16
    /// Suggested_Max_TX_Time, µs (0x0148...0x4290).
    public var maxTxTime: UInt16
    /// Makes the value.
    public init(maxTxOctets: UInt16, maxTxTime: UInt16) {
        self.maxTxOctets = maxTxOctets
        self.maxTxTime = maxTxTime
    }
}

/// HCI LE Read Suggested Default Data Length (Core v5.4 Vol 4 Part E §7.8.34): returns Suggested_Max_TX_Octets (2),
/// Suggested_Max_TX_Time (2).
public struct HCILEReadSuggestedDefaultDataLength: HCICommand {
    /// 0x2023 (OGF 0x08 LE Controller, OCF 0x0023).
    public static let opcode = HCIOpcode.leReadSuggestedDefaultDataLength
    /// Makes the command.
    public init() {}
    /// No parameter bytes.
    public var parameters: [UInt8] { [] }
    /// Decodes the 4 bytes after Status. Throws ``HCIEventDecodingError`` naming the first field that is short;
    /// extra bytes are ignored.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> LESuggestedDefaultDataLength {
        var reader = FieldReader(bytes, event: opcode.name)
        return LESuggestedDefaultDataLength(maxTxOctets: try reader.u16("Suggested_Max_TX_Octets"), maxTxTime: try reader.u16("Suggested_Max_TX_Time"))
    }
}

/// HCI LE Write Suggested Default Data Length (Core v5.4 Vol 4 Part E §7.8.35): Suggested_Max_TX_Octets (2),
/// Suggested_Max_TX_Time (2, µs); Status only.
public struct HCILEWriteSuggestedDefaultDataLength: HCICommand {
    /// 0x2024 (OGF 0x08 LE Controller, OCF 0x0024).
    public static let opcode = HCIOpcode.leWriteSuggestedDefaultDataLength
    /// The values to write.
    public var length: LESuggestedDefaultDataLength
    /// Makes the command.
    public init(_ length: LESuggestedDefaultDataLength) { self.length = length }
    /// The 4 bytes: Suggested_Max_TX_Octets, Suggested_Max_TX_Time, little-endian.
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 4)
        writer.write(length.maxTxOctets)
        writer.write(length.maxTxTime)
        return writer.bytes
    }
}

/// HCI LE Read PHY (Core v5.4 Vol 4 Part E §7.8.47): Connection_Handle (2); returns Connection_Handle (2), TX_PHY (1), RX_PHY (1).
public struct HCILEReadPHY: HCICommand {
    /// Return parameters after Status.
    public struct ReturnParameters: Hashable, Sendable {
        /// Connection_Handle.
        public var handle: ConnectionHandle
        /// The transmitter PHY.
        public var txPHY: LEPHY
        /// The receiver PHY.
        public var rxPHY: LEPHY
        /// Makes the value from its fields.
        public init(handle: ConnectionHandle, txPHY: LEPHY, rxPHY: LEPHY) {
            self.handle = handle
            self.txPHY = txPHY
            self.rxPHY = rxPHY
        }
    }
    /// 0x2030 (OGF 0x08 LE Controller, OCF 0x0030).
    public static let opcode = HCIOpcode.leReadPHY
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Makes the command.
    public init(handle: ConnectionHandle) { self.handle = handle }
    /// The 2 bytes of Connection_Handle, little-endian, cut to 12 bits.
    public var parameters: [UInt8] { handle.fieldBytes }
    /// Decodes the 4 bytes after Status: Connection_Handle (12 bits kept), TX_PHY, RX_PHY (0x01 LE 1M, 0x02 LE 2M,
    /// 0x03 LE Coded; other values kept). Throws ``HCIEventDecodingError`` naming the first field that is short.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> ReturnParameters {
        var reader = FieldReader(bytes, event: opcode.name)
        return ReturnParameters(handle: try reader.handle(), txPHY: LEPHY(rawValue: try reader.u8("TX_PHY")),
                                rxPHY: LEPHY(rawValue: try reader.u8("RX_PHY")))
    }
}

/// HCI LE Set Default PHY (Core v5.4 Vol 4 Part E §7.8.48): All_PHYs (1), TX_PHYs (1), RX_PHYs (1); Status only.
///
/// All_PHYs bit 0: no TX preference (TX_PHYs ignored); bit 1: no RX preference.
public struct HCILESetDefaultPHY: HCICommand {
    /// 0x2031 (OGF 0x08 LE Controller, OCF 0x0031).
    public static let opcode = HCIOpcode.leSetDefaultPHY
    /// All_PHYs bits.
    public var allPHYs: UInt8
    /// Preferred transmitter PHYs.
    public var txPHYs: LEPHYSet
    /// Preferred receiver PHYs.
    public var rxPHYs: LEPHYSet
    /// Makes the command.
    public init(txPHYs: LEPHYSet, rxPHYs: LEPHYSet, allPHYs: UInt8 = 0) {
        self.allPHYs = allPHYs
        self.txPHYs = txPHYs
        self.rxPHYs = rxPHYs
    }
    /// The 3 bytes: All_PHYs, TX_PHYs, RX_PHYs (bit 0 LE 1M, bit 1 LE 2M, bit 2 LE Coded).
    public var parameters: [UInt8] { [allPHYs, txPHYs.rawValue, rxPHYs.rawValue] }
}

/// HCI LE Set PHY (Core v5.4 Vol 4 Part E §7.8.49): Connection_Handle (2), All_PHYs (1), TX_PHYs (1), RX_PHYs (1),
/// PHY_Options (2: 0 no preference, 1 S=2, 2 S=8 coding); answered by Command Status, completed by LE PHY Update Complete.
public struct HCILESetPHY: HCICommand {
    /// 0x2032 (OGF 0x08 LE Controller, OCF 0x0032).
    public static let opcode = HCIOpcode.leSetPHY
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// All_PHYs bits.
    public var allPHYs: UInt8
    /// Preferred transmitter PHYs.
    public var txPHYs: LEPHYSet
    /// Preferred receiver PHYs.
    public var rxPHYs: LEPHYSet
    /// PHY_Options.
    public var phyOptions: UInt16
    /// Makes the command.
    public init(handle: ConnectionHandle, txPHYs: LEPHYSet, rxPHYs: LEPHYSet, allPHYs: UInt8 = 0, phyOptions: UInt16 = 0) {
        self.handle = handle
        self.allPHYs = allPHYs
        self.txPHYs = txPHYs
        self.rxPHYs = rxPHYs
        self.phyOptions = phyOptions
    }
    /// The 7 bytes: Connection_Handle (cut to 12 bits), All_PHYs, TX_PHYs, RX_PHYs, PHY_Options, little-endian.
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 7)
        writer.write(handle)
        writer.write(allPHYs)
        writer.write(txPHYs.rawValue)
        writer.write(rxPHYs.rawValue)
        writer.write(phyOptions)
        return writer.bytes
    }
}
