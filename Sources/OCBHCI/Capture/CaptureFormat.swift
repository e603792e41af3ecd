// The capture file formats the reader recognises by their magic numbers.

/// The format of a capture file, detected from its first bytes.
public enum CaptureFormat: Hashable, Sendable {
    /// btsnoop v1 ("btsnoop\0", big-endian) with its datalink: 1001 HCI without indicator,
    /// 1002 H4 with indicator, 2001 Linux monitor (`btmon -w`).
    case btsnoop(datalink: UInt32)
    /// libpcap with its link type (201 H4 with direction header, 187 H4, 254 Linux monitor),
    /// byte order and timestamp resolution (magic 0xA1B2C3D4 microseconds, 0xA1B23C4D nanoseconds).
    case pcap(linkType: UInt32, nanosecond: Bool, bigEndian: Bool)
    /// pcapng (Section Header Block 0x0A0D0D0A); link types per Interface Description Block.
    case pcapng
}

/// Link types of pcap/pcapng (tcpdump.org LINKTYPE_*) this reader decodes.
public enum CaptureLinkType {
    /// 187, LINKTYPE_BLUETOOTH_HCI_H4: H4 bytes, no direction (inferred from the packet type).
    public static let bluetoothH4: UInt32 = 187
    /// 201, LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR: 4-byte big-endian direction (0 sent, 1 received), then H4 bytes.
    public static let bluetoothH4WithPseudoHeader: UInt32 = 201
    /// 254, LINKTYPE_BLUETOOTH_LINUX_MONITOR: big-endian adapter index (16 bits), opcode (16 bits), then the payload.
    public static let bluetoothLinuxMonitor: UInt32 = 254
}
