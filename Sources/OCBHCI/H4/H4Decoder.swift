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

    /// Frames `chunk`, the next bytes of the stream, handing each packet completed to `body` as its type and its
    /// bytes (header and payload, without the indicator), in stream order: the scan path's framing over the read
    /// buffer. A packet lying wholly in `chunk` is a slice of `chunk` (no copy, no allocation); one begun in an earlier
    /// chunk is finished in the decoder's buffer and handed over as a slice of that; the bytes of a packet not yet
    /// complete are kept for the next call. A slice `body` keeps holds the whole chunk alive: copy out what is kept.
    /// `body` returns false to stop: the bytes after that packet are kept, as ``push(_:)`` would keep them.
    ///
    /// Throws ``H4Error/badPacketIndicator(_:offset:)`` at a byte that is not an indicator, after every packet before it
    /// was handed over; the decoder then stays failed, as with ``next()``. Mixing with ``push(_:)``/``next()`` is allowed.
    public mutating func frames(in chunk: [UInt8], _ body: (HCIPacketType, ArraySlice<UInt8>) -> Bool) throws(H4Error) {
        var passedOver = 0
        try frames(in: chunk, passingOver: &passedOver, stepping: { type, bytes in body(type, bytes) ? .next : .stop })
    }

    /// ``frames(in:_:)`` whose `body` says what comes next (``H4FrameStep``): the next packet, stop, or pass over the
    /// legacy advertising report events that follow in `chunk` without handing them over (a packet still being
    /// completed in the decoder's buffer is never passed over: the run starts in `chunk`). Adds to `passedOver` each
    /// report it passes over as it goes, so the count holds them also when it throws. Throws as ``frames(in:_:)``; a
    /// bad indicator right after a run of reports passed over throws as it would had they been handed over.
    public mutating func frames(in chunk: [UInt8], passingOver passedOver: inout Int,
                                stepping body: (HCIPacketType, ArraySlice<UInt8>) -> H4FrameStep) throws(H4Error) {
        if let failure { throw failure }
        // Stream offset of chunk[0].
        let chunkBase = bufferOffset + buffer.count
        var offset = 0
        // The run asked for by the packet handed over last, with its consumer's say on whether to go on.
        var skipping: (() -> Bool)?
        // Packets begun earlier: take from the chunk only the bytes they still need, and hand them over from the buffer.
        // Here bufferOffset + buffer.count == chunkBase + offset throughout.
        while start < buffer.count {
            switch try frame(buffer, at: start, streamOffset: bufferOffset + start) {
            case .complete(let type, let end):
                let step = body(type, buffer[(start + 1)..<end])
                start = end
                if start == buffer.count {
                    bufferOffset += buffer.count
                    buffer.removeAll(keepingCapacity: buffer.capacity <= 4_096)
                    start = 0
                }
                if step.isStop { keep(chunk, from: offset, chunkBase: chunkBase); return }
                if case .skipLegacyAdvertisingReports(let keepPassing) = step { skipping = keepPassing } else { skipping = nil }
            case .needs(let total):
                let taken = min(start + total - buffer.count, chunk.count - offset)
                guard taken > 0 else { return }  // the whole chunk is in the buffer, the packet still incomplete
                buffer.append(contentsOf: chunk[offset..<(offset + taken)])
                offset += taken
            }
        }
        while offset < chunk.count {
            if let keepPassing = skipping {
                let (end, count) = Self.passOverLegacyAdvertisingReports(chunk, from: offset, while: keepPassing)
                offset = end
                passedOver &+= count
                skipping = nil
                guard offset < chunk.count else { break }
            }
            switch try frame(chunk, at: offset, streamOffset: chunkBase + offset) {
            case .complete(let type, let end):
                let step = body(type, chunk[(offset + 1)..<end])
                offset = end
                if step.isStop { keep(chunk, from: offset, chunkBase: chunkBase); return }
                if case .skipLegacyAdvertisingReports(let keepPassing) = step { skipping = keepPassing } else { skipping = nil }
            case .needs:
                keep(chunk, from: offset, chunkBase: chunkBase)
                return
            }
        }
        bufferOffset = chunkBase + chunk.count
    }

    /// How often a run of reports passed over asks its consumer whether to go on (``H4FrameStep/skipLegacyAdvertisingReports(while:)``):
    /// every 16 reports, about 0.3 µs of walking, so a consumer's request waits at most that long behind a run.
    public static let passingCheckInterval = 16

    /// The end of the run of whole legacy advertising report events (H4 indicator 0x04) in `chunk` from `offset`, and
    /// how many: a tight walk over their length fields, each checked as ``HCIEvent/isLegacyAdvertisingReport(_:)-(ArraySlice<UInt8>)``.
    /// Stops at the first other byte or packet, or one not wholly in `chunk`, which ``frame(_:at:streamOffset:)`` then
    /// takes, or when `keepPassing` (asked before the first and every ``passingCheckInterval``-th) is false.
    private static func passOverLegacyAdvertisingReports(_ chunk: [UInt8], from offset: Int,
                                                         while keepPassing: () -> Bool) -> (end: Int, count: Int) {
        var offset = offset, count = 0
        // Indicator, Event_Code, Parameter_Total_Length, Subevent_Code: the three after the indicator are the event's header.
        while offset + 3 < chunk.count, chunk[offset] == HCIPacketType.event.rawValue {
            if count % passingCheckInterval == 0, !keepPassing() { break }
            let end = offset + 3 + Int(chunk[offset + 2])
            guard end <= chunk.count, HCIEvent.isLegacyAdvertisingReport(chunk[(offset + 1)..<end]) else { break }
            offset = end
            count &+= 1
        }
        return (offset, count)
    }

    /// After ``frames(in:passingOver:stepping:)``: the bytes of `chunk` from `offset` on are kept behind what the buffer holds.
    private mutating func keep(_ chunk: [UInt8], from offset: Int, chunkBase: Int) {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 4_096)
            start = 0
            bufferOffset = chunkBase + offset
        }
        if offset < chunk.count { buffer.append(contentsOf: chunk[offset...]) }
    }

    /// What the bytes from `index` hold: a complete packet (its type and where it ends), or how many bytes from
    /// `index` on are needed before more can be said (the indicator and header, then the whole packet).
    private enum Frame {
        case complete(HCIPacketType, end: Int)
        case needs(Int)
    }

    /// Reads the packet at `index` of `bytes` (`streamOffset` is that byte's offset in the stream, for the error);
    /// a bad indicator fails the decoder.
    private mutating func frame(_ bytes: [UInt8], at index: Int, streamOffset: Int) throws(H4Error) -> Frame {
        guard index < bytes.count else { return .needs(1) }
        let indicator = bytes[index]
        guard let type = HCIPacketType(rawValue: indicator) else {
            let error = H4Error.badPacketIndicator(indicator, offset: streamOffset)
            failure = error
            throw error
        }
        let headerEnd = index + 1 + type.h4HeaderLength
        guard headerEnd <= bytes.count, let payloadLength = type.h4PayloadLength(header: bytes[(index + 1)..<headerEnd]) else {
            return .needs(1 + type.h4HeaderLength)
        }
        let end = headerEnd + payloadLength
        guard end <= bytes.count else { return .needs(end - index) }
        return .complete(type, end: end)
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
