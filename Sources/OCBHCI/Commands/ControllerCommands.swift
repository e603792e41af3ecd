// Controller set-up commands: Reset, Set Event Mask and the Informational Parameters a host reads at start.

import OCBCore

/// HCI Reset (Core v5.4 Vol 4 Part E §7.3.2): no parameters; returns Status only.
public struct HCIReset: HCICommand {
    /// 0x0C03 (OGF 0x03 Controller & Baseband, OCF 0x0003).
    public static let opcode = HCIOpcode.reset
    /// Makes the command.
    public init() {}
    /// No parameter bytes.
    public var parameters: [UInt8] { [] }
}

/// HCI Set Event Mask (Core v5.4 Vol 4 Part E §7.3.1): Event_Mask (8 bytes, LE); returns Status only.
public struct HCISetEventMask: HCICommand {
    /// 0x0C01 (OGF 0x03 Controller & Baseband, OCF 0x0001).
    public static let opcode = HCIOpcode.setEventMask
    /// The events to enable.
    public var mask: EventMask
    /// Makes the command; the default is ``EventMask/central``.
    public init(mask: EventMask = .central) { self.mask = mask }
    /// The 8 bytes of Event_Mask, little-endian (bit n enables the event of §7.3.1's table, e.g. bit 61 LE Meta).
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 8)
        writer.write(mask.rawValue)
        return writer.bytes
    }
}

/// HCI Read Local Version Information (Core v5.4 Vol 4 Part E §7.4.1): no parameters.
public struct HCIReadLocalVersionInformation: HCICommand {
    /// Return parameters after Status: HCI_Version (1), HCI_Subversion (2), LMP_Version (1),
    /// Company_Identifier (2), LMP_Subversion (2). Versions are Assigned Numbers (0x0D = Core 5.4).
    public struct ReturnParameters: Hashable, Sendable {
        /// HCI_Version (Assigned Numbers; 0x09 = 5.0, 0x0D = 5.4).
        public var hciVersion: UInt8
        /// HCI_Subversion, vendor defined.
        public var hciSubversion: UInt16
        /// LMP_Version / LL version (Assigned Numbers).
        public var lmpVersion: UInt8
        /// Company_Identifier (Assigned Numbers).
        public var companyIdentifier: UInt16
        /// LMP_Subversion, vendor defined.
        public var lmpSubversion: UInt16
        /// Makes the value from its fields.
        public init(hciVersion: UInt8, hciSubversion: UInt16, lmpVersion: UInt8, companyIdentifier: UInt16, lmpSubversion: UInt16) {
            self.hciVersion = hciVersion
            self.hciSubversion = hciSubversion
            self.lmpVersion = lmpVersion
            self.companyIdentifier = companyIdentifier
            self.lmpSubversion = lmpSubversion
        }
    }
    /// 0x1001 (OGF 0x04 Informational Parameters, OCF 0x0001).
    public static let opcode = HCIOpcode.readLocalVersionInformation
    /// Makes the command.
    public init() {}
    /// No parameter bytes.
    public var parameters: [UInt8] { [] }
    /// Decodes the 8 bytes after Status (field offsets 0, 1, 3, 4, 6). Throws ``HCIEventDecodingError`` naming the
    /// first field that is short; bytes after LMP_Subversion are ignored.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> ReturnParameters {
        var reader = FieldReader(bytes, event: opcode.name)
        return ReturnParameters(hciVersion: try reader.u8("HCI_Version"), hciSubversion: try reader.u16("HCI_Subversion"),
                                lmpVersion: try reader.u8("LMP_Version"), companyIdentifier: try reader.u16("Company_Identifier"),
                                lmpSubversion: try reader.u16("LMP_Subversion"))
    }
}

/// HCI Read Local Supported Commands (Core v5.4 Vol 4 Part E §7.4.2): returns the 64-octet Supported_Commands bitmap.
public struct HCIReadLocalSupportedCommands: HCICommand {
    /// 0x1002 (OGF 0x04 Informational Parameters, OCF 0x0002).
    public static let opcode = HCIOpcode.readLocalSupportedCommands
    /// Makes the command.
    public init() {}
    /// No parameter bytes.
    public var parameters: [UInt8] { [] }
    /// Decodes Supported_Commands (64 bytes). Throws ``HCIEventDecodingError`` when fewer than 64 bytes follow Status.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> SupportedCommands {
        var reader = FieldReader(bytes, event: opcode.name)
        return SupportedCommands(bytes: try reader.bytes(64, "Supported_Commands"))
    }
}

/// HCI Read Local Supported Features (Core v5.4 Vol 4 Part E §7.4.3): returns LMP_Features (8 bytes, Vol 2 Part C §3.3).
public struct HCIReadLocalSupportedFeatures: HCICommand {
    /// 0x1003 (OGF 0x04 Informational Parameters, OCF 0x0003).
    public static let opcode = HCIOpcode.readLocalSupportedFeatures
    /// Makes the command.
    public init() {}
    /// No parameter bytes.
    public var parameters: [UInt8] { [] }
    /// Decodes LMP_Features as a 64-bit little-endian bit field (bit 38: LE Supported (Controller)).
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> UInt64 {
        var reader = FieldReader(bytes, event: opcode.name)
        return try reader.u64("LMP_Features")
    }
}

/// HCI Read BD_ADDR (Core v5.4 Vol 4 Part E §7.4.6): returns the public device address (6 bytes, wire order).
public struct HCIReadBDADDR: HCICommand {
    /// 0x1009 (OGF 0x04 Informational Parameters, OCF 0x0009).
    public static let opcode = HCIOpcode.readBDADDR
    /// Makes the command.
    public init() {}
    /// No parameter bytes.
    public var parameters: [UInt8] { [] }
    /// Decodes BD_ADDR; 00:00:00:00:00:00 means the controller has no public address.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> BluetoothAddress {
        var reader = FieldReader(bytes, event: opcode.name)
        return try reader.address("BD_ADDR")
    }
}

/// HCI Read Buffer Size (Core v5.4 Vol 4 Part E §7.4.5): the shared BR/EDR and LE ACL buffers,
/// used for LE when LE Read Buffer Size returns 0 (Vol 4 Part E §4.1).
public struct HCIReadBufferSize: HCICommand {
    /// Return parameters after Status: ACL_Data_Packet_Length (2), Synchronous_Data_Packet_Length (1),
    /// Total_Num_ACL_Data_Packets (2), Total_Num_Synchronous_Data_Packets (2).
    public struct ReturnParameters: Hashable, Sendable {
        /// Largest ACL data payload the controller accepts, bytes.
        public var aclDataPacketLength: UInt16
        /// Largest synchronous data payload, bytes.
        public var synchronousDataPacketLength: UInt8
        /// Number of ACL packets the controller can buffer.
        public var totalNumACLDataPackets: UInt16
        /// Number of synchronous packets the controller can buffer.
        public var totalNumSynchronousDataPackets: UInt16
        /// Makes the value from its fields.
        public init(aclDataPacketLength: UInt16, synchronousDataPacketLength: UInt8, totalNumACLDataPackets: UInt16, totalNumSynchronousDataPackets: UInt16) {
            self.aclDataPacketLength = aclDataPacketLength
            self.synchronousDataPacketLength = synchronousDataPacketLength
            self.totalNumACLDataPackets = totalNumACLDataPackets
            self.totalNumSynchronousDataPackets = totalNumSynchronousDataPackets
        }
    }
    /// 0x1005 (OGF 0x04 Informational Parameters, OCF 0x0005).
    public static let opcode = HCIOpcode.readBufferSize
    /// Makes the command.
    public init() {}
    /// No parameter bytes.
    public var parameters: [UInt8] { [] }
    /// Decodes the 7 bytes after Status. Throws ``HCIEventDecodingError`` naming the first field that is short;
    /// extra bytes are ignored.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> ReturnParameters {
        var reader = FieldReader(bytes, event: opcode.name)
        return ReturnParameters(aclDataPacketLength: try reader.u16("ACL_Data_Packet_Length"),
                                synchronousDataPacketLength: try reader.u8("Synchronous_Data_Packet_Length"),
                                totalNumACLDataPackets: try reader.u16("Total_Num_ACL_Data_Packets"),
                                totalNumSynchronousDataPackets: try reader.u16("Total_Num_Synchronous_Data_Packets"))
    }
}
