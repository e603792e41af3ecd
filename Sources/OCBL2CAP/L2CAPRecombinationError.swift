// Why the recombiner dropped an L2CAP PDU (or the fragment in hand).

import OCBHCI

/// A dropped L2CAP PDU during recombination of HCI ACL fragments (Core v5.4 Vol 3 Part A §7.2, Vol 4 Part E §5.4.2).
///
/// Each case names the connection handle; the recombiner drops the PDU in question and reads
/// the next start fragment on that handle normally.
public enum L2CAPRecombinationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A continuation fragment (Packet_Boundary 0b01) arrived with no PDU in progress; its `length` bytes were dropped.
    case continuationWithoutStart(handle: ConnectionHandle, length: Int)
    /// A start fragment arrived while a PDU was still incomplete; the incomplete PDU (`received` of
    /// `expected` bytes including the 4-byte header, `expected` nil while the header was still split) was dropped.
    case startBeforeCompletion(handle: ConnectionHandle, received: Int, expected: Int?)
    /// The fragments carried more bytes than the basic header announced (`expected` bytes including the
    /// 4-byte header, `received` so far); the PDU was dropped.
    case lengthExceeded(handle: ConnectionHandle, expected: Int, received: Int)
    /// The header announced a payload longer than the recombiner's limit; the PDU was dropped.
    case announcedLengthTooLarge(handle: ConnectionHandle, announced: Int, limit: Int)

    /// The connection handle the dropped data arrived on.
    public var handle: ConnectionHandle {
        switch self {
        case .continuationWithoutStart(let handle, _), .startBeforeCompletion(let handle, _, _),
             .lengthExceeded(let handle, _, _), .announcedLengthTooLarge(let handle, _, _):
            handle
        }
    }

    public var description: String {
        switch self {
        case .continuationWithoutStart(let handle, let length):
            "handle \(handle): continuation fragment of \(length) bytes with no L2CAP PDU started; dropped"
        case .startBeforeCompletion(let handle, let received, let expected):
            "handle \(handle): new start fragment while a PDU had \(received) of \(expected.map(String.init) ?? "unknown") bytes; incomplete PDU dropped"
        case .lengthExceeded(let handle, let expected, let received):
            "handle \(handle): fragments carried \(received) bytes but the header announced \(expected); PDU dropped"
        case .announcedLengthTooLarge(let handle, let announced, let limit):
            "handle \(handle): header announced a \(announced)-byte payload, above the limit of \(limit); PDU dropped"
        }
    }
}
