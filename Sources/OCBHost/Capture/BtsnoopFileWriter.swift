// Records packets to a btsnoop file as they happen (for --btsnoop FILE), one write per record.

import Foundation
import OCBHCI

/// Writes a btsnoop file (datalink 1002 by default; 1001 or 2001 on request) incrementally to a file handle: the header on creation, then each record
/// as soon as it is given, so a capture of a live session is readable (by tshark, Wireshark, btmon)
/// even if the process dies. Safe to call from several threads. The bytes come from HCI's sans-I/O
/// ``HCI/BtsnoopWriter`` (layout in ``HCI/BtsnoopFormat``); this class only adds the file and the lock,
/// which is why it lives in Host, the one layer that does I/O.
public final class BtsnoopFileWriter: @unchecked Sendable {
    private let handle: FileHandle
    private let path: String
    private let lock = NSLock()
    private var encoder: BtsnoopWriter

    /// Creates (or truncates) the file at `path` and writes the header of `datalink` (default 1002, H4).
    /// Throws ``CaptureError/io(path:message:)`` if it cannot be created or written.
    public convenience init(path: String, datalink: BtsnoopDatalink = .h4) throws(CaptureError) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw .io(path: path, message: "cannot create the file")
        }
        try self.init(fileHandle: handle, name: path, datalink: datalink)
    }

    /// Writes the header of `datalink` (default 1002, H4) to `fileHandle` (at its current position); `name` only
    /// labels errors.
    public init(fileHandle: FileHandle, name: String = "btsnoop", datalink: BtsnoopDatalink = .h4) throws(CaptureError) {
        handle = fileHandle
        path = name
        encoder = BtsnoopWriter(datalink: datalink)
        try flush()
    }

    /// Writes one record now; records the datalink cannot express are skipped (``HCI/BtsnoopWriter``).
    /// Throws ``CaptureError/io(path:message:)`` when the write fails.
    public func write(_ record: CaptureRecord) throws(CaptureError) {
        lock.lock()
        defer { lock.unlock() }
        encoder.append(record)
        try flushLocked()
    }

    /// Writes `packet`, seen at `timestamp` (microseconds since 1970-01-01 UTC) going `direction`.
    public func write(_ packet: HCIPacket, direction: CaptureDirection, timestamp: Int64) throws(CaptureError) {
        try write(CaptureRecord(timestamp: timestamp, direction: direction, packet: packet))
    }

    /// Closes the file handle.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        try? handle.close()
    }

    private func flush() throws(CaptureError) {
        lock.lock()
        defer { lock.unlock() }
        try flushLocked()
    }

    private func flushLocked() throws(CaptureError) {
        let bytes = encoder.takeBytes()
        guard !bytes.isEmpty else { return }
        do {
            try handle.write(contentsOf: Data(bytes))
        } catch {
            throw .io(path: path, message: "write failed: \(error)")
        }
    }
}
