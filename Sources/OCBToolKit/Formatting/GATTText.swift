// Small text pieces shared by cbtool's printers: handles, UUIDs with their assigned names, hex values.

import OCBCore
import OCBATT
import OCBHCI

/// Text for handles, UUIDs and raw values, the same everywhere in cbtool's output.
public enum GATTText {
    /// "0x000E": an attribute or connection handle, 4 upper-case hex digits.
    public static func handle(_ value: UInt16) -> String {
        String(unsafeUninitializedCapacity: 6) { text in
            text[0] = UInt8(ascii: "0")
            text[1] = UInt8(ascii: "x")
            for place in 0..<4 {
                let nibble = Int(value >> (12 - 4 * place) & 0x0F)
                text[2 + place] = nibble < 10 ? UInt8(ascii: "0") + UInt8(nibble) : UInt8(ascii: "A") + UInt8(nibble - 10)
            }
            return 6
        }
    }

    /// "0x000E": an attribute handle, 4 upper-case hex digits.
    public static func handle(_ handle: AttributeHandle) -> String { self.handle(handle.rawValue) }

    /// "0x0040": a connection handle, 4 upper-case hex digits.
    public static func handle(_ handle: ConnectionHandle) -> String { self.handle(handle.rawValue) }

    /// "2A37 Heart Rate Measurement", or the bare UUID when the assigned numbers do not name it.
    public static func uuid(_ uuid: BluetoothUUID) -> String {
        AssignedNumbers.name(for: uuid).map { "\(uuid) \($0)" } ?? uuid.description
    }

    /// "Apple, Inc. (0x004C)", or "company 0xFFFF" when unassigned.
    public static func company(_ id: UInt16) -> String {
        let code = handle(id)
        return AssignedNumbers.companyName(id).map { "\($0) (\(code))" } ?? "company \(code)"
    }

    /// "1 connection", "0 connections", "2 read blobs": `value`, a space, then `plural` (a noun phrase ending in "s")
    /// with that "s" dropped when `value` is exactly 1.
    public static func count(_ value: Int, _ plural: String) -> String {
        "\(value) " + (value == 1 && plural.hasSuffix("s") ? String(plural.dropLast()) : plural)
    }

    /// Lower-case hex bytes separated by spaces ("01 ff"); "(empty)" for no bytes.
    public static func bytes(_ value: [UInt8]) -> String {
        value.isEmpty ? "(empty)" : Hex.string(value, separator: " ")
    }
}
