// The keys the kernel's management interface reports after pairing and takes back at start (mgmt-api.txt).

import OCBCore

/// One Long Term Key as the management interface carries it (doc/mgmt-api.txt, "New Long Term Key Event" and
/// "Load Long Term Keys Command"): `Address (6) | Address_Type (1) | Key_Type (1) | Master (1) | Encryption_Size (1) |
/// Encryption_Diversifier (2) | Random_Number (8) | Value (16)`, 36 bytes, little-endian.
public struct ManagementLongTermKey: Sendable, Hashable {
    /// The peer's identity address.
    public var address: BluetoothAddress
    /// 0x01 LE Public, 0x02 LE Random.
    public var addressType: UInt8
    /// 0x00 unauthenticated legacy, 0x01 authenticated legacy, 0x02 unauthenticated P-256 (Secure Connections),
    /// 0x03 authenticated P-256, 0x04 debug P-256.
    public var keyType: UInt8
    /// 0x01 when the key is used with this side as the central (a legacy LTK the peripheral distributed).
    public var initiator: UInt8
    /// The encryption key size, octets (7...16).
    public var encryptionSize: UInt8
    /// EDIV (0 for Secure Connections).
    public var ediv: UInt16
    /// Rand (0 for Secure Connections).
    public var rand: UInt64
    /// The key, least significant octet first (as on the wire).
    public var value: [UInt8]

    /// Makes a key.
    public init(address: BluetoothAddress, addressType: UInt8, keyType: UInt8, initiator: UInt8, encryptionSize: UInt8,
                ediv: UInt16, rand: UInt64, value: [UInt8]) {
        self.address = address
        self.addressType = addressType
        self.keyType = keyType
        self.initiator = initiator
        self.encryptionSize = encryptionSize
        self.ediv = ediv
        self.rand = rand
        self.value = value
    }

    /// Reads the 36 bytes. Throws ``OCBCore/ByteReaderError`` when cut short.
    static func read(_ reader: inout ByteReader) throws(ByteReaderError) -> ManagementLongTermKey {
        ManagementLongTermKey(address: try reader.readAddress(), addressType: try reader.readUInt8(), keyType: try reader.readUInt8(),
                              initiator: try reader.readUInt8(), encryptionSize: try reader.readUInt8(), ediv: try reader.readUInt16(),
                              rand: try reader.readUInt64(), value: try reader.readBytes(16))
    }

    /// The 36 bytes (the value cut or zero-padded to 16).
    var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 36)
        writer.write(contentsOf: address.littleEndianBytes)
        writer.write(addressType)
        writer.write(keyType)
        writer.write(initiator)
        writer.write(encryptionSize)
        writer.write(ediv)
        writer.write(rand)
        writer.write(contentsOf: Array(value.prefix(16)) + [UInt8](repeating: 0, count: max(0, 16 - value.count)))
        return writer.bytes
    }

    /// True for a key made with MITM protection (types 0x01, 0x03).
    public var isAuthenticated: Bool { keyType == 0x01 || keyType == 0x03 }
    /// True for an LE Secure Connections key (types 0x02...0x04).
    public var isSecureConnections: Bool { keyType >= 0x02 }
}

/// One Identity Resolving Key (mgmt-api.txt "New Identity Resolving Key Event", "Load Identity Resolving Keys
/// Command"): `Address (6) | Address_Type (1) | Value (16)`, 23 bytes.
public struct ManagementIdentityResolvingKey: Sendable, Hashable {
    /// The peer's identity address.
    public var address: BluetoothAddress
    /// 0x01 LE Public, 0x02 LE Random.
    public var addressType: UInt8
    /// The IRK, least significant octet first.
    public var value: [UInt8]

    /// Makes a key.
    public init(address: BluetoothAddress, addressType: UInt8, value: [UInt8]) {
        self.address = address
        self.addressType = addressType
        self.value = value
    }

    /// Reads the 23 bytes.
    static func read(_ reader: inout ByteReader) throws(ByteReaderError) -> ManagementIdentityResolvingKey {
        ManagementIdentityResolvingKey(address: try reader.readAddress(), addressType: try reader.readUInt8(), value: try reader.readBytes(16))
    }

    /// The 23 bytes.
    var bytes: [UInt8] {
        address.littleEndianBytes + [addressType] + Array(value.prefix(16)) + [UInt8](repeating: 0, count: max(0, 16 - value.count))
    }
}

extension ManagementCommand {
    /// Set Bondable (0x0009) on or off: pairings the kernel makes then bond (Bonding_Flags, and New Long Term Key with
    /// the store hint). bluetoothd sets it; without bluetoothd this host does.
    public static func setBondable(index: UInt16, _ on: Bool) -> ManagementCommand {
        ManagementCommand(opcode: .setBondable, index: index, parameters: [on ? 0x01 : 0x00])
    }

    /// Set Secure Connections (0x002D): 0x00 off, 0x01 on (LE Secure Connections when the controller supports it).
    public static func setSecureConnections(index: UInt16, _ mode: UInt8) -> ManagementCommand {
        ManagementCommand(opcode: .setSecureConnections, index: index, parameters: [mode])
    }

    /// Set IO Capability (0x0018): 0x03 NoInputNoOutput makes every pairing Just Works (Core v5.4 Vol 3 Part H
    /// §2.3.5.1 Table 2.8).
    public static func setIOCapability(index: UInt16, _ capability: UInt8) -> ManagementCommand {
        ManagementCommand(opcode: .setIOCapability, index: index, parameters: [capability])
    }

    /// User Confirmation Negative Reply (0x001D): `Address (6) | Address_Type (1)`: no to the kernel's request.
    public static func userConfirmationNegativeReply(index: UInt16, address: BluetoothAddress, addressType: UInt8) -> ManagementCommand {
        ManagementCommand(opcode: .userConfirmationNegativeReply, index: index, parameters: address.littleEndianBytes + [addressType])
    }

    /// User Confirmation Reply (0x001C): `Address (6) | Address_Type (1)`: yes to the kernel's User Confirmation Request.
    public static func userConfirmationReply(index: UInt16, address: BluetoothAddress, addressType: UInt8) -> ManagementCommand {
        ManagementCommand(opcode: .userConfirmationReply, index: index, parameters: address.littleEndianBytes + [addressType])
    }

    /// Load Long Term Keys (0x0013): `Key_Count (2) | Key × Key_Count`; replaces the kernel's whole list for the
    /// controller (so only when no bluetoothd keeps its own). Needs a trusted socket (CAP_NET_ADMIN).
    public static func loadLongTermKeys(index: UInt16, _ keys: [ManagementLongTermKey]) -> ManagementCommand {
        var writer = ByteWriter(capacity: 2 + 36 * keys.count)
        writer.write(UInt16(clamping: keys.count))
        for key in keys.prefix(Int(UInt16.max)) { writer.write(contentsOf: key.bytes) }
        return ManagementCommand(opcode: .loadLongTermKeys, index: index, parameters: writer.bytes)
    }

    /// Load Identity Resolving Keys (0x0030): `IRK_Count (2) | IRK × IRK_Count`; replaces the kernel's list.
    public static func loadIdentityResolvingKeys(index: UInt16, _ keys: [ManagementIdentityResolvingKey]) -> ManagementCommand {
        var writer = ByteWriter(capacity: 2 + 23 * keys.count)
        writer.write(UInt16(clamping: keys.count))
        for key in keys.prefix(Int(UInt16.max)) { writer.write(contentsOf: key.bytes) }
        return ManagementCommand(opcode: .loadIdentityResolvingKeys, index: index, parameters: writer.bytes)
    }
}
