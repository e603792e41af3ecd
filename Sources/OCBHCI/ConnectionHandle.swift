// The HCI Connection_Handle: which connection an ACL packet, command or event is about.

import OCBCore

/// A Connection_Handle (Core v5.4 Vol 4 Part E §5.4.2, §7.7.65.1): 12 bits, 0x0000...0x0EFF, assigned by the
/// controller when a connection is made. A distinct type so it is never mixed up with an ATT attribute handle.
/// On the wire it is the low 12 bits of a 16-bit little-endian field (the high 4 bits of an ACL header carry the
/// flags); ``init(field:)`` drops them, so any 16-bit value read from a controller makes a handle without trapping.
public struct ConnectionHandle: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
                                CustomStringConvertible {
    /// The handle, 0x0000...0x0FFF (0x0F00 and above are reserved).
    public let rawValue: UInt16

    /// The handle `rawValue` as given.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The handle in the low 12 bits of a 16-bit field read from the wire.
    public init(field: UInt16) { self.rawValue = field & 0x0FFF }

    /// A handle written as a number (tests, fixtures).
    public init(integerLiteral value: UInt16) { self.rawValue = value }

    public static func < (lhs: ConnectionHandle, rhs: ConnectionHandle) -> Bool { lhs.rawValue < rhs.rawValue }

    /// "0x0040".
    public var description: String {
        let digits = String(rawValue, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension ConnectionHandle {
    /// The 16-bit field on the wire, little-endian, with the high 4 bits (reserved or flags) zero.
    public var fieldBytes: [UInt8] { [UInt8(truncatingIfNeeded: rawValue), UInt8(truncatingIfNeeded: rawValue >> 8) & 0x0F] }
}

extension ByteWriter {
    /// Writes a Connection_Handle field: 2 bytes little-endian, high 4 bits zero (Vol 4 Part E §5.4.2).
    public mutating func write(_ handle: ConnectionHandle) { write(handle.rawValue & 0x0FFF) }
}
