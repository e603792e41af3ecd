// A byte buffer for output text that grows at its end and keeps its storage when emptied: what cbtool's scan lines are written into.

import OCBCore

/// UTF-8 output text appended piece by piece: the held lines of an ``OutputSink`` and the JSON line of each
/// advertisement (``AdvertiserFormatter/writeJSONLine(_:microsecondsSince1970:into:)``).
///
/// Shape: ``count`` bytes of text in storage of its own (not copyable: one owner writes it, passed `inout`), followed by
/// room not yet written. Each append checks the room once and copies: `[UInt8].append(contentsOf:)` costs about 90
/// instructions a call and an array's subscript checks that its storage is unshared at every byte, where a scan line is
/// about 40 pieces. ``removeAll()`` keeps the storage, so a buffer reused for every batch of lines allocates only while
/// it grows. Bound: the caller's (an ``OutputSink`` holds at most ``OutputSink/heldLimit`` lines); growing at least
/// doubles the storage, so it is at most twice the most ever written at once, or the capacity it was made with (at
/// least 16 bytes), whichever is more; it keeps that size until it is let go.
public struct LineBuffer: ~Copyable {
    /// The storage: ``count`` bytes of text, then room up to ``capacity``.
    private var base: UnsafeMutablePointer<UInt8>
    /// The bytes of storage.
    private var capacity: Int
    /// The bytes of text written.
    public private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes (at least 16).
    public init(capacity: Int = 0) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// True when nothing is written.
    public var isEmpty: Bool { count == 0 }

    /// Empties the buffer and keeps its storage.
    public mutating func removeAll() { count = 0 }

    /// Makes room for `more` bytes after the text (the check inlined at every append; growing is not).
    @inline(__always) private mutating func reserve(_ more: Int) {
        if more > capacity - count { grow(more) }
    }

    /// Moves the text into storage with room for `more` bytes after it: at least twice the old storage.
    private mutating func grow(_ more: Int) {
        let grown = max(count + more, capacity * 2, 64)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }

    /// Appends one byte.
    @inline(__always) public mutating func append(_ byte: UInt8) {
        if count == capacity { reserve(1) }
        base[count] = byte
        count += 1
    }

    /// Appends bytes as they are.
    @inline(__always) public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        UnsafeMutableRawBufferPointer(start: base + count, count: bytes.count).copyMemory(from: bytes)
        count += bytes.count
    }

    /// Appends a literal's UTF-8 (keys, punctuation): an unlabelled string literal comes here, a `String` goes through
    /// ``append(contentsOf:)``.
    @inline(__always) public mutating func append(_ text: StaticString) {
        if text.hasPointerRepresentation {
            reserve(text.utf8CodeUnitCount)
            (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
            count += text.utf8CodeUnitCount
        } else {
            text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Appends a string's UTF-8 as it is (nothing escaped).
    public mutating func append(contentsOf text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends at most `most` bytes that `write` puts at the start of the room it is given, returning how many it wrote
    /// (clamped to 0...most).
    public mutating func append(atMost most: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        let most = max(0, most)
        reserve(most)
        let written = write(UnsafeMutableBufferPointer(start: base + count, count: most))
        count += min(max(written, 0), most)
    }

    /// The text's bytes, for `body`'s duration.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The text as a string (invalid UTF-8 repaired with U+FFFD).
    public var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }
}

extension LineBuffer {
    /// Appends the lower-case hex of `bytes` (``Hex/writeLowercase(_:separator:into:)``), `separator` between bytes: "0aff".
    public mutating func appendHex(_ bytes: [UInt8], separator: StaticString = "") {
        separator.withUTF8Buffer { between in
            bytes.withUnsafeBufferPointer { bytes in
                append(atMost: Hex.count(of: bytes.count, separator: between.count)) { Hex.writeLowercase(bytes, separator: between, into: $0) }
            }
        }
    }
}
