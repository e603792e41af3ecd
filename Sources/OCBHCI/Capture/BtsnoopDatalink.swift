// The three btsnoop datalinks a file can be written in: 1001 (HCI), 1002 (H4) and 2001 (Linux monitor).

/// The datalink of a btsnoop file written by ``BtsnoopWriter``: the 32-bit field at bytes 12..15 of the file
/// header and the meaning of each record's bytes and flags (layouts in ``BtsnoopFormat``).
///
/// Values from the btsnoop format (RFC 1761 snoop adapted: "btsnoop\0", version 1, datalink) and BlueZ
/// `src/shared/btsnoop.h` (BTSNOOP_FORMAT_HCI 1001, BTSNOOP_FORMAT_UART 1002, BTSNOOP_FORMAT_MONITOR 2001).
public enum BtsnoopDatalink: Hashable, Sendable, CustomStringConvertible {
    /// 1001, HCI without indicator: the packet bytes only; flags bit 0 the direction (0 sent by the host,
    /// 1 received), bit 1 set for commands and events, clear for data. SCO and ISO data cannot be told from ACL
    /// in this layout, so ``BtsnoopWriter`` skips them.
    case hci
    /// 1002, H4 (UART): the indicator byte then the packet; flags as for 1001.
    case h4
    /// 2001, Linux monitor (what `btmon -w` writes): the packet without indicator; flags =
    /// `adapterIndex << 16 | opcode` (``LinuxMonitorOpcode``: 2 command, 3 event, 4/5 ACL tx/rx, 6/7 SCO tx/rx,
    /// 18/19 ISO tx/rx, other values for records that are not packets). `adapterIndex` is the controller's
    /// index (0 for hci0) written into every record.
    case monitor(adapterIndex: UInt16 = 0)

    /// The datalink number stored in the file header: 1001, 1002 or 2001.
    public var rawValue: UInt32 {
        switch self {
        case .hci: BtsnoopFormat.datalinkHCI
        case .h4: BtsnoopFormat.datalinkH4
        case .monitor: BtsnoopFormat.datalinkMonitor
        }
    }

    public var description: String {
        switch self {
        case .hci: "btsnoop 1001 (HCI)"
        case .h4: "btsnoop 1002 (H4)"
        case let .monitor(index): "btsnoop 2001 (Linux monitor, hci\(index))"
        }
    }
}
