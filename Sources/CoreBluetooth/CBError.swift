// Core Bluetooth's own errors (CBErrorDomain), shaped like the error struct Swift imports from Apple's SDK.
import Foundation

/// The domain of `CBError` as an `NSError`.
public let CBErrorDomain: String = "CBErrorDomain"

/// A Core Bluetooth error (Apple's `CBError`): `catch let error as CBError where error.code == .peripheralDisconnected`
/// works, and `(error as NSError).domain == CBErrorDomain` with `code == error.code.rawValue`.
public struct CBError: CustomNSError, Hashable, @unchecked Sendable {
    /// The error codes, raw values as in Apple's SDK (`CBErrorCode`).
    public enum Code: Int, Sendable, Hashable {
        /// 0: unknown error.
        case unknown = 0
        /// 1: the specified parameters are invalid.
        case invalidParameters = 1
        /// 2: the specified attribute handle is invalid (the attribute was invalidated).
        case invalidHandle = 2
        /// 3: the device is not connected.
        case notConnected = 3
        /// 4: out of space.
        case outOfSpace = 4
        /// 5: the operation was cancelled.
        case operationCancelled = 5
        /// 6: the connection timed out (supervision timeout, HCI reason 0x08; or an ATT transaction timeout).
        case connectionTimeout = 6
        /// 7: the peripheral disconnected (HCI reason 0x13 and most others).
        case peripheralDisconnected = 7
        /// 8: the UUID is not allowed for this operation (e.g. writing the CCCD with `writeValue(_:for:)`).
        case uuidNotAllowed = 8
        /// 9: already advertising (peripheral role).
        case alreadyAdvertising = 9
        /// 10: the connection failed (HCI reason 0x3E and failed connection attempts).
        case connectionFailed = 10
        /// 11: the connection limit was reached.
        case connectionLimitReached = 11
        /// 12: unknown device (iOS 13 name; the raw value Apple's earlier `unkownDevice` had).
        case unknownDevice = 12
        /// 13: the operation is not supported.
        case operationNotSupported = 13
        /// 14: the peer removed its pairing information (HCI reason 0x06 PIN or Key Missing).
        case peerRemovedPairingInformation = 14
        /// 15: encryption timed out.
        case encryptionTimedOut = 15
        /// 16: too many LE devices are paired.
        case tooManyLEPairedDevices = 16
        /// 17: iOS stopped a background app's notifications for exceeding its limit (iOS 16.4). Never produced on
        /// Linux, which has no background notification limit.
        case leGattExceededBackgroundNotificationLimit = 17
        /// 18: a background app is near its notification limit (iOS 16.4). Never produced on Linux.
        case leGattNearBackgroundNotificationLimit = 18

        /// 12: unknown device under its iOS 9-12 misspelling, as Apple's SDK keeps it (deprecated there in iOS 13).
        @available(*, deprecated, renamed: "unknownDevice")
        public static var unkownDevice: Code { .unknownDevice }
    }

    /// The code.
    public let code: Code
    /// Extra information merged into the `NSError`'s user info (Apple's `[String: Any]`; values are not copied, so
    /// keep them immutable, as `NSError`'s are). This stack sets `"OCBHCIReason"` (`String`, e.g. `"0x08"`) and
    /// `"OCBBackendReason"` (`String`) where it knows them.
    public let userInfo: [String: Any]

    /// Makes an error with a code and optional extra user info.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.userInfo = userInfo
    }

    public static var errorDomain: String { CBErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: Self.message(code)]
        for (key, value) in userInfo { info[key] = value }
        return info
    }
    /// The localized description, Apple's English text.
    public var localizedDescription: String { Self.message(code) }

    /// ``Code/unknown`` (0), as Apple's imported `CBError.unknown`.
    public static var unknown: Code { .unknown }
    /// ``Code/invalidParameters`` (1).
    public static var invalidParameters: Code { .invalidParameters }
    /// ``Code/invalidHandle`` (2): the attribute was invalidated (e.g. by Service Changed).
    public static var invalidHandle: Code { .invalidHandle }
    /// ``Code/notConnected`` (3).
    public static var notConnected: Code { .notConnected }
    /// ``Code/outOfSpace`` (4).
    public static var outOfSpace: Code { .outOfSpace }
    /// ``Code/operationCancelled`` (5).
    public static var operationCancelled: Code { .operationCancelled }
    /// ``Code/connectionTimeout`` (6): supervision timeout (HCI 0x08) or ATT transaction timeout (30 s).
    public static var connectionTimeout: Code { .connectionTimeout }
    /// ``Code/peripheralDisconnected`` (7).
    public static var peripheralDisconnected: Code { .peripheralDisconnected }
    /// ``Code/uuidNotAllowed`` (8).
    public static var uuidNotAllowed: Code { .uuidNotAllowed }
    /// ``Code/alreadyAdvertising`` (9, peripheral role; never raised by this central-only stack).
    public static var alreadyAdvertising: Code { .alreadyAdvertising }
    /// ``Code/connectionFailed`` (10).
    public static var connectionFailed: Code { .connectionFailed }
    /// ``Code/connectionLimitReached`` (11).
    public static var connectionLimitReached: Code { .connectionLimitReached }
    /// ``Code/unknownDevice`` (12) under its iOS 9-12 misspelling (deprecated by Apple in iOS 13).
    @available(*, deprecated, renamed: "unknownDevice")
    public static var unkownDevice: Code { .unknownDevice }
    /// ``Code/unknownDevice`` (12).
    public static var unknownDevice: Code { .unknownDevice }
    /// ``Code/operationNotSupported`` (13).
    public static var operationNotSupported: Code { .operationNotSupported }
    /// ``Code/peerRemovedPairingInformation`` (14).
    public static var peerRemovedPairingInformation: Code { .peerRemovedPairingInformation }
    /// ``Code/encryptionTimedOut`` (15).
    public static var encryptionTimedOut: Code { .encryptionTimedOut }
    /// ``Code/tooManyLEPairedDevices`` (16).
    public static var tooManyLEPairedDevices: Code { .tooManyLEPairedDevices }
    /// ``Code/leGattExceededBackgroundNotificationLimit`` (17; never produced on Linux).
    public static var leGattExceededBackgroundNotificationLimit: Code { .leGattExceededBackgroundNotificationLimit }
    /// ``Code/leGattNearBackgroundNotificationLimit`` (18; never produced on Linux).
    public static var leGattNearBackgroundNotificationLimit: Code { .leGattNearBackgroundNotificationLimit }

    static func message(_ code: Code) -> String {
        switch code {
        case .unknown: "Unknown error."
        case .invalidParameters: "The specified parameters are invalid."
        case .invalidHandle: "The specified attribute handle is invalid."
        case .notConnected: "The device is not currently connected."
        case .outOfSpace: "The device has run out of space to complete the intended operation."
        case .operationCancelled: "The operation was cancelled."
        case .connectionTimeout: "The connection has timed out unexpectedly."
        case .peripheralDisconnected: "The specified device has disconnected from us."
        case .uuidNotAllowed: "The specified UUID is not allowed for this operation."
        case .alreadyAdvertising: "The peripheral is already advertising."
        case .connectionFailed: "The connection has failed unexpectedly."
        case .connectionLimitReached: "The device has reached the maximum connection limit."
        case .unknownDevice: "Unknown device."
        case .operationNotSupported: "The operation is not supported."
        case .peerRemovedPairingInformation: "Peer removed pairing information."
        case .encryptionTimedOut: "The encryption timed out."
        case .tooManyLEPairedDevices: "Too many LE devices are paired."
        case .leGattExceededBackgroundNotificationLimit: "The background notification limit was exceeded."
        case .leGattNearBackgroundNotificationLimit: "The background notification limit is near."
        }
    }
}

extension CBError.Code {
    /// Matches an error of this code: `case CBError.Code.peripheralDisconnected` / `case .peripheralDisconnected` in a `catch`.
    public static func ~= (code: CBError.Code, error: any Error) -> Bool {
        (error as? CBError)?.code == code
    }
}
