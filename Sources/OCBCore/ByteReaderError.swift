// The typed error a bounds-checked read of outside bytes throws.

/// A read that asked for more bytes than the input holds.
///
/// Thrown by ``ByteReader``; carries where the read started so a caller can say
/// exactly which field of a packet, report or file was cut short.
public struct ByteReaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Offset (in bytes, from the start of the reader's input) at which the read began.
    public let offset: Int
    /// Number of bytes the read needed.
    public let needed: Int
    /// Number of bytes that were left at `offset`.
    public let available: Int

    /// Makes the error for a read of `needed` bytes at `offset` with `available` left.
    public init(offset: Int, needed: Int, available: Int) {
        self.offset = offset
        self.needed = needed
        self.available = available
    }

    public var description: String {
        "short read at offset \(offset): needed \(needed) byte(s), \(available) available"
    }
}
