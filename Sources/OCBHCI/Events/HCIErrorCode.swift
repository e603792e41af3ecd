// Every HCI error code (status) a controller can return, with its Core Specification name.

import OCBCore

/// An HCI error code, the Status byte of Command Complete, Command Status and most events
/// (Core v5.4 Vol 1 Part F §1.3, codes 0x00...0x45).
///
/// One byte; 0x00 is success. Values the specification does not define are kept as they are and
/// named "Reserved for future use (0xNN)". ``name`` gives the specification's name.
public struct HCIErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible, Error {
    /// The status byte.
    public let rawValue: UInt8

    /// Wraps a status byte (any value).
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// True for 0x00 (Success).
    public var isSuccess: Bool { rawValue == 0x00 }

    /// The specification's name (Vol 1 Part F §1.3), or "Reserved for future use (0xNN)".
    public var name: String {
        let index = Int(rawValue)
        if index < Self.names.count, let name = Self.names[index] { return name }
        return "Reserved for future use (0x\(Hex.uppercase(rawValue, digits: 2)))"
    }

    /// `0xNN name`.
    public var description: String { "0x\(Hex.uppercase(rawValue, digits: 2)) \(name)" }

    /// Names indexed by code; nil marks a reserved value (0x2B, 0x31, 0x33).
    static let names: [String?] = [
        "Success",                                                             // 0x00
        "Unknown HCI Command",                                                 // 0x01
        "Unknown Connection Identifier",                                       // 0x02
        "Hardware Failure",                                                    // 0x03
        "Page Timeout",                                                        // 0x04
        "Authentication Failure",                                              // 0x05
        "PIN or Key Missing",                                                  // 0x06
        "Memory Capacity Exceeded",                                            // 0x07
        "Connection Timeout",                                                  // 0x08
        "Connection Limit Exceeded",                                           // 0x09
        "Synchronous Connection Limit To A Device Exceeded",                   // 0x0A
        "Connection Already Exists",                                           // 0x0B
        "Command Disallowed",                                                  // 0x0C
        "Connection Rejected due to Limited Resources",                        // 0x0D
        "Connection Rejected Due To Security Reasons",                         // 0x0E
        "Connection Rejected due to Unacceptable BD_ADDR",                     // 0x0F
        "Connection Accept Timeout Exceeded",                                  // 0x10
        "Unsupported Feature or Parameter Value",                              // 0x11
        "Invalid HCI Command Parameters",                                      // 0x12
        "Remote User Terminated Connection",                                   // 0x13
        "Remote Device Terminated Connection due to Low Resources",            // 0x14
        "Remote Device Terminated Connection due to Power Off",                // 0x15
        "Connection Terminated By Local Host",                                 // 0x16
        "Repeated Attempts",                                                   // 0x17
        "Pairing Not Allowed",                                                 // 0x18
        "Unknown LMP PDU",                                                     // 0x19
        "Unsupported Remote Feature",                                          // 0x1A
        "SCO Offset Rejected",                                                 // 0x1B
        "SCO Interval Rejected",                                               // 0x1C
        "SCO Air Mode Rejected",                                               // 0x1D
        "Invalid LMP Parameters / Invalid LL Parameters",                      // 0x1E
        "Unspecified Error",                                                   // 0x1F
        "Unsupported LMP Parameter Value / Unsupported LL Parameter Value",    // 0x20
        "Role Change Not Allowed",                                             // 0x21
        "LMP Response Timeout / LL Response Timeout",                          // 0x22
        "LMP Error Transaction Collision / LL Procedure Collision",            // 0x23
        "LMP PDU Not Allowed",                                                 // 0x24
        "Encryption Mode Not Acceptable",                                      // 0x25
        "Link Key cannot be Changed",                                          // 0x26
        "Requested QoS Not Supported",                                         // 0x27
        "Instant Passed",                                                      // 0x28
        "Pairing With Unit Key Not Supported",                                 // 0x29
        "Different Transaction Collision",                                     // 0x2A
        nil,                                                                   // 0x2B reserved
        "QoS Unacceptable Parameter",                                          // 0x2C
        "QoS Rejected",                                                        // 0x2D
        "Channel Classification Not Supported",                                // 0x2E
        "Insufficient Security",                                               // 0x2F
        "Parameter Out Of Mandatory Range",                                    // 0x30
        nil,                                                                   // 0x31 reserved
        "Role Switch Pending",                                                 // 0x32
        nil,                                                                   // 0x33 reserved
        "Reserved Slot Violation",                                             // 0x34
        "Role Switch Failed",                                                  // 0x35
        "Extended Inquiry Response Too Large",                                 // 0x36
        "Secure Simple Pairing Not Supported By Host",                         // 0x37
        "Host Busy - Pairing",                                                 // 0x38
        "Connection Rejected due to No Suitable Channel Found",                // 0x39
        "Controller Busy",                                                     // 0x3A
        "Unacceptable Connection Parameters",                                  // 0x3B
        "Advertising Timeout",                                                 // 0x3C
        "Connection Terminated due to MIC Failure",                            // 0x3D
        "Connection Failed to be Established / Synchronization Timeout",       // 0x3E
        "Previously Used",                                                     // 0x3F
        "Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging", // 0x40
        "Type0 Submap Not Defined",                                            // 0x41
        "Unknown Advertising Identifier",                                      // 0x42
        "Limit Reached",                                                       // 0x43
        "Operation Cancelled by Host",                                         // 0x44
        "Packet Too Long",                                                     // 0x45
    ]

    /// 0x00 Success.
    public static let success = HCIErrorCode(rawValue: 0x00)
    /// 0x01 Unknown HCI Command.
    public static let unknownCommand = HCIErrorCode(rawValue: 0x01)
    /// 0x02 Unknown Connection Identifier.
    public static let unknownConnectionIdentifier = HCIErrorCode(rawValue: 0x02)
    /// 0x03 Hardware Failure.
    public static let hardwareFailure = HCIErrorCode(rawValue: 0x03)
    /// 0x05 Authentication Failure.
    public static let authenticationFailure = HCIErrorCode(rawValue: 0x05)
    /// 0x06 PIN or Key Missing.
    public static let pinOrKeyMissing = HCIErrorCode(rawValue: 0x06)
    /// 0x07 Memory Capacity Exceeded.
    public static let memoryCapacityExceeded = HCIErrorCode(rawValue: 0x07)
    /// 0x08 Connection Timeout (supervision timeout).
    public static let connectionTimeout = HCIErrorCode(rawValue: 0x08)
    /// 0x09 Connection Limit Exceeded.
    public static let connectionLimitExceeded = HCIErrorCode(rawValue: 0x09)
    /// 0x0B Connection Already Exists.
    public static let connectionAlreadyExists = HCIErrorCode(rawValue: 0x0B)
    /// 0x0C Command Disallowed.
    public static let commandDisallowed = HCIErrorCode(rawValue: 0x0C)
    /// 0x11 Unsupported Feature or Parameter Value.
    public static let unsupportedFeatureOrParameterValue = HCIErrorCode(rawValue: 0x11)
    /// 0x12 Invalid HCI Command Parameters.
    public static let invalidCommandParameters = HCIErrorCode(rawValue: 0x12)
    /// 0x13 Remote User Terminated Connection (the usual Disconnect reason).
    public static let remoteUserTerminatedConnection = HCIErrorCode(rawValue: 0x13)
    /// 0x14 Remote Device Terminated Connection due to Low Resources.
    public static let remoteDeviceTerminatedLowResources = HCIErrorCode(rawValue: 0x14)
    /// 0x15 Remote Device Terminated Connection due to Power Off.
    public static let remoteDeviceTerminatedPowerOff = HCIErrorCode(rawValue: 0x15)
    /// 0x16 Connection Terminated By Local Host.
    public static let connectionTerminatedByLocalHost = HCIErrorCode(rawValue: 0x16)
    /// 0x1A Unsupported Remote Feature.
    public static let unsupportedRemoteFeature = HCIErrorCode(rawValue: 0x1A)
    /// 0x1F Unspecified Error.
    public static let unspecifiedError = HCIErrorCode(rawValue: 0x1F)
    /// 0x22 LMP Response Timeout / LL Response Timeout.
    public static let llResponseTimeout = HCIErrorCode(rawValue: 0x22)
    /// 0x3B Unacceptable Connection Parameters.
    public static let unacceptableConnectionParameters = HCIErrorCode(rawValue: 0x3B)
    /// 0x3D Connection Terminated due to MIC Failure.
    public static let connectionTerminatedMICFailure = HCIErrorCode(rawValue: 0x3D)
    /// 0x3E Connection Failed to be Established / Synchronization Timeout.
    public static let connectionFailedToBeEstablished = HCIErrorCode(rawValue: 0x3E)
    /// 0x44 Operation Cancelled by Host.
    public static let operationCancelledByHost = HCIErrorCode(rawValue: 0x44)
}
