// The ATT attribute handle: which attribute of a server's database a PDU is about.

import OCBCore

/// An attribute handle (Core v5.4 Vol 3 Part F §3.2.2): 16 bits, 0x0001...0xFFFF for attributes (0x0000 is reserved
/// and names none). A distinct type so it is never mixed up with an HCI connection handle. Every 16-bit value read
/// from a PDU is a handle value; whether it names an attribute is for the reader to check.
///
/// Arithmetic: `+`/`-` with a `UInt16` trap on overflow like `UInt16`'s own, so code working on handles from the air
/// checks the bound first (``next`` does, giving nil after 0xFFFF); `&+`/`&-` wrap.
public struct AttributeHandle: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
                               CustomStringConvertible {
    /// The handle value.
    public let rawValue: UInt16

    /// The handle `rawValue`.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A handle written as a number (tests, fixtures, the spec's ranges).
    public init(integerLiteral value: UInt16) { self.rawValue = value }

    /// The first attribute handle, 0x0001.
    public static let first: AttributeHandle = 0x0001
    /// The last attribute handle, 0xFFFF.
    public static let last: AttributeHandle = 0xFFFF

    /// The handle after this one; nil after 0xFFFF.
    public var next: AttributeHandle? { rawValue < 0xFFFF ? AttributeHandle(rawValue: rawValue + 1) : nil }

    public static func < (lhs: AttributeHandle, rhs: AttributeHandle) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The handle `rhs` after `lhs`; traps past 0xFFFF like `UInt16` (check first, or use `&+`).
    public static func + (lhs: AttributeHandle, rhs: UInt16) -> AttributeHandle { AttributeHandle(rawValue: lhs.rawValue + rhs) }
    /// The handle `rhs` before `lhs`; traps below 0x0000 like `UInt16` (check first, or use `&-`).
    public static func - (lhs: AttributeHandle, rhs: UInt16) -> AttributeHandle { AttributeHandle(rawValue: lhs.rawValue - rhs) }
    /// Moves `lhs` `rhs` handles on; traps past 0xFFFF like `UInt16` (check first).
    public static func += (lhs: inout AttributeHandle, rhs: UInt16) { lhs = lhs + rhs }
    /// The handle `rhs` after `lhs`, wrapping past 0xFFFF.
    public static func &+ (lhs: AttributeHandle, rhs: UInt16) -> AttributeHandle { AttributeHandle(rawValue: lhs.rawValue &+ rhs) }
    /// The handle `rhs` before `lhs`, wrapping below 0x0000.
    public static func &- (lhs: AttributeHandle, rhs: UInt16) -> AttributeHandle { AttributeHandle(rawValue: lhs.rawValue &- rhs) }

    /// "0x0003".
    public var description: String { "0x" + Hex.uppercase(rawValue, digits: 4) }
}

extension ByteWriter {
    /// Writes an attribute handle: 2 bytes little-endian (Vol 3 Part F §3.3.1).
    public mutating func write(_ handle: AttributeHandle) { write(handle.rawValue) }
}

extension ByteReader {
    /// Reads an attribute handle: 2 bytes little-endian. Throws ``ByteReaderError`` when fewer remain.
    public mutating func readAttributeHandle() throws(ByteReaderError) -> AttributeHandle {
        AttributeHandle(rawValue: try readUInt16())
    }
}
