// ATT protocol errors as Core Bluetooth reports them (CBATTErrorDomain), shaped like Apple's imported error struct.
import Foundation

/// The domain of `CBATTError` as an `NSError`.
public let CBATTErrorDomain: String = "CBATTErrorDomain"

/// An ATT error (Apple's `CBATTError`); the codes are the ATT Error Codes of Core v5.4 Vol 3 Part F §3.4.1.1.
///
/// Codes outside `Code` (application errors 0x80-0x9F, common profile errors 0xE0-0xFF) keep their value in
/// `errorCode` (so `(error as NSError).code` is the byte on air, as on iOS) while `code` reads `.unlikelyError`.
public struct CBATTError: CustomNSError, Hashable, @unchecked Sendable {
    /// The ATT error codes, raw values as in Apple's SDK and the Core specification.
    public enum Code: Int, Sendable, Hashable {
        /// 0x00: success.
        case success = 0
        /// 0x01: Invalid Handle.
        case invalidHandle = 1
        /// 0x02: Read Not Permitted.
        case readNotPermitted = 2
        /// 0x03: Write Not Permitted.
        case writeNotPermitted = 3
        /// 0x04: Invalid PDU.
        case invalidPdu = 4
        /// 0x05: Insufficient Authentication.
        case insufficientAuthentication = 5
        /// 0x06: Request Not Supported.
        case requestNotSupported = 6
        /// 0x07: Invalid Offset.
        case invalidOffset = 7
        /// 0x08: Insufficient Authorization.
        case insufficientAuthorization = 8
        /// 0x09: Prepare Queue Full.
        case prepareQueueFull = 9
        /// 0x0A: Attribute Not Found.
        case attributeNotFound = 10
        /// 0x0B: Attribute Not Long.
        case attributeNotLong = 11
        /// 0x0C: Encryption Key Size Too Short.
        case insufficientEncryptionKeySize = 12
        /// 0x0D: Invalid Attribute Value Length.
        case invalidAttributeValueLength = 13
        /// 0x0E: Unlikely Error.
        case unlikelyError = 14
        /// 0x0F: Insufficient Encryption.
        case insufficientEncryption = 15
        /// 0x10: Unsupported Group Type.
        case unsupportedGroupType = 16
        /// 0x11: Insufficient Resources.
        case insufficientResources = 17
    }

    /// The ATT error code as received (0x01-0xFF).
    public let errorCode: Int
    /// Extra information merged into the `NSError`'s user info (Apple's `[String: Any]`; values are not copied, so
    /// keep them immutable, as `NSError`'s are). This stack sets `"OCBHCIReason"` (`String`, e.g. `"0x08"`) and
    /// `"OCBBackendReason"` (`String`) where it knows them.
    public let userInfo: [String: Any]

    /// The code; `.unlikelyError` for codes Apple's enum does not name (see the type's note).
    public var code: Code { Code(rawValue: errorCode) ?? .unlikelyError }

    /// Makes an error with a code and optional extra user info.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.errorCode = code.rawValue
        self.userInfo = userInfo
    }

    /// Makes an error from the ATT Error Code byte of an Error Response (Core v5.4 Vol 3 Part F §3.4.1.1); the
    /// backend mapping's initialiser, not Apple API.
    package init(attErrorCode byte: UInt8) {
        self.errorCode = Int(byte)
        self.userInfo = [:]
    }

    public static var errorDomain: String { CBATTErrorDomain }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: localizedDescription]
        for (key, value) in userInfo { info[key] = value }
        return info
    }

    /// The localized description, Apple's English text.
    public var localizedDescription: String {
        guard let known = Code(rawValue: errorCode) else {
            return errorCode >= 0x80 && errorCode <= 0x9F ? "Application error 0x\(String(errorCode, radix: 16))."
                : "Unknown ATT error 0x\(String(errorCode, radix: 16))."
        }
        return switch known {
        case .success: "The operation succeeded."
        case .invalidHandle: "The handle is invalid."
        case .readNotPermitted: "Reading is not permitted."
        case .writeNotPermitted: "Writing is not permitted."
        case .invalidPdu: "The command is invalid."
        case .insufficientAuthentication: "Authentication is insufficient."
        case .requestNotSupported: "The request is not supported."
        case .invalidOffset: "The offset is invalid."
        case .insufficientAuthorization: "Authorization is insufficient."
        case .prepareQueueFull: "The prepare queue is full."
        case .attributeNotFound: "The attribute could not be found."
        case .attributeNotLong: "The attribute is not long."
        case .insufficientEncryptionKeySize: "The encryption key size is insufficient."
        case .invalidAttributeValueLength: "The value's length is invalid."
        case .unlikelyError: "Unlikely error."
        case .insufficientEncryption: "Encryption is insufficient."
        case .unsupportedGroupType: "The group type is not supported."
        case .insufficientResources: "Resources are insufficient."
        }
    }

    /// ``Code/success`` (0x00, no error), as Apple's imported `CBATTError.success`.
    public static var success: Code { .success }
    /// ``Code/invalidHandle``: ATT error 0x01 Invalid Handle.
    public static var invalidHandle: Code { .invalidHandle }
    /// ``Code/readNotPermitted``: ATT error 0x02 Read Not Permitted.
    public static var readNotPermitted: Code { .readNotPermitted }
    /// ``Code/writeNotPermitted``: ATT error 0x03 Write Not Permitted.
    public static var writeNotPermitted: Code { .writeNotPermitted }
    /// ``Code/invalidPdu``: ATT error 0x04 Invalid PDU.
    public static var invalidPdu: Code { .invalidPdu }
    /// ``Code/insufficientAuthentication``: ATT error 0x05 Insufficient Authentication.
    public static var insufficientAuthentication: Code { .insufficientAuthentication }
    /// ``Code/requestNotSupported``: ATT error 0x06 Request Not Supported.
    public static var requestNotSupported: Code { .requestNotSupported }
    /// ``Code/invalidOffset``: ATT error 0x07 Invalid Offset.
    public static var invalidOffset: Code { .invalidOffset }
    /// ``Code/insufficientAuthorization``: ATT error 0x08 Insufficient Authorization.
    public static var insufficientAuthorization: Code { .insufficientAuthorization }
    /// ``Code/prepareQueueFull``: ATT error 0x09 Prepare Queue Full.
    public static var prepareQueueFull: Code { .prepareQueueFull }
    /// ``Code/attributeNotFound``: ATT error 0x0A Attribute Not Found.
    public static var attributeNotFound: Code { .attributeNotFound }
    /// ``Code/attributeNotLong``: ATT error 0x0B Attribute Not Long.
    public static var attributeNotLong: Code { .attributeNotLong }
    /// ``Code/insufficientEncryptionKeySize``: ATT error 0x0C Encryption Key Size Too Short.
    public static var insufficientEncryptionKeySize: Code { .insufficientEncryptionKeySize }
    /// ``Code/invalidAttributeValueLength``: ATT error 0x0D Invalid Attribute Value Length.
    public static var invalidAttributeValueLength: Code { .invalidAttributeValueLength }
    /// ``Code/unlikelyError``: ATT error 0x0E Unlikely Error (also the code of errors Apple's enum does not name).
    public static var unlikelyError: Code { .unlikelyError }
    /// ``Code/insufficientEncryption``: ATT error 0x0F Insufficient Encryption.
    public static var insufficientEncryption: Code { .insufficientEncryption }
    /// ``Code/unsupportedGroupType``: ATT error 0x10 Unsupported Group Type.
    public static var unsupportedGroupType: Code { .unsupportedGroupType }
    /// ``Code/insufficientResources``: ATT error 0x11 Insufficient Resources.
    public static var insufficientResources: Code { .insufficientResources }

}

extension CBATTError.Code {
    /// Matches an error of this code: `case CBATTError.Code.attributeNotFound` / `case .attributeNotFound` in a `catch`.
    public static func ~= (code: CBATTError.Code, error: any Error) -> Bool {
        (error as? CBATTError)?.code == code
    }
}
