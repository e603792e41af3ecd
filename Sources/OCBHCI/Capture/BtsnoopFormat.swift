// Constants of the btsnoop file format: magic, version, datalinks, record flags and the epoch offset.

/// The btsnoop capture format (RFC 1761 "snoop" adapted by Bluetooth stacks; BlueZ `src/shared/btsnoop.h`).
///
/// File header (16 bytes, big-endian): "btsnoop\0", version (32 bits, 1), datalink (32 bits).
/// Each record (24-byte header, big-endian): original length, included length, flags, cumulative drops
/// (32 bits each), timestamp (64-bit signed, microseconds since 0000-01-01 00:00 UTC), then the included bytes.
public enum BtsnoopFormat {
    /// "btsnoop" followed by a zero byte.
    public static let magic: [UInt8] = Array("btsnoop".utf8) + [0]
    /// The only version in use.
    public static let version: UInt32 = 1
    /// Datalink 1001: HCI packets without indicator; flags bit 1 set for command/event, bit 0 the direction.
    public static let datalinkHCI: UInt32 = 1001
    /// Datalink 1002: H4 packets with their indicator byte; flags bit 0 the direction.
    public static let datalinkH4: UInt32 = 1002
    /// Datalink 2001: Linux monitor records (`btmon -w`); flags = adapter index << 16 | opcode.
    public static let datalinkMonitor: UInt32 = 2001
    /// Microseconds from 0000-01-01 to 1970-01-01 (0x00DCDDB30F2F8000).
    public static let unixEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000
    /// Size of the file header in bytes.
    public static let headerLength = 16
    /// Size of a record header in bytes.
    public static let recordHeaderLength = 24
}
