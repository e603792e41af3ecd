// A whole capture file read into records, its format detected from its magic number.

/// The records of a capture file (btsnoop, pcap or pcapng), detected by magic number.
///
/// Reading never traps on hostile input. Problems with the file header throw ``CaptureError``;
/// a problem after some records (typically a last record cut short) ends the list, and ``error``
/// says what and where while ``records`` holds every complete record before it.
public struct CaptureFile: Sendable {
    /// The format found.
    public var format: CaptureFormat
    /// Every complete record, in file order.
    public var records: [CaptureRecord]
    /// The problem that stopped reading before the end of the file, or nil if the file was read to its end.
    public var error: CaptureError?

    /// Makes a capture from its parts.
    public init(format: CaptureFormat, records: [CaptureRecord], error: CaptureError?) {
        self.format = format
        self.records = records
        self.error = error
    }

    /// Reads a capture from its bytes.
    ///
    /// Magic numbers: "btsnoop\0" (btsnoop, big-endian); A1 B2 C3 D4 / A1 B2 3C 4D in either byte order
    /// (pcap, micro-/nanoseconds); 0A 0D 0D 0A (pcapng). Throws ``CaptureError/unknownFormat(magic:)`` for
    /// anything else, and header errors (truncated header, unsupported btsnoop version/datalink or pcap link type).
    public static func read(bytes: [UInt8]) throws(CaptureError) -> CaptureFile {
        if bytes.starts(with: BtsnoopFormat.magic) { return try BtsnoopReader.read(bytes) }
        if bytes.count >= 4, PcapReader.kind(of: Array(bytes[0..<4])) != nil { return try PcapReader.read(bytes) }
        if bytes.starts(with: [0x0A, 0x0D, 0x0D, 0x0A]) { return try PcapngReader.read(bytes) }
        throw .unknownFormat(magic: Array(bytes.prefix(8)))
    }
}
