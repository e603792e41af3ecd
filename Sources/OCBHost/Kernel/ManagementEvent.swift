// An event of the kernel's management interface (BlueZ doc/mgmt-api.txt) decoded from one control-socket read.

import OCBCore

/// One management event: `Event_Code (2) | Controller_Index (2) | Parameter_Length (2) | Parameters`, little-endian
/// (mgmt-api.txt "Packet Structures"). Only the events the kernel path acts on are decoded; the rest are
/// ``Kind/other(code:)``. Reads are one event each; bytes after the declared length are ignored.
public struct ManagementEvent: Sendable, Hashable {
    /// The controller the event is about (N of hciN), 0xFFFF for none.
    public let index: UInt16
    /// What happened.
    public let kind: Kind

    /// The events decoded.
    public enum Kind: Sendable, Hashable {
        /// Command Complete (0x0001): `Command_Opcode (2) | Status (1) | Return_Parameters`.
        case commandComplete(ManagementOpcode, ManagementStatus, returnParameters: [UInt8])
        /// Command Status (0x0002): `Command_Opcode (2) | Status (1)`.
        case commandStatus(ManagementOpcode, ManagementStatus)
        /// Index Added (0x0004): a controller appeared.
        case indexAdded
        /// Index Removed (0x0005): the controller is gone.
        case indexRemoved
        /// New Settings (0x0006): `Current_Settings (4)`; bit 0 Powered, bit 9 Low Energy.
        case newSettings(UInt32)
        /// Discovering (0x0013): `Address_Type (1) | Discovering (1)`: a discovery (any client's) started or ended.
        case discovering(addressTypes: UInt8, isDiscovering: Bool)
        /// New Long Term Key (0x000A): `Store_Hint (1) | Key (36)`; the kernel paired and hands the key to be kept.
        case newLongTermKey(storeHint: Bool, ManagementLongTermKey)
        /// Authentication Failed (0x0011): `Address (6) | Address_Type (1) | Status (1)`: pairing or encryption failed.
        case authenticationFailed(BluetoothAddress, addressType: UInt8, status: ManagementStatus)
        /// User Confirmation Request (0x000F): `Address (6) | Address_Type (1) | Confirm_Hint (1) | Value (4)`; the
        /// kernel's pairing waits for User Confirmation Reply (hint 0x01: a plain yes/no, as for Just Works).
        case userConfirmationRequest(BluetoothAddress, addressType: UInt8, confirmHint: UInt8, value: UInt32)
        /// New Signature Resolving Key (0x0019): `Store_Hint (1) | Address (6) | Address_Type (1) | Type (1) | Value (16)`;
        /// Type 0x00/0x02 this side's CSRK (unauthenticated/authenticated), 0x01/0x03 the peer's.
        case newSignatureResolvingKey(storeHint: Bool, address: BluetoothAddress, addressType: UInt8, type: UInt8, value: [UInt8])
        /// New Identity Resolving Key (0x0018): `Store_Hint (1) | Random_Address (6) | Key (23)`.
        case newIdentityResolvingKey(storeHint: Bool, randomAddress: BluetoothAddress, ManagementIdentityResolvingKey)
        /// Any other event, by its code.
        case other(code: UInt16)
    }

    /// Decodes one read. Throws ``ManagementEventError`` naming the event and the field cut short; nothing is trapped.
    public init(bytes: [UInt8]) throws(ManagementEventError) {
        var reader = ByteReader(bytes)
        let code: UInt16, length: UInt16
        do {
            code = try reader.readUInt16()
            index = try reader.readUInt16()
            length = try reader.readUInt16()
        } catch {
            throw ManagementEventError(code: nil, field: "header", cause: error)
        }
        guard reader.remaining >= Int(length) else {
            throw ManagementEventError(code: code, field: "parameters",
                                       cause: ByteReaderError(offset: 6, needed: Int(length), available: reader.remaining))
        }
        var body = ByteReader(bytes[6..<(6 + Int(length))])
        do {
            switch code {
            case 0x0001:
                kind = .commandComplete(ManagementOpcode(rawValue: try body.readUInt16()), ManagementStatus(rawValue: try body.readUInt8()),
                                        returnParameters: body.readRemaining())
            case 0x0002:
                kind = .commandStatus(ManagementOpcode(rawValue: try body.readUInt16()), ManagementStatus(rawValue: try body.readUInt8()))
            case 0x0004: kind = .indexAdded
            case 0x0005: kind = .indexRemoved
            case 0x0006: kind = .newSettings(try body.readUInt32())
            case 0x0013: kind = .discovering(addressTypes: try body.readUInt8(), isDiscovering: try body.readUInt8() != 0)
            case 0x000A: kind = .newLongTermKey(storeHint: try body.readUInt8() != 0, try ManagementLongTermKey.read(&body))
            case 0x0011:
                kind = .authenticationFailed(try body.readAddress(), addressType: try body.readUInt8(), status: ManagementStatus(rawValue: try body.readUInt8()))
            case 0x0019:
                kind = .newSignatureResolvingKey(storeHint: try body.readUInt8() != 0, address: try body.readAddress(),
                                                 addressType: try body.readUInt8(), type: try body.readUInt8(), value: try body.readBytes(16))
            case 0x000F:
                kind = .userConfirmationRequest(try body.readAddress(), addressType: try body.readUInt8(), confirmHint: try body.readUInt8(),
                                                value: try body.readUInt32())
            case 0x0018:
                kind = .newIdentityResolvingKey(storeHint: try body.readUInt8() != 0, randomAddress: try body.readAddress(),
                                                try ManagementIdentityResolvingKey.read(&body))
            default: kind = .other(code: code)
            }
        } catch {
            throw ManagementEventError(code: code, field: "parameters",
                                       cause: ByteReaderError(offset: 6 + error.offset, needed: error.needed, available: error.available))
        }
    }

    /// An event from its fields.
    public init(index: UInt16, kind: Kind) {
        self.index = index
        self.kind = kind
    }

    /// Bit 0 of Current_Settings (mgmt-api.txt "Read Controller Information Command").
    public static let poweredSetting: UInt32 = 1 << 0
}

/// A management event too short for its fields: which event (nil when the header itself was cut), which field, and
/// where (``ByteReaderError``'s offset from the start of the read).
public struct ManagementEventError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The event code, nil when the 6-byte header was incomplete.
    public let code: UInt16?
    /// "header" or "parameters".
    public let field: String
    /// The short read.
    public let cause: ByteReaderError

    /// An error from its fields.
    public init(code: UInt16?, field: String, cause: ByteReaderError) {
        self.code = code
        self.field = field
        self.cause = cause
    }

    /// "malformed management event 0x0006: parameters: short read at offset 6: ...".
    public var description: String {
        "malformed management event" + (code.map { " 0x" + String($0, radix: 16) } ?? "") + ": \(field): \(cause)"
    }
}
