// One captured HCI packet (or non-packet record) with its time, direction and the bytes as stored.

/// One record of a capture file, whatever its format (btsnoop, pcap, pcapng).
///
/// `data` is the record's bytes exactly as the file stores them (for btsnoop 1002 and pcap 187 the
/// H4 indicator and packet; for pcap 201 the 4-byte direction header first; for the Linux monitor the
/// packet without indicator). `packet` is the HCI packet found in them, or nil when the record is
/// not an HCI packet (monitor index/note records, unknown indicator, empty data); such records are
/// kept raw, never an error.
public struct CaptureRecord: Hashable, Sendable {
    /// Capture time in microseconds since 1970-01-01 00:00:00 UTC (btsnoop stores microseconds since
    /// 0000-01-01; the difference is ``BtsnoopFormat/unixEpochOffset``). pcap/pcapng times finer than
    /// a microsecond are truncated.
    public var timestamp: Int64
    /// Sent by the host or received from the controller.
    public var direction: CaptureDirection
    /// The HCI packet, or nil for a record that holds none.
    public var packet: HCIPacket?
    /// The record's bytes as stored in the file (possibly fewer than ``originalLength``).
    public var data: [UInt8]
    /// The record's length before the capture tool cut it (bytes, in the file's own encoding).
    public var originalLength: Int
    /// btsnoop cumulative drops (packets lost before this record); 0 for other formats.
    public var cumulativeDrops: UInt32
    /// Format-specific flags: btsnoop record flags as stored, the pcap 201 direction word, else 0.
    public var flags: UInt32
    /// The controller or interface: Linux monitor adapter index, pcapng interface ID, else 0.
    public var adapterIndex: UInt32
    /// The Linux monitor opcode (btsnoop 2001, pcap 254), nil for other formats.
    public var monitorOpcode: LinuxMonitorOpcode?

    /// Makes a record. `data` defaults to the packet's H4 bytes and `originalLength` to the data's length.
    public init(timestamp: Int64, direction: CaptureDirection, packet: HCIPacket?, data: [UInt8]? = nil,
                originalLength: Int? = nil, cumulativeDrops: UInt32 = 0, flags: UInt32 = 0,
                adapterIndex: UInt32 = 0, monitorOpcode: LinuxMonitorOpcode? = nil) {
        self.timestamp = timestamp
        self.direction = direction
        self.packet = packet
        let stored = data ?? packet?.h4Bytes ?? []
        self.data = stored
        self.originalLength = originalLength ?? stored.count
        self.cumulativeDrops = cumulativeDrops
        self.flags = flags
        self.adapterIndex = adapterIndex
        self.monitorOpcode = monitorOpcode
    }

    /// True when the capture tool stored fewer bytes than the record had (``originalLength`` > `data.count`).
    public var isTruncated: Bool { originalLength > data.count }
}

extension HCIPacket {
    /// The packet in H4 bytes (indicator first), or nil when `h4` is empty or its first byte is not an indicator.
    init?(h4 bytes: ArraySlice<UInt8>) {
        guard let first = bytes.first, let type = HCIPacketType(rawValue: first) else { return nil }
        self.init(type: type, bytes: Array(bytes.dropFirst()))
    }
}
