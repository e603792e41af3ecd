// Link-layer encryption commands: LE Enable Encryption (formerly LE Start Encryption) and the Long Term Key Request replies.

import OCBCore

/// HCI LE Enable Encryption (called LE Start Encryption before Core v5.3) (Core v5.4 Vol 4 Part E §7.8.24): Connection_Handle (2),
/// Random_Number (8), Encrypted_Diversifier (2), Long_Term_Key (16, least significant byte first);
/// answered by Command Status, completed by Encryption Change or Encryption Key Refresh Complete.
public struct HCILEEnableEncryption: HCICommand {
    /// 0x2019 (OGF 0x08 LE Controller, OCF 0x0019).
    public static let opcode = HCIOpcode.leEnableEncryption
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Random_Number (Rand), 0 for LE Secure Connections keys.
    public var randomNumber: UInt64
    /// Encrypted_Diversifier (EDIV), 0 for LE Secure Connections keys.
    public var encryptedDiversifier: UInt16
    /// Long_Term_Key, 16 bytes in wire order (least significant first); shorter keys are zero-padded, longer cut.
    public var longTermKey: [UInt8]
    /// Makes the command.
    public init(handle: ConnectionHandle, randomNumber: UInt64, encryptedDiversifier: UInt16, longTermKey: [UInt8]) {
        self.handle = handle
        self.randomNumber = randomNumber
        self.encryptedDiversifier = encryptedDiversifier
        self.longTermKey = longTermKey
    }
    /// The 28 bytes: Connection_Handle (cut to 12 bits), Random_Number (8), Encrypted_Diversifier (2), all
    /// little-endian, then the 16 key bytes.
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 28)
        writer.write(handle)
        writer.write(randomNumber)
        writer.write(encryptedDiversifier)
        writer.write(contentsOf: paddedKey(longTermKey))
        return writer.bytes
    }
}

/// The 16-byte key field: cut or zero-padded to 16 bytes.
func paddedKey(_ key: [UInt8]) -> [UInt8] {
    Array(key.prefix(16)) + [UInt8](repeating: 0, count: max(0, 16 - key.count))
}

/// HCI LE Long Term Key Request Reply (Core v5.4 Vol 4 Part E §7.8.25): Connection_Handle (2),
/// Long_Term_Key (16, least significant byte first); returns Connection_Handle.
public struct HCILELongTermKeyRequestReply: HCICommand {
    /// 0x201A (OGF 0x08 LE Controller, OCF 0x001A).
    public static let opcode = HCIOpcode.leLongTermKeyRequestReply
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Long_Term_Key, 16 bytes in wire order.
    public var longTermKey: [UInt8]
    /// Makes the command.
    public init(handle: ConnectionHandle, longTermKey: [UInt8]) {
        self.handle = handle
        self.longTermKey = longTermKey
    }
    /// The 18 bytes: Connection_Handle (little-endian, cut to 12 bits), then the key cut or zero-padded to 16 bytes.
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 18)
        writer.write(handle)
        writer.write(contentsOf: paddedKey(longTermKey))
        return writer.bytes
    }
    /// Decodes Connection_Handle.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> ConnectionHandle {
        try decodeHandle(bytes, command: opcode)
    }
}

/// HCI LE Long Term Key Request Negative Reply (Core v5.4 Vol 4 Part E §7.8.26): Connection_Handle (2);
/// returns Connection_Handle.
public struct HCILELongTermKeyRequestNegativeReply: HCICommand {
    /// 0x201B (OGF 0x08 LE Controller, OCF 0x001B).
    public static let opcode = HCIOpcode.leLongTermKeyRequestNegativeReply
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Makes the command.
    public init(handle: ConnectionHandle) { self.handle = handle }
    /// The 2 bytes of Connection_Handle, little-endian, cut to 12 bits.
    public var parameters: [UInt8] { handle.fieldBytes }
    /// Decodes Connection_Handle.
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> ConnectionHandle {
        try decodeHandle(bytes, command: opcode)
    }
}
