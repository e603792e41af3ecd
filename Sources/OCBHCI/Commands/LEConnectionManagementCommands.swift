// Commands on an open connection: parameter update and replies, remote features and version, RSSI.

import OCBCore

/// Decodes a lone Connection_Handle return parameter (2 bytes, 12 bits used).
func decodeHandle(_ bytes: [UInt8], command: HCIOpcode) throws(HCIEventDecodingError) -> ConnectionHandle {
    var reader = FieldReader(bytes, event: command.name)
    return try reader.handle()
}

/// HCI LE Connection Update (Core v5.4 Vol 4 Part E §7.8.18): Connection_Handle (2) then ``LEConnectionParameters`` (12);
/// answered by Command Status, completed by LE Connection Update Complete.
public struct HCILEConnectionUpdate: HCICommand {
    /// 0x2013 (OGF 0x08 LE Controller, OCF 0x0013).
    public static let opcode = HCIOpcode.leConnectionUpdate
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// The requested parameters.
    public var connection: LEConnectionParameters
    /// Makes the command.
    public init(handle: ConnectionHandle, connection: LEConnectionParameters) {
        self.handle = handle
        self.connection = connection
    }
    /// The 14 bytes: Connection_Handle (cut to 12 bits), then the 12 parameter bytes, all little-endian.
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 14)
        writer.write(handle)
        connection.write(to: &writer)
        return writer.bytes
    }
}

/// HCI LE Remote Connection Parameter Request Reply (Core v5.4 Vol 4 Part E §7.8.31): Connection_Handle (2),
/// then ``LEConnectionParameters`` (12); returns Connection_Handle.
public struct HCILERemoteConnectionParameterRequestReply: HCICommand {
    /// 0x2020 (OGF 0x08 LE Controller, OCF 0x0020).
    public static let opcode = HCIOpcode.leRemoteConnectionParameterRequestReply
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// The accepted parameters.
    public var connection: LEConnectionParameters
    /// Makes the command.
    public init(handle: ConnectionHandle, connection: LEConnectionParameters) {
        self.handle = handle
        self.connection = connection
    }
    /// The 14 bytes: Connection_Handle (cut to 12 bits), then the 12 parameter bytes, all little-endian.
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 14)
        writer.write(handle)
        connection.write(to: &writer)
        return writer.bytes
    }
    /// Decodes Connection_Handle.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> ConnectionHandle {
        try decodeHandle(bytes, command: opcode)
    }
}

/// HCI LE Remote Connection Parameter Request Negative Reply (Core v5.4 Vol 4 Part E §7.8.32):
/// Connection_Handle (2), Reason (1, usually 0x3B Unacceptable Connection Parameters); returns Connection_Handle.
public struct HCILERemoteConnectionParameterRequestNegativeReply: HCICommand {
    /// 0x2021 (OGF 0x08 LE Controller, OCF 0x0021).
    public static let opcode = HCIOpcode.leRemoteConnectionParameterRequestNegativeReply
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Reason.
    public var reason: HCIErrorCode
    /// Makes the command.
    public init(handle: ConnectionHandle, reason: HCIErrorCode = .unacceptableConnectionParameters) {
        self.handle = handle
        self.reason = reason
    }
    /// The 3 bytes: Connection_Handle (little-endian, cut to 12 bits), Reason.
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 3)
        writer.write(handle)
        writer.write(reason.rawValue)
        return writer.bytes
    }
    /// Decodes Connection_Handle.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> ConnectionHandle {
        try decodeHandle(bytes, command: opcode)
    }
}

/// HCI LE Read Remote Features (Core v5.4 Vol 4 Part E §7.8.21): Connection_Handle (2); answered by Command Status,
/// completed by LE Read Remote Features Complete.
public struct HCILEReadRemoteFeatures: HCICommand {
    /// 0x2016 (OGF 0x08 LE Controller, OCF 0x0016).
    public static let opcode = HCIOpcode.leReadRemoteFeatures
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Makes the command.
    public init(handle: ConnectionHandle) { self.handle = handle }
    /// The 2 bytes of Connection_Handle, little-endian, cut to 12 bits.
    public var parameters: [UInt8] { handle.fieldBytes }
}

/// HCI Read Remote Version Information (Core v5.4 Vol 4 Part E §7.1.23): Connection_Handle (2); answered by
/// Command Status, completed by Read Remote Version Information Complete.
public struct HCIReadRemoteVersionInformation: HCICommand {
    /// 0x041D (OGF 0x01 Link Control, OCF 0x001D).
    public static let opcode = HCIOpcode.readRemoteVersionInformation
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Makes the command.
    public init(handle: ConnectionHandle) { self.handle = handle }
    /// The 2 bytes of Connection_Handle, little-endian, cut to 12 bits.
    public var parameters: [UInt8] { handle.fieldBytes }
}

/// HCI Read RSSI (Core v5.4 Vol 4 Part E §7.5.4): Connection_Handle (2); returns Connection_Handle (2), RSSI (1, dBm).
public struct HCIReadRSSI: HCICommand {
    /// Return parameters after Status.
    public struct ReturnParameters: Hashable, Sendable {
        /// Connection_Handle.
        public var handle: ConnectionHandle
        /// RSSI in dBm (on LE the absolute received signal strength, -127...20).
        public var rssi: Int8
        /// Makes the value from its fields.
        public init(handle: ConnectionHandle, rssi: Int8) {
            self.handle = handle
            self.rssi = rssi
        }
    }
    /// 0x1405 (OGF 0x05 Status Parameters, OCF 0x0005).
    public static let opcode = HCIOpcode.readRSSI
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Makes the command.
    public init(handle: ConnectionHandle) { self.handle = handle }
    /// The 2 bytes of Connection_Handle, little-endian, cut to 12 bits.
    public var parameters: [UInt8] { handle.fieldBytes }
    /// Decodes Connection_Handle (12 bits kept) and RSSI (signed, dBm), 3 bytes after Status. Throws
    /// ``HCIEventDecodingError`` naming the first field that is short; an RSSI outside -127...20 is kept as sent.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> ReturnParameters {
        var reader = FieldReader(bytes, event: opcode.name)
        return ReturnParameters(handle: try reader.handle(), rssi: try reader.i8("RSSI"))
    }
}
