// The Set Event Mask bit field, with the set of events an LE central needs.

/// The 64-bit Event_Mask of HCI Set Event Mask (Core v5.4 Vol 4 Part E §7.3.1), little-endian on the wire.
///
/// Bit n enables one event; bits 13, 14 and 18 (Command Complete, Command Status, Number Of Completed
/// Packets) are marked "previously used" in v5.4 because those events cannot be masked, yet some controllers
/// still gate them on the bit (BlueZ sets them), so ``central`` sets them too. The controller's default
/// is 0x00001FFFFFFFFFFF, which lacks LE Meta (bit 61).
public struct EventMask: OptionSet, Hashable, Sendable {
    /// The 64-bit mask.
    public let rawValue: UInt64
    /// Wraps a mask.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Bit 4: Disconnection Complete (event 0x05).
    public static let disconnectionComplete = EventMask(rawValue: 1 << 4)
    /// Bit 7: Encryption Change [v1] (event 0x08).
    public static let encryptionChange = EventMask(rawValue: 1 << 7)
    /// Bit 11: Read Remote Version Information Complete (event 0x0C).
    public static let readRemoteVersionInformationComplete = EventMask(rawValue: 1 << 11)
    /// Bit 13: Command Complete (event 0x0E), previously used.
    public static let commandComplete = EventMask(rawValue: 1 << 13)
    /// Bit 14: Command Status (event 0x0F), previously used.
    public static let commandStatus = EventMask(rawValue: 1 << 14)
    /// Bit 15: Hardware Error (event 0x10).
    public static let hardwareError = EventMask(rawValue: 1 << 15)
    /// Bit 18: Number Of Completed Packets (event 0x13), previously used; without it some controllers stall ACL.
    public static let numberOfCompletedPackets = EventMask(rawValue: 1 << 18)
    /// Bit 25: Data Buffer Overflow (event 0x1A).
    public static let dataBufferOverflow = EventMask(rawValue: 1 << 25)
    /// Bit 47: Encryption Key Refresh Complete (event 0x30), for the security procedures.
    public static let encryptionKeyRefreshComplete = EventMask(rawValue: 1 << 47)
    /// Bit 61: LE Meta (event 0x3E); which subevents arrive is set by ``LEEventMask``.
    public static let leMeta = EventMask(rawValue: 1 << 61)

    /// Every event this stack handles as an LE central: the bits above.
    public static let central: EventMask = [
        .disconnectionComplete, .encryptionChange, .readRemoteVersionInformationComplete, .commandComplete,
        .commandStatus, .hardwareError, .numberOfCompletedPackets, .dataBufferOverflow,
        .encryptionKeyRefreshComplete, .leMeta,
    ]
}

/// The 64-bit LE_Event_Mask of HCI LE Set Event Mask (Core v5.4 Vol 4 Part E §7.8.1), little-endian on the wire.
///
/// Bit n enables the LE Meta subevent n + 1 (bit 0 = subevent 0x01 LE Connection Complete). Default 0x1F.
public struct LEEventMask: OptionSet, Hashable, Sendable {
    /// The 64-bit mask.
    public let rawValue: UInt64
    /// Wraps a mask.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The bit for LE Meta subevent `code` (1...64); empty for 0 or codes above 64.
    public init(subevent code: UInt8) {
        rawValue = (1...64).contains(code) ? 1 << UInt64(code - 1) : 0
    }

    /// Bit 0: LE Connection Complete (0x01).
    public static let connectionComplete = LEEventMask(subevent: 0x01)
    /// Bit 1: LE Advertising Report (0x02).
    public static let advertisingReport = LEEventMask(subevent: 0x02)
    /// Bit 2: LE Connection Update Complete (0x03).
    public static let connectionUpdateComplete = LEEventMask(subevent: 0x03)
    /// Bit 3: LE Read Remote Features Complete (0x04).
    public static let readRemoteFeaturesComplete = LEEventMask(subevent: 0x04)
    /// Bit 4: LE Long Term Key Request (0x05).
    public static let longTermKeyRequest = LEEventMask(subevent: 0x05)
    /// Bit 5: LE Remote Connection Parameter Request (0x06).
    public static let remoteConnectionParameterRequest = LEEventMask(subevent: 0x06)
    /// Bit 6: LE Data Length Change (0x07).
    public static let dataLengthChange = LEEventMask(subevent: 0x07)
    /// Bit 9: LE Enhanced Connection Complete [v1] (0x0A).
    public static let enhancedConnectionComplete = LEEventMask(subevent: 0x0A)
    /// Bit 10: LE Directed Advertising Report (0x0B).
    public static let directedAdvertisingReport = LEEventMask(subevent: 0x0B)
    /// Bit 11: LE PHY Update Complete (0x0C).
    public static let phyUpdateComplete = LEEventMask(subevent: 0x0C)
    /// Bit 12: LE Extended Advertising Report (0x0D).
    public static let extendedAdvertisingReport = LEEventMask(subevent: 0x0D)
    /// Bit 16: LE Scan Timeout (0x11).
    public static let scanTimeout = LEEventMask(subevent: 0x11)
    /// Bit 19: LE Channel Selection Algorithm (0x14).
    public static let channelSelectionAlgorithm = LEEventMask(subevent: 0x14)
    /// Bit 40: LE Enhanced Connection Complete [v2] (0x29); when set the controller sends v2 instead of v1.
    public static let enhancedConnectionCompleteV2 = LEEventMask(subevent: 0x29)

    /// Every LE subevent this stack handles, v1 Enhanced Connection Complete (add
    /// ``enhancedConnectionCompleteV2`` only when the controller lists it in its supported commands/features).
    public static let central: LEEventMask = [
        .connectionComplete, .advertisingReport, .connectionUpdateComplete, .readRemoteFeaturesComplete,
        .longTermKeyRequest, .remoteConnectionParameterRequest, .dataLengthChange, .enhancedConnectionComplete,
        .directedAdvertisingReport, .phyUpdateComplete, .extendedAdvertisingReport, .scanTimeout,
        .channelSelectionAlgorithm,
    ]
}
