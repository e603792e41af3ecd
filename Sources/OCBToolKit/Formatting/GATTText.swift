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
            return 2 + Hex.writeUppercase(UInt64(value), digits: 4, into: UnsafeMutableBufferPointer(rebasing: text[2...]))
        }
    }

    /// Appends ``handle(_:)``'s text to `out`.
    public static func appendHandle(_ value: UInt16, to out: inout LineBuffer) {
        out.append("0x")
        out.append(atMost: 4) { Hex.writeUppercase(UInt64(value), digits: 4, into: $0) }
    }

    /// "0x000E": an attribute handle, 4 upper-case hex digits.
    public static func handle(_ handle: AttributeHandle) -> String { self.handle(handle.rawValue) }

    /// "0x0040": a connection handle, 4 upper-case hex digits.
    public static func handle(_ handle: ConnectionHandle) -> String { self.handle(handle.rawValue) }

    /// "2A37 Heart Rate Measurement", or the bare UUID when the assigned numbers do not name it.
    public static func uuid(_ uuid: BluetoothUUID) -> String {
        var text = LineBuffer(capacity: 64)
        appendUUID(uuid, to: &text)
        return text.text
    }

    /// Appends ``uuid(_:)``'s text to `out`.
    public static func appendUUID(_ uuid: BluetoothUUID, to out: inout LineBuffer) {
        out.append(contentsOf: uuid.description)
        if let name = AssignedNumbers.name(for: uuid) {
            out.append(" ")
            out.append(contentsOf: name)
        }
    }

    /// "Apple, Inc. (0x004C)", or "company 0xFFFF" when unassigned.
    public static func company(_ id: UInt16) -> String {
        var text = LineBuffer(capacity: 64)
        appendCompany(id, to: &text)
        return text.text
    }

    /// Appends ``company(_:)``'s text to `out`.
    public static func appendCompany(_ id: UInt16, to out: inout LineBuffer) {
        if let name = AssignedNumbers.companyName(id) {
            out.append(contentsOf: name)
            out.append(" (")
            appendHandle(id, to: &out)
            out.append(")")
        } else {
            out.append("company ")
            appendHandle(id, to: &out)
        }
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

    /// Appends ``bytes(_:)``'s text to `out`.
    public static func appendBytes(_ value: [UInt8], to out: inout LineBuffer) {
        if value.isEmpty { out.append("(empty)") } else { out.appendHex(value, separator: " ") }
    }
}
