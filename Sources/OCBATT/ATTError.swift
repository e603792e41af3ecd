// The ATT error codes of the Error Response, with their spec names.

/// An ATT Error Code (Core v5.4 Vol 3 Part F §3.4.1.1, Table 3.4; Core Specification Supplement Part B §1.2).
///
/// One byte. 0x01...0x13 are the Attribute protocol's errors; 0x80...0x9F are application errors
/// (kept as numbers, their meaning is the profile's); 0xE0...0xFF are common profile and service errors,
/// of which 0xFC...0xFF are defined. Any other value is reserved and kept as given.
public enum ATTError: Hashable, Sendable, CustomStringConvertible {
    /// 0x01 Invalid Handle.
    case invalidHandle
    /// 0x02 Read Not Permitted.
    case readNotPermitted
    /// 0x03 Write Not Permitted.
    case writeNotPermitted
    /// 0x04 Invalid PDU.
    case invalidPDU
    /// 0x05 Insufficient Authentication.
    case insufficientAuthentication
    /// 0x06 Request Not Supported.
    case requestNotSupported
    /// 0x07 Invalid Offset.
    case invalidOffset
    /// 0x08 Insufficient Authorization.
    case insufficientAuthorization
    /// 0x09 Prepare Queue Full.
    case prepareQueueFull
    /// 0x0A Attribute Not Found.
    case attributeNotFound
    /// 0x0B Attribute Not Long.
    case attributeNotLong
    /// 0x0C Encryption Key Size Too Short.
    case encryptionKeySizeTooShort
    /// 0x0D Invalid Attribute Value Length.
    case invalidAttributeValueLength
    /// 0x0E Unlikely Error.
    case unlikelyError
    /// 0x0F Insufficient Encryption.
    case insufficientEncryption
    /// 0x10 Unsupported Group Type.
    case unsupportedGroupType
    /// 0x11 Insufficient Resources.
    case insufficientResources
    /// 0x12 Database Out Of Sync.
    case databaseOutOfSync
    /// 0x13 Value Not Allowed.
    case valueNotAllowed
    /// 0x80...0x9F: an application error defined by the profile.
    case application(UInt8)
    /// 0xFC Write Request Rejected (Supplement Part B §1.2.1).
    case writeRequestRejected
    /// 0xFD Client Characteristic Configuration Descriptor Improperly Configured (Supplement Part B §1.2.2).
    case cccdImproperlyConfigured
    /// 0xFE Procedure Already in Progress (Supplement Part B §1.2.3).
    case procedureAlreadyInProgress
    /// 0xFF Out of Range (Supplement Part B §1.2.4).
    case outOfRange
    /// Any reserved value (0x00, 0x14...0x7F, 0xA0...0xFB), kept as given.
    case reserved(UInt8)

    private static let named: [ATTError] = [
        .invalidHandle, .readNotPermitted, .writeNotPermitted, .invalidPDU, .insufficientAuthentication,
        .requestNotSupported, .invalidOffset, .insufficientAuthorization, .prepareQueueFull, .attributeNotFound,
        .attributeNotLong, .encryptionKeySizeTooShort, .invalidAttributeValueLength, .unlikelyError,
        .insufficientEncryption, .unsupportedGroupType, .insufficientResources, .databaseOutOfSync, .valueNotAllowed,
    ]

    /// Decodes the error code byte.
    public init(rawValue: UInt8) {
        switch rawValue {
        case 0x01...0x13: self = Self.named[Int(rawValue) - 1]
        case 0x80...0x9F: self = .application(rawValue)
        case 0xFC: self = .writeRequestRejected
        case 0xFD: self = .cccdImproperlyConfigured
        case 0xFE: self = .procedureAlreadyInProgress
        case 0xFF: self = .outOfRange
        default: self = .reserved(rawValue)
        }
    }

    /// The error code byte.
    public var rawValue: UInt8 {
        switch self {
        case .application(let code), .reserved(let code): code
        case .writeRequestRejected: 0xFC
        case .cccdImproperlyConfigured: 0xFD
        case .procedureAlreadyInProgress: 0xFE
        case .outOfRange: 0xFF
        default: UInt8(truncatingIfNeeded: (Self.named.firstIndex(of: self) ?? -1) + 1)
        }
    }

    /// The spec's name, e.g. "Attribute Not Found"; "Application Error 0x80" and "Reserved 0x14" for numbered ones.
    public var description: String {
        switch self {
        case .invalidHandle: "Invalid Handle"
        case .readNotPermitted: "Read Not Permitted"
        case .writeNotPermitted: "Write Not Permitted"
        case .invalidPDU: "Invalid PDU"
        case .insufficientAuthentication: "Insufficient Authentication"
        case .requestNotSupported: "Request Not Supported"
        case .invalidOffset: "Invalid Offset"
        case .insufficientAuthorization: "Insufficient Authorization"
        case .prepareQueueFull: "Prepare Queue Full"
        case .attributeNotFound: "Attribute Not Found"
        case .attributeNotLong: "Attribute Not Long"
        case .encryptionKeySizeTooShort: "Encryption Key Size Too Short"
        case .invalidAttributeValueLength: "Invalid Attribute Value Length"
        case .unlikelyError: "Unlikely Error"
        case .insufficientEncryption: "Insufficient Encryption"
        case .unsupportedGroupType: "Unsupported Group Type"
        case .insufficientResources: "Insufficient Resources"
        case .databaseOutOfSync: "Database Out Of Sync"
        case .valueNotAllowed: "Value Not Allowed"
        case .application(let code): "Application Error 0x" + String(code, radix: 16, uppercase: true)
        case .writeRequestRejected: "Write Request Rejected"
        case .cccdImproperlyConfigured: "Client Characteristic Configuration Descriptor Improperly Configured"
        case .procedureAlreadyInProgress: "Procedure Already in Progress"
        case .outOfRange: "Out of Range"
        case .reserved(let code): "Reserved 0x" + String(code, radix: 16, uppercase: true)
        }
    }
}
