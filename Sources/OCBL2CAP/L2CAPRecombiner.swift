// Joins HCI ACL fragments into whole L2CAP basic frames, per connection handle.

import OCBCore
import OCBHCI

/// Recombines HCI ACL Data packets into L2CAP basic frames, one PDU in progress per connection handle
/// (Core v5.4 Vol 3 Part A §7.2; Packet_Boundary_Flag in Vol 4 Part E §5.4.2).
///
/// A start fragment (Packet_Boundary 0b10; also 0b00 and 0b11, which some controllers and
/// captures use) begins a PDU; continuation fragments (0b01) append to it. Fragments may have any
/// size, including a start fragment shorter than the 4-byte basic header. The PDU is complete when
/// 4 + Length bytes have arrived. Faults drop only the PDU concerned, with an
/// ``L2CAPRecombinationError``: a continuation with no PDU in progress, a start fragment while a PDU
/// is incomplete, more bytes than the header announced, or an announced length above
/// ``maximumPayloadLength``. Bytes are buffered only as they arrive, so a hostile Length field
/// never causes a large allocation. Sans-I/O: feed packets, read outputs.
public struct L2CAPRecombiner: Sendable {
    /// One result of feeding a packet.
    public enum Output: Hashable, Sendable {
        /// A complete basic frame.
        case frame(L2CAPBasicFrame)
        /// A PDU (or a stray fragment) was dropped; the next start fragment is read normally.
        case dropped(L2CAPRecombinationError)
    }

    /// Largest payload accepted, in bytes (at most 65535, the Length field's range).
    public let maximumPayloadLength: Int

    private struct Partial: Sendable {
        var bytes: [UInt8]
        var expected: Int?
    }

    private var partials: [ConnectionHandle: Partial] = [:]

    /// Makes a recombiner that accepts payloads up to `maximumPayloadLength` bytes (clamped to 0...65535).
    public init(maximumPayloadLength: Int = L2CAPBasicFrame.maximumPayloadLength) {
        self.maximumPayloadLength = min(max(0, maximumPayloadLength), L2CAPBasicFrame.maximumPayloadLength)
    }

    /// Handles with an incomplete PDU in progress.
    public var handlesInProgress: Set<ConnectionHandle> { Set(partials.keys) }

    /// Feeds one ACL packet; returns the frames it completed and the PDUs it dropped, in order.
    public mutating func receive(_ packet: HCIACLDataPacket) -> [Output] {
        var outputs: [Output] = []
        let handle = packet.handle
        switch packet.packetBoundary {
        case .continuing:
            guard var partial = partials.removeValue(forKey: handle) else {
                outputs.append(.dropped(.continuationWithoutStart(handle: handle, length: packet.data.count)))
                return outputs
            }
            partial.bytes.append(contentsOf: packet.data)
            advance(handle: handle, partial: partial, into: &outputs)
        case .firstFlushable, .firstNonFlushable, .complete:
            if let stale = partials.removeValue(forKey: handle) {
                outputs.append(.dropped(.startBeforeCompletion(handle: handle, received: stale.bytes.count, expected: stale.expected)))
            }
            advance(handle: handle, partial: Partial(bytes: packet.data, expected: nil), into: &outputs)
        }
        return outputs
    }

    /// Forgets any incomplete PDU on `handle` (call on disconnection); returns true if one was dropped.
    @discardableResult
    public mutating func reset(handle: ConnectionHandle) -> Bool {
        partials.removeValue(forKey: handle) != nil
    }

    private mutating func advance(handle: ConnectionHandle, partial: Partial, into outputs: inout [Output]) {
        var partial = partial
        if partial.expected == nil, partial.bytes.count >= L2CAPBasicFrame.headerLength {
            let announced = Int(partial.bytes[0]) | Int(partial.bytes[1]) << 8
            guard announced <= maximumPayloadLength else {
                outputs.append(.dropped(.announcedLengthTooLarge(handle: handle, announced: announced, limit: maximumPayloadLength)))
                return
            }
            partial.expected = L2CAPBasicFrame.headerLength + announced
        }
        guard let expected = partial.expected else {
            partials[handle] = partial
            return
        }
        if partial.bytes.count > expected {
            outputs.append(.dropped(.lengthExceeded(handle: handle, expected: expected, received: partial.bytes.count)))
        } else if partial.bytes.count == expected {
            let channel = UInt16(partial.bytes[2]) | UInt16(partial.bytes[3]) << 8
            let payload = Array(partial.bytes[L2CAPBasicFrame.headerLength...])
            outputs.append(.frame(L2CAPBasicFrame(handle: handle, channelID: L2CAPChannelID(rawValue: channel), payload: payload)))
        } else {
            partials[handle] = partial
        }
    }
}
