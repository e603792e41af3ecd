// The 16-bit HCI command opcode: its OGF and OCF, and the names of the commands this stack sends.

import OCBCore

/// An HCI command opcode (Core v5.4 Vol 4 Part E §5.4.1).
///
/// 16 bits, little-endian on the wire: OCF in bits 0-9, OGF in bits 10-15. OGF 0x01 Link Control,
/// 0x03 Controller & Baseband, 0x04 Informational Parameters, 0x05 Status Parameters, 0x08 LE
/// Controller, 0x3F vendor-specific. Opcode 0x0000 is "no command": a Command Complete or Command Status
/// carrying it only returns command credits (Vol 4 Part E §7.7.14).
public struct HCIOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 16-bit opcode.
    public let rawValue: UInt16

    /// Wraps a 16-bit opcode.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Makes the opcode from its group (6 bits) and command (10 bits) fields; extra bits are masked off.
    public init(ogf: UInt8, ocf: UInt16) {
        rawValue = UInt16(ogf & 0x3F) << 10 | (ocf & 0x03FF)
    }

    /// Opcode Group Field, bits 10-15.
    public var ogf: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 10) }
    /// Opcode Command Field, bits 0-9.
    public var ocf: UInt16 { rawValue & 0x03FF }

    /// True for OGF 0x3F (vendor-specific).
    public var isVendorSpecific: Bool { ogf == 0x3F }

    /// The command's specification name (e.g. "LE Set Scan Enable") when known, else "OGF 0xNN OCF 0xNNNN".
    public var name: String {
        if let name = Self.names[rawValue] { return name }
        return "OGF 0x\(String(ogf, radix: 16)) OCF 0x\(String(ocf, radix: 16))" + (isVendorSpecific ? " (vendor)" : "")
    }

    /// `0xNNNN name`.
    public var description: String {
        "0x" + Hex.uppercase(rawValue, digits: 4) + " " + name
    }

    // Link Control (OGF 0x01), Vol 4 Part E §7.1
    /// Disconnect (0x01/0x0006), §7.1.6.
    public static let disconnect = HCIOpcode(ogf: 0x01, ocf: 0x0006)
    /// Read Remote Version Information (0x01/0x001D), §7.1.23.
    public static let readRemoteVersionInformation = HCIOpcode(ogf: 0x01, ocf: 0x001D)
    // Controller & Baseband (OGF 0x03), §7.3
    /// Set Event Mask (0x03/0x0001), §7.3.1.
    public static let setEventMask = HCIOpcode(ogf: 0x03, ocf: 0x0001)
    /// Reset (0x03/0x0003), §7.3.2.
    public static let reset = HCIOpcode(ogf: 0x03, ocf: 0x0003)
    // Informational Parameters (OGF 0x04), §7.4
    /// Read Local Version Information (0x04/0x0001), §7.4.1.
    public static let readLocalVersionInformation = HCIOpcode(ogf: 0x04, ocf: 0x0001)
    /// Read Local Supported Commands (0x04/0x0002), §7.4.2.
    public static let readLocalSupportedCommands = HCIOpcode(ogf: 0x04, ocf: 0x0002)
    /// Read Local Supported Features (0x04/0x0003), §7.4.3.
    public static let readLocalSupportedFeatures = HCIOpcode(ogf: 0x04, ocf: 0x0003)
    /// Read Buffer Size (0x04/0x0005), §7.4.5.
    public static let readBufferSize = HCIOpcode(ogf: 0x04, ocf: 0x0005)
    /// Read BD_ADDR (0x04/0x0009), §7.4.6.
    public static let readBDADDR = HCIOpcode(ogf: 0x04, ocf: 0x0009)
    // Status Parameters (OGF 0x05), §7.5
    /// Read RSSI (0x05/0x0005), §7.5.4.
    public static let readRSSI = HCIOpcode(ogf: 0x05, ocf: 0x0005)
    // LE Controller (OGF 0x08), §7.8
    /// LE Set Event Mask (0x08/0x0001), §7.8.1.
    public static let leSetEventMask = HCIOpcode(ogf: 0x08, ocf: 0x0001)
    /// LE Read Buffer Size [v1] (0x08/0x0002), §7.8.2.
    public static let leReadBufferSizeV1 = HCIOpcode(ogf: 0x08, ocf: 0x0002)
    /// LE Read Local Supported Features (0x08/0x0003), §7.8.3.
    public static let leReadLocalSupportedFeatures = HCIOpcode(ogf: 0x08, ocf: 0x0003)
    /// LE Set Random Address (0x08/0x0005), §7.8.4.
    public static let leSetRandomAddress = HCIOpcode(ogf: 0x08, ocf: 0x0005)
    /// LE Set Scan Parameters (0x08/0x000B), §7.8.10.
    public static let leSetScanParameters = HCIOpcode(ogf: 0x08, ocf: 0x000B)
    /// LE Set Scan Enable (0x08/0x000C), §7.8.11.
    public static let leSetScanEnable = HCIOpcode(ogf: 0x08, ocf: 0x000C)
    /// LE Create Connection (0x08/0x000D), §7.8.12.
    public static let leCreateConnection = HCIOpcode(ogf: 0x08, ocf: 0x000D)
    /// LE Create Connection Cancel (0x08/0x000E), §7.8.13.
    public static let leCreateConnectionCancel = HCIOpcode(ogf: 0x08, ocf: 0x000E)
    /// LE Read Filter Accept List Size (0x08/0x000F), §7.8.14.
    public static let leReadFilterAcceptListSize = HCIOpcode(ogf: 0x08, ocf: 0x000F)
    /// LE Clear Filter Accept List (0x08/0x0010), §7.8.15.
    public static let leClearFilterAcceptList = HCIOpcode(ogf: 0x08, ocf: 0x0010)
    /// LE Add Device To Filter Accept List (0x08/0x0011), §7.8.16.
    public static let leAddDeviceToFilterAcceptList = HCIOpcode(ogf: 0x08, ocf: 0x0011)
    /// LE Remove Device From Filter Accept List (0x08/0x0012), §7.8.17.
    public static let leRemoveDeviceFromFilterAcceptList = HCIOpcode(ogf: 0x08, ocf: 0x0012)
    /// LE Connection Update (0x08/0x0013), §7.8.18.
    public static let leConnectionUpdate = HCIOpcode(ogf: 0x08, ocf: 0x0013)
    /// LE Read Remote Features (0x08/0x0016), §7.8.21.
    public static let leReadRemoteFeatures = HCIOpcode(ogf: 0x08, ocf: 0x0016)
    /// LE Enable Encryption (LE Start Encryption before Core v5.3) (0x08/0x0019), §7.8.24.
    public static let leEnableEncryption = HCIOpcode(ogf: 0x08, ocf: 0x0019)
    /// LE Long Term Key Request Reply (0x08/0x001A), §7.8.25.
    public static let leLongTermKeyRequestReply = HCIOpcode(ogf: 0x08, ocf: 0x001A)
    /// LE Long Term Key Request Negative Reply (0x08/0x001B), §7.8.26.
    public static let leLongTermKeyRequestNegativeReply = HCIOpcode(ogf: 0x08, ocf: 0x001B)
    /// LE Remote Connection Parameter Request Reply (0x08/0x0020), §7.8.31.
    public static let leRemoteConnectionParameterRequestReply = HCIOpcode(ogf: 0x08, ocf: 0x0020)
    /// LE Remote Connection Parameter Request Negative Reply (0x08/0x0021), §7.8.32.
    public static let leRemoteConnectionParameterRequestNegativeReply = HCIOpcode(ogf: 0x08, ocf: 0x0021)
    /// LE Set Data Length (0x08/0x0022), §7.8.33.
    public static let leSetDataLength = HCIOpcode(ogf: 0x08, ocf: 0x0022)
    /// LE Read Suggested Default Data Length (0x08/0x0023), §7.8.34.
    public static let leReadSuggestedDefaultDataLength = HCIOpcode(ogf: 0x08, ocf: 0x0023)
    /// LE Write Suggested Default Data Length (0x08/0x0024), §7.8.35.
    public static let leWriteSuggestedDefaultDataLength = HCIOpcode(ogf: 0x08, ocf: 0x0024)
    /// LE Read Maximum Data Length (0x08/0x002F), §7.8.46.
    public static let leReadMaximumDataLength = HCIOpcode(ogf: 0x08, ocf: 0x002F)
    /// LE Read PHY (0x08/0x0030), §7.8.47.
    public static let leReadPHY = HCIOpcode(ogf: 0x08, ocf: 0x0030)
    /// LE Set Default PHY (0x08/0x0031), §7.8.48.
    public static let leSetDefaultPHY = HCIOpcode(ogf: 0x08, ocf: 0x0031)
    /// LE Set PHY (0x08/0x0032), §7.8.49.
    public static let leSetPHY = HCIOpcode(ogf: 0x08, ocf: 0x0032)
    /// LE Set Extended Scan Parameters (0x08/0x0041), §7.8.64.
    public static let leSetExtendedScanParameters = HCIOpcode(ogf: 0x08, ocf: 0x0041)
    /// LE Set Extended Scan Enable (0x08/0x0042), §7.8.65.
    public static let leSetExtendedScanEnable = HCIOpcode(ogf: 0x08, ocf: 0x0042)
    /// LE Extended Create Connection [v1] (0x08/0x0043), §7.8.66.
    public static let leExtendedCreateConnection = HCIOpcode(ogf: 0x08, ocf: 0x0043)
    /// LE Read Buffer Size [v2] (0x08/0x0060), §7.8.2.
    public static let leReadBufferSizeV2 = HCIOpcode(ogf: 0x08, ocf: 0x0060)

    static let names: [UInt16: String] = {
        let pairs: [(HCIOpcode, String)] = [
            (.disconnect, "Disconnect"), (.readRemoteVersionInformation, "Read Remote Version Information"),
            (.setEventMask, "Set Event Mask"), (.reset, "Reset"),
            (.readLocalVersionInformation, "Read Local Version Information"),
            (.readLocalSupportedCommands, "Read Local Supported Commands"),
            (.readLocalSupportedFeatures, "Read Local Supported Features"),
            (.readBufferSize, "Read Buffer Size"), (.readBDADDR, "Read BD_ADDR"), (.readRSSI, "Read RSSI"),
            (.leSetEventMask, "LE Set Event Mask"), (.leReadBufferSizeV1, "LE Read Buffer Size [v1]"),
            (.leReadLocalSupportedFeatures, "LE Read Local Supported Features"),
            (.leSetRandomAddress, "LE Set Random Address"), (.leSetScanParameters, "LE Set Scan Parameters"),
            (.leSetScanEnable, "LE Set Scan Enable"), (.leCreateConnection, "LE Create Connection"),
            (.leCreateConnectionCancel, "LE Create Connection Cancel"),
            (.leReadFilterAcceptListSize, "LE Read Filter Accept List Size"),
            (.leClearFilterAcceptList, "LE Clear Filter Accept List"),
            (.leAddDeviceToFilterAcceptList, "LE Add Device To Filter Accept List"),
            (.leRemoveDeviceFromFilterAcceptList, "LE Remove Device From Filter Accept List"),
            (.leConnectionUpdate, "LE Connection Update"), (.leReadRemoteFeatures, "LE Read Remote Features"),
            (.leEnableEncryption, "LE Enable Encryption"),
            (.leLongTermKeyRequestReply, "LE Long Term Key Request Reply"),
            (.leLongTermKeyRequestNegativeReply, "LE Long Term Key Request Negative Reply"),
            (.leRemoteConnectionParameterRequestReply, "LE Remote Connection Parameter Request Reply"),
            (.leRemoteConnectionParameterRequestNegativeReply, "LE Remote Connection Parameter Request Negative Reply"),
            (.leSetDataLength, "LE Set Data Length"),
            (.leReadSuggestedDefaultDataLength, "LE Read Suggested Default Data Length"),
            (.leWriteSuggestedDefaultDataLength, "LE Write Suggested Default Data Length"),
            (.leReadMaximumDataLength, "LE Read Maximum Data Length"), (.leReadPHY, "LE Read PHY"),
            (.leSetDefaultPHY, "LE Set Default PHY"), (.leSetPHY, "LE Set PHY"),
            (.leSetExtendedScanParameters, "LE Set Extended Scan Parameters"),
            (.leSetExtendedScanEnable, "LE Set Extended Scan Enable"),
            (.leExtendedCreateConnection, "LE Extended Create Connection"),
            (.leReadBufferSizeV2, "LE Read Buffer Size [v2]"),
        ]
        var table: [UInt16: String] = [:]
        for (opcode, name) in pairs { table[opcode.rawValue] = name }
        return table
    }()
}
