// Connection events outside LE Meta: Disconnection Complete, Encryption Change (v1, v2), Read Remote Version Information Complete.

/// The Disconnection Complete event, code 0x05 (Core v5.4 Vol 4 Part E §7.7.5):
/// Status (1), Connection_Handle (2), Reason (1).
public struct HCIDisconnectionCompleteEvent: Hashable, Sendable {
    /// Status of the disconnection (0x00: the link is gone).
    public var status: HCIErrorCode
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Reason the link ended (an HCI error code, e.g. 0x08 Connection Timeout, 0x13 Remote User Terminated).
    public var reason: HCIErrorCode

    /// Makes the event.
    public init(status: HCIErrorCode, handle: ConnectionHandle, reason: HCIErrorCode) {
        self.status = status
        self.handle = handle
        self.reason = reason
    }

    static func decode(_ parameters: [UInt8]) throws(HCIEventDecodingError) -> Self {
        var reader = FieldReader(parameters, event: "Disconnection Complete")
        return Self(status: try reader.status(), handle: try reader.handle(), reason: HCIErrorCode(rawValue: try reader.u8("Reason")))
    }
}

/// The Encryption Change event, code 0x08 [v1] or 0x59 [v2] (Core v5.4 Vol 4 Part E §7.7.8, §7.7.8.1):
/// Status (1), Connection_Handle (2), Encryption_Enabled (1: 0x00 off, 0x01 on with AES-CCM on LE).
public struct HCIEncryptionChangeEvent: Hashable, Sendable {
    /// Status.
    public var status: HCIErrorCode
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Encryption_Enabled byte (0x00 off; 0x01 on).
    public var encryptionEnabled: UInt8

    /// Makes the event.
    public init(status: HCIErrorCode, handle: ConnectionHandle, encryptionEnabled: UInt8) {
        self.status = status
        self.handle = handle
        self.encryptionEnabled = encryptionEnabled
    }

    /// True when the link is now encrypted.
    public var isEncrypted: Bool { encryptionEnabled != 0 }

    /// The key size in octets, from Encryption Change [v2] (event 0x59, §7.7.8.1); nil from v1.
    public var encryptionKeySize: UInt8?

    /// Decodes v1 (4 bytes) or, for `event` "Encryption Change [v2]", v2 (5 bytes: Encryption_Key_Size last).
    static func decode(_ parameters: [UInt8], event: String = "Encryption Change") throws(HCIEventDecodingError) -> Self {
        var reader = FieldReader(parameters, event: event)
        var decoded = Self(status: try reader.status(), handle: try reader.handle(), encryptionEnabled: try reader.u8("Encryption_Enabled"))
        if event != "Encryption Change" { decoded.encryptionKeySize = try reader.u8("Encryption_Key_Size") }
        return decoded
    }
}

/// The Read Remote Version Information Complete event, code 0x0C (Core v5.4 Vol 4 Part E §7.7.12):
/// Status (1), Connection_Handle (2), Version (1), Company_Identifier (2), Subversion (2).
public struct HCIReadRemoteVersionInformationCompleteEvent: Hashable, Sendable {
    /// Status.
    public var status: HCIErrorCode
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Version: the peer's LL version (Assigned Numbers).
    public var version: UInt8
    /// Company_Identifier (Assigned Numbers).
    public var companyIdentifier: UInt16
    /// Subversion, vendor defined.
    public var subversion: UInt16

    /// Makes the event.
    public init(status: HCIErrorCode, handle: ConnectionHandle, version: UInt8, companyIdentifier: UInt16, subversion: UInt16) {
        self.status = status
        self.handle = handle
        self.version = version
        self.companyIdentifier = companyIdentifier
        self.subversion = subversion
    }

    static func decode(_ parameters: [UInt8]) throws(HCIEventDecodingError) -> Self {
        var reader = FieldReader(parameters, event: "Read Remote Version Information Complete")
        return Self(status: try reader.status(), handle: try reader.handle(), version: try reader.u8("Version"),
                    companyIdentifier: try reader.u16("Company_Identifier"), subversion: try reader.u16("Subversion"))
    }
}
