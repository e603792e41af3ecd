// Sans-I/O H4 deframer: byte chunks of any size in, complete HCI packets out.

/// Splits an H4 (UART transport) byte stream into ``HCIPacket``s (Core v5.4 Vol 4 Part A §2).
///
/// Each packet on the stream is a one-byte indicator (``HCIPacketType``), a header of
/// ``HCIPacketType/h4HeaderLength`` bytes holding the payload length, then the payload.
/// Push bytes as they arrive with ``push(_:)`` (any chunking: a packet split over many reads or
/// many packets in one read), then call ``next()`` until it returns nil.
///
/// A byte where an indicator is expected that is not one gives ``H4Error/badPacketIndicator(_:offset:)``.
/// H4 cannot be resynchronised after that: the decoder stays failed and ``next()`` throws the same
/// error again; every packet completed before the bad byte has already been returned.
public struct H4Decoder: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    /// Stream offset of `buffer[0]`.
    private var bufferOffset = 0
    private var failure: H4Error?

    /// Makes a decoder at stream offset 0.
    public init() {}

    /// Number of bytes received but not yet part of a complete packet.
    public var pendingByteCount: Int { buffer.count - start }

    /// Total number of bytes pushed so far (the stream offset of the next byte to arrive).
    public var streamOffset: Int { bufferOffset + buffer.count }

    /// True once a bad indicator has been seen; the stream is then unusable.
    public var hasFailed: Bool { failure != nil }

    /// Appends received bytes. Never fails; framing errors surface from ``next()``.
    public mutating func push<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            bufferOffset += start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next complete packet, or nil when more bytes are needed.
    ///
    /// Throws ``H4Error/badPacketIndicator(_:offset:)`` when the byte at the start of the next packet
    /// is not an indicator; after that every call throws the same error.
    public mutating func next() throws(H4Error) -> HCIPacket? {
        if let failure { throw failure }
        guard start < buffer.count else { return nil }
        let indicator = buffer[start]
        guard let type = HCIPacketType(rawValue: indicator) else {
            let error = H4Error.badPacketIndicator(indicator, offset: bufferOffset + start)
            failure = error
            throw error
        }
        let headerStart = start + 1
        let headerEnd = headerStart + type.h4HeaderLength
        guard headerEnd <= buffer.count,
              let payloadLength = type.h4PayloadLength(header: buffer[headerStart..<headerEnd])
        else { return nil }
        let end = headerEnd + payloadLength
        guard end <= buffer.count else { return nil }
        let packet = HCIPacket(type: type, bytes: Array(buffer[headerStart..<end]))
        start = end
        if start == buffer.count {
            bufferOffset += buffer.count
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return packet
    }

    /// Pushes `bytes` and returns every packet now complete, with the framing error if one was met.
    ///
    /// Packets completed before a bad indicator are returned together with the error, never dropped.
    public mutating func decode<C: Collection>(_ bytes: C) -> (packets: [HCIPacket], error: H4Error?) where C.Element == UInt8 {
        push(bytes)
        var packets: [HCIPacket] = []
        do {
            while let packet = try next() { packets.append(packet) }
            return (packets, nil)
        } catch {
            return (packets, error)
        }
    }
}
