// The L2CAP basic frame (B-frame): length, channel ID and payload, on one connection handle.

import OCBHCI
import OCBCore

/// An L2CAP basic information frame on one ACL connection (Core v5.4 Vol 3 Part A §3.1).
///
/// Wire layout (little-endian): PDU Length (2 bytes, the payload length, 0...65535),
/// Channel ID (2 bytes), then the payload (an ATT PDU, an LE signaling command, an SMP command...).
/// `handle` is the HCI Connection_Handle the frame travels on; it is not part of the frame's bytes.
public struct L2CAPBasicFrame: Hashable, Sendable {
    /// The HCI Connection_Handle (0x0000...0x0EFF) the frame arrived on or is sent on.
    public var handle: ConnectionHandle
    /// The destination channel.
    public var channelID: L2CAPChannelID
    /// The information payload, at most 65535 bytes.
    public var payload: [UInt8]

    /// Makes a frame.
    public init(handle: ConnectionHandle, channelID: L2CAPChannelID, payload: [UInt8]) {
        self.handle = handle
        self.channelID = channelID
        self.payload = payload
    }

    /// Size of the basic header: Length (2) and Channel ID (2).
    public static let headerLength = 4

    /// Largest payload the 16-bit Length field can announce.
    public static let maximumPayloadLength = 65535

    /// The frame's bytes: header then payload. Throws ``L2CAPFrameTooLongError`` when the payload
    /// exceeds 65535 bytes (the Length field cannot say it).
    public func bytes() throws(L2CAPFrameTooLongError) -> [UInt8] {
        guard payload.count <= Self.maximumPayloadLength else { throw L2CAPFrameTooLongError(payloadLength: payload.count) }
        var writer = ByteWriter(capacity: Self.headerLength + payload.count)
        writer.write(UInt16(truncatingIfNeeded: payload.count))
        writer.write(channelID.rawValue)
        writer.write(contentsOf: payload)
        return writer.bytes
    }
}

/// An outgoing payload longer than the 65535 bytes an L2CAP Length field can announce (Vol 3 Part A §3.1).
public struct L2CAPFrameTooLongError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The payload length that was refused, in bytes.
    public let payloadLength: Int

    /// Makes the error for a payload of `payloadLength` bytes.
    public init(payloadLength: Int) { self.payloadLength = payloadLength }

    public var description: String { "L2CAP payload of \(payloadLength) bytes exceeds the 65535-byte Length field" }
}
