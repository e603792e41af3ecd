// The typed errors of capture file reading and writing: what went wrong and where in the file.

import OCBCore

/// A capture file that cannot be read (or read to its end).
///
/// Errors in the file header are thrown; an error met after some records (a truncated last record,
/// a malformed block) is returned in ``CaptureFile/error`` together with every complete record before it.
public enum CaptureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first bytes are not btsnoop, pcap or pcapng magic.
    case unknownFormat(magic: [UInt8])
    /// The file header is cut short.
    case truncatedHeader(needed: Int, available: Int)
    /// A btsnoop version other than 1.
    case unsupportedVersion(UInt32)
    /// A btsnoop datalink other than 1001, 1002, 2001.
    case unsupportedDatalink(UInt32)
    /// A pcap link type other than 187, 201, 254.
    case unsupportedLinkType(UInt32)
    /// Record `number` at byte `offset` needs `needed` bytes but only `available` remain. `number` counts from 1, as
    /// tshark and Wireshark number frames: the record after the last whole one (a file of 148 whole records cut inside
    /// the next one says record 149).
    case truncatedRecord(number: Int, offset: Int, needed: Int, available: Int)
    /// A pcapng block at `offset` is malformed (`reason` says how).
    case malformedBlock(offset: Int, reason: String)
    /// The file could not be opened, read or written.
    case io(path: String, message: String)

    public var description: String {
        switch self {
        case let .unknownFormat(magic):
            "not a btsnoop, pcap or pcapng file (first bytes \(magic.isEmpty ? "none" : Hex.string(magic, separator: " ")))"
        case let .truncatedHeader(needed, available):
            "capture file header cut short: needed \(needed) bytes, \(available) available"
        case let .unsupportedVersion(version):
            "btsnoop version \(version) is not supported (only 1)"
        case let .unsupportedDatalink(datalink):
            "btsnoop datalink \(datalink) is not supported (1001, 1002, 2001)"
        case let .unsupportedLinkType(linkType):
            "pcap link type \(linkType) is not supported (187, 201, 254)"
        case let .truncatedRecord(number, offset, needed, available):
            "record \(number) at byte \(offset) cut short: needed \(needed) bytes, \(available) available"
        case let .malformedBlock(offset, reason):
            "pcapng block at byte \(offset) malformed: \(reason)"
        case let .io(path, message):
            "\(path): \(message)"
        }
    }
}
