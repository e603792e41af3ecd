// A decoded HCI event: the events an LE central handles, vendor and unknown events kept raw.

import OCBCore

/// An HCI event decoded from its packet (Core v5.4 Vol 4 Part E §5.4.4, §7.7).
///
/// Packet layout (without the H4 indicator): Event_Code (1), Parameter_Total_Length (1), parameters.
/// Vendor (0xFF) and unknown events, and unknown LE Meta subevents, are kept raw and never throw;
/// a known event whose parameters do not fit its layout throws ``HCIEventDecodingError``.
public enum HCIEvent: Hashable, Sendable {
    /// 0x05 Disconnection Complete.
    case disconnectionComplete(HCIDisconnectionCompleteEvent)
    /// 0x08 Encryption Change [v1].
    case encryptionChange(HCIEncryptionChangeEvent)
    /// 0x30 Encryption Key Refresh Complete: Status (1), Connection_Handle (2) (Vol 4 Part E §7.7.39).
    case encryptionKeyRefreshComplete(status: HCIErrorCode, handle: ConnectionHandle)
    /// 0x0C Read Remote Version Information Complete.
    case readRemoteVersionInformationComplete(HCIReadRemoteVersionInformationCompleteEvent)
    /// 0x0E Command Complete.
    case commandComplete(HCICommandCompleteEvent)
    /// 0x0F Command Status.
    case commandStatus(HCICommandStatusEvent)
    /// 0x10 Hardware Error: Hardware_Code (1, vendor defined).
    case hardwareError(hardwareCode: UInt8)
    /// 0x13 Number Of Completed Packets.
    case numberOfCompletedPackets(HCINumberOfCompletedPacketsEvent)
    /// 0x1A Data Buffer Overflow: Link_Type (1: 0x00 synchronous, 0x01 ACL).
    case dataBufferOverflow(linkType: UInt8)
    /// 0x3E LE Meta, decoded by subevent.
    case leMeta(LEMetaEvent)
    /// 0xFF vendor-specific: the parameters as received.
    case vendor([UInt8])
    /// Any other event code: the code and the parameters as received.
    case unknown(code: UInt8, parameters: [UInt8])

    /// Event codes (Vol 4 Part E §7.7).
    public enum Code {
        /// 0x05 Disconnection Complete.
        public static let disconnectionComplete: UInt8 = 0x05
        /// 0x08 Encryption Change [v1].
        public static let encryptionChange: UInt8 = 0x08
        /// 0x0C Read Remote Version Information Complete.
        public static let readRemoteVersionInformationComplete: UInt8 = 0x0C
        /// 0x30 Encryption Key Refresh Complete.
        public static let encryptionKeyRefreshComplete: UInt8 = 0x30
        /// 0x59 Encryption Change [v2]: as v1, then Encryption_Key_Size (1).
        public static let encryptionChangeV2: UInt8 = 0x59
        /// 0x0E Command Complete.
        public static let commandComplete: UInt8 = 0x0E
        /// 0x0F Command Status.
        public static let commandStatus: UInt8 = 0x0F
        /// 0x10 Hardware Error.
        public static let hardwareError: UInt8 = 0x10
        /// 0x13 Number Of Completed Packets.
        public static let numberOfCompletedPackets: UInt8 = 0x13
        /// 0x1A Data Buffer Overflow.
        public static let dataBufferOverflow: UInt8 = 0x1A
        /// 0x3E LE Meta.
        public static let leMeta: UInt8 = 0x3E
        /// 0xFF vendor-specific.
        public static let vendor: UInt8 = 0xFF
    }

    /// Decodes an event packet. Throws ``HCIEventDecodingError`` when `packet.type` is not `.event`
    /// (field "packet type") or when the bytes are malformed (see ``init(bytes:)``).
    public init(packet: HCIPacket) throws(HCIEventDecodingError) {
        guard packet.type == .event else {
            throw HCIEventDecodingError(event: "HCI Event", field: "packet type", offset: 0, reason: "a \(packet.type) packet is not an event")
        }
        try self.init(bytes: packet.bytes)
    }

    /// Decodes an event from its bytes without the H4 indicator: Event_Code, Parameter_Total_Length, parameters.
    /// Bytes beyond Parameter_Total_Length are ignored. Throws ``HCIEventDecodingError`` when the header is short,
    /// fewer parameter bytes follow than announced, or a known event's parameters are malformed.
    public init(bytes: [UInt8]) throws(HCIEventDecodingError) {
        var reader = FieldReader(bytes, event: "HCI Event")
        let code = try reader.u8("Event_Code")
        let length = Int(try reader.u8("Parameter_Total_Length"))
        let parameters = try reader.bytes(length, "Parameters")
        try self.init(code: code, parameters: parameters)
    }

    /// Decodes an event from its code and parameters (offsets in errors count from the first parameter byte).
    public init(code: UInt8, parameters: [UInt8]) throws(HCIEventDecodingError) {
        switch code {
        case Code.disconnectionComplete: self = .disconnectionComplete(try .decode(parameters))
        case Code.encryptionChange: self = .encryptionChange(try .decode(parameters))
        case Code.encryptionChangeV2: self = .encryptionChange(try .decode(parameters, event: "Encryption Change [v2]"))
        case Code.encryptionKeyRefreshComplete:
            var reader = FieldReader(parameters, event: "Encryption Key Refresh Complete")
            self = .encryptionKeyRefreshComplete(status: try reader.status(), handle: try reader.handle())
        case Code.readRemoteVersionInformationComplete: self = .readRemoteVersionInformationComplete(try .decode(parameters))
        case Code.commandComplete: self = .commandComplete(try .decode(parameters))
        case Code.commandStatus: self = .commandStatus(try .decode(parameters))
        case Code.hardwareError:
            var reader = FieldReader(parameters, event: "Hardware Error")
            self = .hardwareError(hardwareCode: try reader.u8("Hardware_Code"))
        case Code.numberOfCompletedPackets: self = .numberOfCompletedPackets(try .decode(parameters))
        case Code.dataBufferOverflow:
            var reader = FieldReader(parameters, event: "Data Buffer Overflow")
            self = .dataBufferOverflow(linkType: try reader.u8("Link_Type"))
        case Code.leMeta: self = .leMeta(try LEMetaEvent(parameters: parameters))
        case Code.vendor: self = .vendor(parameters)
        default: self = .unknown(code: code, parameters: parameters)
        }
    }
}

extension HCIEvent {
    /// True when the event packet `bytes` (event code, parameter length, parameters; no H4 indicator) carries only
    /// legacy advertising PDUs, told from its first bytes without decoding it: an LE Advertising Report or LE Directed
    /// Advertising Report (LE Meta 0x3E, subevents 0x02 and 0x0B; Core v5.4 Vol 4 Part E §7.7.65.2, §7.7.65.11), or an
    /// LE Extended Advertising Report (0x0D, §7.7.65.13) each of whose reports has the legacy bit (Event_Type bit 4)
    /// set. A legacy PDU is always whole (Data_Status 0b00), so it is never a piece of a chain; an extended report
    /// without that bit may be, and is not one of these. A report that runs past the event (24 bytes before its data,
    /// then Data_Length bytes) makes it not one either: it is left to the decoder, which says what is wrong.
    public static func isLegacyAdvertisingReport(_ bytes: [UInt8]) -> Bool {
        isLegacyAdvertisingReport(bytes[...])
    }

    /// ``isLegacyAdvertisingReport(_:)-([UInt8])`` of an event packet held in a slice (of the read it arrived in).
    public static func isLegacyAdvertisingReport(_ bytes: ArraySlice<UInt8>) -> Bool {
        let base = bytes.startIndex
        guard bytes.count >= 3, bytes[base] == Code.leMeta else { return false }
        switch bytes[base + 2] {
        case 0x02, 0x0B: return true
        case 0x0D:
            guard bytes.count >= 4, bytes[base + 3] > 0 else { return false }
            var offset = base + 4
            for _ in 0..<bytes[base + 3] {
                // Event_Type (2, bit 4 legacy), ..., Data_Length at +23, then the data.
                guard offset + 24 <= bytes.endIndex, bytes[offset] & 0x10 != 0 else { return false }
                offset += 24 + Int(bytes[offset + 23])
            }
            return offset <= bytes.endIndex
        default: return false
        }
    }

    /// True for the LE Meta subevents that carry advertising reports: LE Advertising Report (0x02), LE Directed
    /// Advertising Report (0x0B) and LE Extended Advertising Report (0x0D) (Core v5.4 Vol 4 Part E §7.7.65.2, .11, .13).
    public var isAdvertisingReport: Bool {
        switch self {
        case .leMeta(.advertisingReport), .leMeta(.directedAdvertisingReport), .leMeta(.extendedAdvertisingReport): true
        default: false
        }
    }
}
