// A command of the kernel's management interface (BlueZ doc/mgmt-api.txt) as the bytes written to the control socket.

import OCBCore

/// A management command: `Command_Code (2) | Controller_Index (2) | Parameter_Length (2) | Parameters`, every field
/// little-endian (mgmt-api.txt "Packet Structures"). Only the commands the kernel path uses are named.
public struct ManagementCommand: Sendable, Hashable {
    /// The command code.
    public let opcode: ManagementOpcode
    /// The controller (N of hciN), or 0xFFFF for commands about no controller.
    public let index: UInt16
    /// The parameters after the header.
    public let parameters: [UInt8]

    /// A command from its fields.
    public init(opcode: ManagementOpcode, index: UInt16, parameters: [UInt8] = []) {
        self.opcode = opcode
        self.index = index
        self.parameters = parameters
    }

    /// The LE address types of a discovery, bits 1 (LE Public) and 2 (LE Random).
    public static let leAddressTypes: UInt8 = 0x06

    /// Start Discovery (0x0023) on hci`index` for `addressTypes` (bit 0 BR/EDR, 1 LE Public, 2 LE Random; 0x06 = LE):
    /// the kernel scans actively until its round ends (10.24 s for LE, `DISCOV_LE_TIMEOUT`) or Stop Discovery, and
    /// answers Busy while another client's discovery runs (mgmt-api.txt "Start Discovery Command").
    public static func startDiscovery(index: UInt16, addressTypes: UInt8 = 0x06) -> ManagementCommand {
        ManagementCommand(opcode: .startDiscovery, index: index, parameters: [addressTypes])
    }

    /// Stop Discovery (0x0024) with the address types the discovery was started with; Rejected when none runs.
    public static func stopDiscovery(index: UInt16, addressTypes: UInt8 = 0x06) -> ManagementCommand {
        ManagementCommand(opcode: .stopDiscovery, index: index, parameters: [addressTypes])
    }

    /// Read Controller Information (0x0004): answers with the current settings among other fields (untrusted sockets
    /// may send it).
    public static func readControllerInformation(index: UInt16) -> ManagementCommand {
        ManagementCommand(opcode: .readControllerInformation, index: index)
    }

    /// The bytes to write, header first. Parameters longer than 65,535 bytes are cut to that length.
    public var bytes: [UInt8] {
        let body = parameters.prefix(Int(UInt16.max))
        var writer = ByteWriter(capacity: 6 + body.count)
        writer.write(opcode.rawValue)
        writer.write(index)
        writer.write(UInt16(body.count))
        writer.write(contentsOf: body)
        return writer.bytes
    }
}

/// The management command codes the kernel path uses (mgmt-api.txt); others keep their code.
public struct ManagementOpcode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The two-byte command code.
    public let rawValue: UInt16
    /// A code.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Read Controller Information Command, 0x0004.
    public static let readControllerInformation = ManagementOpcode(rawValue: 0x0004)
    /// Set Powered Command, 0x0005.
    public static let setPowered = ManagementOpcode(rawValue: 0x0005)
    /// Start Discovery Command, 0x0023.
    public static let startDiscovery = ManagementOpcode(rawValue: 0x0023)
    /// Stop Discovery Command, 0x0024.
    public static let stopDiscovery = ManagementOpcode(rawValue: 0x0024)

    /// The document's name and the code, e.g. "Start Discovery (0x0023)".
    public var description: String {
        let names: [UInt16: String] = [0x0004: "Read Controller Information", 0x0005: "Set Powered",
                                       0x0023: "Start Discovery", 0x0024: "Stop Discovery"]
        let hex = String(rawValue, radix: 16, uppercase: true)
        return "\(names[rawValue] ?? "management command") (0x\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))"
    }
}
