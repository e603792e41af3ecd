// What a plain controller answers to the commands a recording made by another stack never sent (tolerant replay).

import OCBHCI

/// Answers for commands a tolerant replay finds no recorded answer for (``TolerantReplay``).
///
/// Commands of bring-up, scanning and connecting get success with typical values of an LE-only Bluetooth 5.3
/// controller: every command supported, 251-byte ACL buffers (8 of them), LE features encryption, data length
/// extension, 2M PHY, extended advertising; a zero public address (so the host uses a random one). Commands a
/// controller answers with Command Status (a connect, a disconnect) get status success. Any other command gets
/// Command Complete with Unknown HCI Command (0x01), as a controller that lacks it answers (Core v5.4 Vol 1 Part F §1.3).
enum ReplayDefaults {
    /// Commands answered with Command Status (Vol 4 Part E §7.7.15), not Command Complete.
    static let statusCommands: Set<UInt16> = [0x0406, 0x041D, 0x200D, 0x2013, 0x2016, 0x2019, 0x2032, 0x2043]

    /// Return parameters after the status byte, by opcode.
    static let returnParameters: [UInt16: [UInt8]] = [
        0x1001: [0x0C, 0x00, 0x00, 0x0C, 0xFF, 0xFF, 0x00, 0x00],  // Read Local Version: HCI 5.3, LMP 5.3
        0x1002: [UInt8](repeating: 0xFF, count: 64),  // Read Local Supported Commands
        0x1003: [0x00, 0x00, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00],  // Read Local Supported Features: LE, no BR/EDR
        0x1005: [0xFD, 0x03, 0x00, 0x08, 0x00, 0x00, 0x00],  // Read Buffer Size: 1021 bytes × 8
        0x1009: [0x00, 0x00, 0x00, 0x00, 0x00, 0x00],  // Read BD_ADDR
        0x2002: [0xFB, 0x00, 0x08],  // LE Read Buffer Size: 251 bytes × 8
        0x2060: [0xFB, 0x00, 0x08, 0x00, 0x00, 0x00],  // LE Read Buffer Size v2, no ISO
        0x2003: [0xFF, 0x53, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],  // LE Read Local Supported Features
        0x200F: [0x10],  // LE Read Filter Accept List Size
        0x2018: [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF],  // LE Rand (fixed: a replay is the same every run)
        0x201C: [UInt8](repeating: 0xFF, count: 8),  // LE Read Supported States
        0x2023: [0xFB, 0x00, 0x48, 0x08],  // LE Read Suggested Default Data Length
        0x202F: [0xFB, 0x00, 0x48, 0x08, 0xFB, 0x00, 0x48, 0x08],  // LE Read Maximum Data Length
        0x203A: [0x1F, 0x06],  // LE Read Maximum Advertising Data Length
        0x203B: [0x10],  // LE Read Number of Supported Advertising Sets
    ]

    /// Commands whose Command Complete carries only the status.
    static let statusOnly: Set<UInt16> = [
        0x0C01, 0x0C03, 0x0C63, 0x0C6D, 0x2001, 0x2005, 0x2006, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200E, 0x2010,
        0x2011, 0x2012, 0x2024, 0x2027, 0x2029, 0x202D, 0x202E, 0x2031, 0x2041, 0x2042, 0x204E,
    ]

    /// The answer to `opcode` and whether the command is one of the known ones (false: Unknown HCI Command).
    static func answer(to opcode: UInt16, params: [UInt8]) -> (HCIPacket, known: Bool) {
        let low = UInt8(opcode & 0xFF), high = UInt8(opcode >> 8)
        if statusCommands.contains(opcode) {
            return (HCIPacket(type: .event, bytes: [0x0F, 4, 0x00, 0x01, low, high]), true)
        }
        let known: Bool
        var body: [UInt8]
        if let parameters = returnParameters[opcode] {
            (known, body) = (true, [0x00] + parameters)
        } else if statusOnly.contains(opcode) {
            (known, body) = (true, [0x00])
        } else if opcode == 0x2022, params.count >= 2 {
            (known, body) = (true, [0x00, params[0], params[1]])  // LE Set Data Length: status, Connection_Handle
        } else {
            (known, body) = (false, [0x01])
        }
        let bytes: [UInt8] = [0x0E, UInt8(truncatingIfNeeded: 3 + body.count), 0x01, low, high] + body
        return (HCIPacket(type: .event, bytes: bytes), known)
    }
}
