// One datagram of the Linux HCI monitor channel (what btmon reads): a 6-byte header and a payload, and the HCI packet it carries.

import OCBCore
import OCBHCI

/// One datagram read from the Linux HCI monitor channel (kernel `include/net/bluetooth/hci_mon.h`, BlueZ
/// `monitor/control.c`), with the time the kernel stamped on it.
///
/// Layout, little-endian:
/// ```
/// offset 0  opcode  u16   record kind (``LinuxMonitorOpcode``: 2 command, 3 event, 4 ACL tx, 5 ACL rx, ...)
/// offset 2  index   u16   controller N of hciN (0xFFFF: none, e.g. system notes)
/// offset 4  len     u16   payload length in bytes
/// offset 6  payload len bytes: for packet opcodes the HCI packet without its H4 indicator
/// ```
public struct HCIMonitorFrame: Hashable, Sendable {
    /// The record kind.
    public var opcode: LinuxMonitorOpcode
    /// The controller index (N of hciN); 0xFFFF for records about no controller.
    public var index: UInt16
    /// The payload (for packet opcodes the HCI packet bytes, without the H4 indicator).
    public var payload: [UInt8]
    /// When the kernel queued the datagram, in microseconds since 1970-01-01 00:00:00 UTC (SO_TIMESTAMP).
    public var timestamp: Int64

    /// Makes a frame from its fields.
    public init(opcode: LinuxMonitorOpcode, index: UInt16, payload: [UInt8], timestamp: Int64) {
        self.opcode = opcode
        self.index = index
        self.payload = payload
        self.timestamp = timestamp
    }

    /// Parses one whole datagram. Throws ``HCIMonitorFrameError/shortHeader(length:)`` for fewer than 6 bytes and
    /// ``HCIMonitorFrameError/lengthMismatch(declared:actual:)`` when `len` is not the number of bytes after the header
    /// (e.g. a datagram cut by a too small read buffer).
    public init(bytes: [UInt8], timestamp: Int64) throws(HCIMonitorFrameError) {
        var reader = ByteReader(bytes)
        let length: UInt16
        do throws(ByteReaderError) {
            opcode = LinuxMonitorOpcode(rawValue: try reader.readUInt16())
            index = try reader.readUInt16()
            length = try reader.readUInt16()
        } catch {
            throw .shortHeader(length: bytes.count)
        }
        guard Int(length) == reader.remaining else { throw .lengthMismatch(declared: length, actual: reader.remaining) }
        payload = reader.readRemaining()
        self.timestamp = timestamp
    }

    /// The HCI packet this frame carries with its direction, as a capture record (adapter index and monitor opcode
    /// kept), or nil for non-packet records (new/open/close index, index info, notes, logs, management traffic).
    public var captureRecord: CaptureRecord? {
        guard let (type, direction) = opcode.packetTypeAndDirection else { return nil }
        return CaptureRecord(timestamp: timestamp, direction: direction, packet: HCIPacket(type: type, bytes: payload),
                             adapterIndex: UInt32(index), monitorOpcode: opcode)
    }
}

/// Why a monitor channel datagram could not be parsed.
public enum HCIMonitorFrameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The datagram has `length` bytes, fewer than the 6-byte header.
    case shortHeader(length: Int)
    /// The header's `len` field says `declared` payload bytes but `actual` bytes follow the header.
    case lengthMismatch(declared: UInt16, actual: Int)

    public var description: String {
        switch self {
        case .shortHeader(let length): "monitor frame of \(length) bytes: shorter than its 6-byte header"
        case .lengthMismatch(let declared, let actual): "monitor frame declares \(declared) payload bytes but \(actual) follow its header"
        }
    }
}
