// LE controller set-up commands: LE event mask, LE buffer sizes, LE features and the random address.

import OCBCore

/// HCI LE Set Event Mask (Core v5.4 Vol 4 Part E §7.8.1): LE_Event_Mask (8 bytes, LE); returns Status only.
public struct HCILESetEventMask: HCICommand {
    /// 0x2001 (OGF 0x08 LE Controller, OCF 0x0001).
    public static let opcode = HCIOpcode.leSetEventMask
    /// The LE subevents to enable.
    public var mask: LEEventMask
    /// Makes the command; the default is ``LEEventMask/central``.
    public init(mask: LEEventMask = .central) { self.mask = mask }
    /// The 8 bytes of LE_Event_Mask, little-endian (bit n enables LE subevent n + 1).
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 8)
        writer.write(mask.rawValue)
        return writer.bytes
    }
}

/// The LE buffer sizes (Core v5.4 Vol 4 Part E §7.8.2): from LE Read Buffer Size v1 or v2.
///
/// A zero ``leACLDataPacketLength`` or ``totalNumLEACLDataPackets`` means LE shares the BR/EDR buffers:
/// use Read Buffer Size instead (Vol 4 Part E §4.1).
public struct LEBufferSize: Hashable, Sendable {
    /// LE_ACL_Data_Packet_Length: largest LE ACL payload the controller accepts, bytes (0 = shared buffers).
    public var leACLDataPacketLength: UInt16
    /// Total_Num_LE_ACL_Data_Packets: LE ACL packets the controller can buffer (0 = shared buffers).
    public var totalNumLEACLDataPackets: UInt8
    /// ISO_Data_Packet_Length, bytes (v2 only).
    public var isoDataPacketLength: UInt16?
    /// Total_Num_ISO_Data_Packets (v2 only).
    public var totalNumISODataPackets: UInt8?

    /// Makes the value.
    public init(leACLDataPacketLength: UInt16, totalNumLEACLDataPackets: UInt8, isoDataPacketLength: UInt16? = nil, totalNumISODataPackets: UInt8? = nil) {
        self.leACLDataPacketLength = leACLDataPacketLength
        self.totalNumLEACLDataPackets = totalNumLEACLDataPackets
        self.isoDataPacketLength = isoDataPacketLength
        self.totalNumISODataPackets = totalNumISODataPackets
    }
}

/// HCI LE Read Buffer Size [v1] (Core v5.4 Vol 4 Part E §7.8.2): returns LE_ACL_Data_Packet_Length (2),
/// Total_Num_LE_ACL_Data_Packets (1).
public struct HCILEReadBufferSizeV1: HCICommand {
    /// 0x2002 (OGF 0x08 LE Controller, OCF 0x0002).
    public static let opcode = HCIOpcode.leReadBufferSizeV1
    /// Makes the command.
    public init() {}
    /// No parameter bytes.
    public var parameters: [UInt8] { [] }
    /// Decodes the 3 bytes after Status (ISO fields nil). Throws ``HCIEventDecodingError`` naming the first field that
    /// is short; extra bytes are ignored.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> LEBufferSize {
        var reader = FieldReader(bytes, event: opcode.name)
        return LEBufferSize(leACLDataPacketLength: try reader.u16("LE_ACL_Data_Packet_Length"),
                            totalNumLEACLDataPackets: try reader.u8("Total_Num_LE_ACL_Data_Packets"))
    }
}

/// HCI LE Read Buffer Size [v2] (Core v5.4 Vol 4 Part E §7.8.2): returns LE_ACL_Data_Packet_Length (2),
/// Total_Num_LE_ACL_Data_Packets (1), ISO_Data_Packet_Length (2), Total_Num_ISO_Data_Packets (1).
public struct HCILEReadBufferSizeV2: HCICommand {
    /// 0x2060 (OGF 0x08 LE Controller, OCF 0x0060).
    public static let opcode = HCIOpcode.leReadBufferSizeV2
    /// Makes the command.
    public init() {}
    /// No parameter bytes.
    public var parameters: [UInt8] { [] }
    /// Decodes the 6 bytes after Status. Throws ``HCIEventDecodingError`` naming the first field that is short;
    /// extra bytes are ignored.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> LEBufferSize {
        var reader = FieldReader(bytes, event: opcode.name)
        return LEBufferSize(leACLDataPacketLength: try reader.u16("LE_ACL_Data_Packet_Length"),
                            totalNumLEACLDataPackets: try reader.u8("Total_Num_LE_ACL_Data_Packets"),
                            isoDataPacketLength: try reader.u16("ISO_Data_Packet_Length"),
                            totalNumISODataPackets: try reader.u8("Total_Num_ISO_Data_Packets"))
    }
}

/// HCI LE Read Local Supported Features (Core v5.4 Vol 4 Part E §7.8.3): returns LE_Features (8 bytes, Vol 6 Part B §4.6).
public struct HCILEReadLocalSupportedFeatures: HCICommand {
    /// 0x2003 (OGF 0x08 LE Controller, OCF 0x0003).
    public static let opcode = HCIOpcode.leReadLocalSupportedFeatures
    /// Makes the command.
    public init() {}
    /// No parameter bytes.
    public var parameters: [UInt8] { [] }
    /// Decodes LE_Features, 8 bytes after Status as a little-endian 64-bit field (bit n = feature bit n of
    /// Vol 6 Part B §4.6). Throws ``HCIEventDecodingError`` when fewer than 8 bytes follow Status.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> LEFeatures {
        var reader = FieldReader(bytes, event: opcode.name)
        return LEFeatures(rawValue: try reader.u64("LE_Features"))
    }
}

/// HCI LE Set Random Address (Core v5.4 Vol 4 Part E §7.8.4): Random_Address (6 bytes, wire order); returns Status only.
public struct HCILESetRandomAddress: HCICommand {
    /// 0x2005 (OGF 0x08 LE Controller, OCF 0x0005).
    public static let opcode = HCIOpcode.leSetRandomAddress
    /// The random address to use when Own_Address_Type is random.
    public var address: BluetoothAddress
    /// Makes the command.
    public init(address: BluetoothAddress) { self.address = address }
    /// The 6 bytes of Random_Address, least significant byte first.
    public var parameters: [UInt8] { address.littleEndianBytes }
}

/// HCI LE Read Filter Accept List Size (Core v5.4 Vol 4 Part E §7.8.14): returns Filter_Accept_List_Size (1).
public struct HCILEReadFilterAcceptListSize: HCICommand {
    /// 0x200F (OGF 0x08 LE Controller, OCF 0x000F).
    public static let opcode = HCIOpcode.leReadFilterAcceptListSize
    /// Makes the command.
    public init() {}
    /// No parameter bytes.
    public var parameters: [UInt8] { [] }
    /// Decodes Filter_Accept_List_Size, the number of entries the list holds (1 byte after Status). Throws
    /// ``HCIEventDecodingError`` when nothing follows Status.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> UInt8 {
        var reader = FieldReader(bytes, event: opcode.name)
        return try reader.u8("Filter_Accept_List_Size")
    }
}

/// HCI LE Clear Filter Accept List (Core v5.4 Vol 4 Part E §7.8.15): no parameters; returns Status only.
public struct HCILEClearFilterAcceptList: HCICommand {
    /// 0x2010 (OGF 0x08 LE Controller, OCF 0x0010).
    public static let opcode = HCIOpcode.leClearFilterAcceptList
    /// Makes the command.
    public init() {}
    /// No parameter bytes.
    public var parameters: [UInt8] { [] }
}

/// An entry of the Filter Accept List: Address_Type (1: 0x00 public, 0x01 random, 0xFF anonymous
/// advertisements) and Address (6, wire order) (Core v5.4 Vol 4 Part E §7.8.16).
public struct FilterAcceptListEntry: Hashable, Sendable {
    /// Address_Type byte: 0x00 public, 0x01 random, 0xFF devices sending anonymous advertisements (address ignored).
    public var addressType: UInt8
    /// The device address.
    public var address: BluetoothAddress
    /// Makes an entry from an address type (public or random) and address.
    public init(addressType: AddressType, address: BluetoothAddress) {
        self.addressType = addressType.isRandom ? 0x01 : 0x00
        self.address = address
    }
    /// The entry that matches anonymous advertisements (Address_Type 0xFF).
    public static let anonymous = FilterAcceptListEntry(rawType: 0xFF, address: .zero)
    init(rawType: UInt8, address: BluetoothAddress) {
        addressType = rawType
        self.address = address
    }
    var bytes: [UInt8] { [addressType] + address.littleEndianBytes }
}

/// HCI LE Add Device To Filter Accept List (Core v5.4 Vol 4 Part E §7.8.16): Address_Type (1), Address (6); Status only.
public struct HCILEAddDeviceToFilterAcceptList: HCICommand {
    /// 0x2011 (OGF 0x08 LE Controller, OCF 0x0011).
    public static let opcode = HCIOpcode.leAddDeviceToFilterAcceptList
    /// The entry to add.
    public var entry: FilterAcceptListEntry
    /// Makes the command.
    public init(_ entry: FilterAcceptListEntry) { self.entry = entry }
    /// The 7 bytes: Address_Type, Address (least significant byte first).
    public var parameters: [UInt8] { entry.bytes }
}

/// HCI LE Remove Device From Filter Accept List (Core v5.4 Vol 4 Part E §7.8.17): Address_Type (1), Address (6); Status only.
public struct HCILERemoveDeviceFromFilterAcceptList: HCICommand {
    /// 0x2012 (OGF 0x08 LE Controller, OCF 0x0012).
    public static let opcode = HCIOpcode.leRemoveDeviceFromFilterAcceptList
    /// The entry to remove.
    public var entry: FilterAcceptListEntry
    /// Makes the command.
    public init(_ entry: FilterAcceptListEntry) { self.entry = entry }
    /// The 7 bytes: Address_Type, Address (least significant byte first).
    public var parameters: [UInt8] { entry.bytes }
}
