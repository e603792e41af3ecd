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
