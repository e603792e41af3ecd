// The 64-octet Supported_Commands bitmap with named queries for the commands this stack sends.

/// The controller's Supported_Commands bitmap (Core v5.4 Vol 4 Part E §6.27), returned by
/// Read Local Supported Commands (§7.4.2): 64 octets, one bit per command.
///
/// Query with a ``Command`` (octet and bit of §6.27): `supportedCommands.contains(.leSetExtendedScanParameters)`.
public struct SupportedCommands: Hashable, Sendable {
    /// One command's position in the bitmap: octet 0...63 and bit 0...7 (Vol 4 Part E §6.27).
    public struct Command: Hashable, Sendable {
        /// The octet index.
        public let octet: Int
        /// The bit index within the octet.
        public let bit: Int
        /// Makes a position.
        public init(octet: Int, bit: Int) {
            self.octet = octet
            self.bit = bit
        }

        /// Octet 0 bit 5: Disconnect.
        public static let disconnect = Command(octet: 0, bit: 5)
        /// Octet 2 bit 7: Read Remote Version Information.
        public static let readRemoteVersionInformation = Command(octet: 2, bit: 7)
        /// Octet 5 bit 6: Set Event Mask.
        public static let setEventMask = Command(octet: 5, bit: 6)
        /// Octet 5 bit 7: Reset.
        public static let reset = Command(octet: 5, bit: 7)
        /// Octet 14 bit 3: Read Local Version Information.
        public static let readLocalVersionInformation = Command(octet: 14, bit: 3)
        /// Octet 14 bit 5: Read Local Supported Features.
        public static let readLocalSupportedFeatures = Command(octet: 14, bit: 5)
        /// Octet 14 bit 7: Read Buffer Size.
        public static let readBufferSize = Command(octet: 14, bit: 7)
        /// Octet 15 bit 1: Read BD_ADDR.
        public static let readBDADDR = Command(octet: 15, bit: 1)
        /// Octet 15 bit 5: Read RSSI.
        public static let readRSSI = Command(octet: 15, bit: 5)
        /// Octet 25 bit 0: LE Set Event Mask.
        public static let leSetEventMask = Command(octet: 25, bit: 0)
        /// Octet 25 bit 1: LE Read Buffer Size [v1].
        public static let leReadBufferSizeV1 = Command(octet: 25, bit: 1)
        /// Octet 25 bit 2: LE Read Local Supported Features.
        public static let leReadLocalSupportedFeatures = Command(octet: 25, bit: 2)
        /// Octet 25 bit 4: LE Set Random Address.
        public static let leSetRandomAddress = Command(octet: 25, bit: 4)
        /// Octet 26 bit 2: LE Set Scan Parameters.
        public static let leSetScanParameters = Command(octet: 26, bit: 2)
        /// Octet 26 bit 3: LE Set Scan Enable.
        public static let leSetScanEnable = Command(octet: 26, bit: 3)
        /// Octet 26 bit 4: LE Create Connection.
        public static let leCreateConnection = Command(octet: 26, bit: 4)
        /// Octet 26 bit 5: LE Create Connection Cancel.
        public static let leCreateConnectionCancel = Command(octet: 26, bit: 5)
        /// Octet 26 bit 6: LE Read Filter Accept List Size.
        public static let leReadFilterAcceptListSize = Command(octet: 26, bit: 6)
        /// Octet 26 bit 7: LE Clear Filter Accept List.
        public static let leClearFilterAcceptList = Command(octet: 26, bit: 7)
        /// Octet 27 bit 0: LE Add Device To Filter Accept List.
        public static let leAddDeviceToFilterAcceptList = Command(octet: 27, bit: 0)
        /// Octet 27 bit 1: LE Remove Device From Filter Accept List.
        public static let leRemoveDeviceFromFilterAcceptList = Command(octet: 27, bit: 1)
        /// Octet 27 bit 2: LE Connection Update.
        public static let leConnectionUpdate = Command(octet: 27, bit: 2)
        /// Octet 27 bit 5: LE Read Remote Features.
        public static let leReadRemoteFeatures = Command(octet: 27, bit: 5)
        /// Octet 28 bit 0: LE Enable Encryption (LE Start Encryption).
        public static let leEnableEncryption = Command(octet: 28, bit: 0)
        /// Octet 28 bit 1: LE Long Term Key Request Reply.
        public static let leLongTermKeyRequestReply = Command(octet: 28, bit: 1)
        /// Octet 28 bit 2: LE Long Term Key Request Negative Reply.
        public static let leLongTermKeyRequestNegativeReply = Command(octet: 28, bit: 2)
        /// Octet 33 bit 4: LE Remote Connection Parameter Request Reply.
        public static let leRemoteConnectionParameterRequestReply = Command(octet: 33, bit: 4)
        /// Octet 33 bit 5: LE Remote Connection Parameter Request Negative Reply.
        public static let leRemoteConnectionParameterRequestNegativeReply = Command(octet: 33, bit: 5)
        /// Octet 33 bit 6: LE Set Data Length.
        public static let leSetDataLength = Command(octet: 33, bit: 6)
        /// Octet 33 bit 7: LE Read Suggested Default Data Length.
        public static let leReadSuggestedDefaultDataLength = Command(octet: 33, bit: 7)
        /// Octet 34 bit 0: LE Write Suggested Default Data Length.
        public static let leWriteSuggestedDefaultDataLength = Command(octet: 34, bit: 0)
        /// Octet 35 bit 3: LE Read Maximum Data Length.
        public static let leReadMaximumDataLength = Command(octet: 35, bit: 3)
        /// Octet 35 bit 4: LE Read PHY.
        public static let leReadPHY = Command(octet: 35, bit: 4)
        /// Octet 35 bit 5: LE Set Default PHY.
        public static let leSetDefaultPHY = Command(octet: 35, bit: 5)
        /// Octet 35 bit 6: LE Set PHY.
        public static let leSetPHY = Command(octet: 35, bit: 6)
        /// Octet 37 bit 5: LE Set Extended Scan Parameters.
        public static let leSetExtendedScanParameters = Command(octet: 37, bit: 5)
        /// Octet 37 bit 6: LE Set Extended Scan Enable.
        public static let leSetExtendedScanEnable = Command(octet: 37, bit: 6)
        /// Octet 37 bit 7: LE Extended Create Connection [v1].
        public static let leExtendedCreateConnection = Command(octet: 37, bit: 7)
        /// Octet 41 bit 5: LE Read Buffer Size [v2].
        public static let leReadBufferSizeV2 = Command(octet: 41, bit: 5)
    }

    /// The octets as received (64 when read from a controller).
    public let bytes: [UInt8]

    /// Wraps the octets (any count; missing octets read as unsupported).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// True when the controller sets the command's bit; false for positions outside the bitmap.
    public func contains(_ command: Command) -> Bool {
        guard command.octet >= 0, command.octet < bytes.count, (0..<8).contains(command.bit) else { return false }
        return bytes[command.octet] & (1 << UInt8(command.bit)) != 0
    }
}
