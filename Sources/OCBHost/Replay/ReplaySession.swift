// One recording to replay: its file, its mode, and whether it has been played (a recording plays once).

import Foundation
import OCBHCI

/// A capture file to be played by a ``ReplayTransport``, once.
///
/// The file is read at the first open (``claim()``); reading it again is refused, so a host that retries a lost
/// controller does not play the recording a second time from its start (the app would see the session twice).
/// The bound: the file is read whole, at most ``maximumFileSize``; it is held three times while it is turned into
/// records (the bytes, the records, the tolerant replay's tables): a 100 MiB capture takes about 300 MiB at the start.
public final class ReplaySession: @unchecked Sendable {
    /// The capture file.
    public let path: String
    /// Strict or tolerant.
    public let mode: ReplayMode
    /// The largest file read, 512 MiB.
    public static let maximumFileSize = 512 << 20
    private let lock = NSLock()
    private var claimed = false
    private var failure: ReplayMismatch?

    /// A session for the file at `path`.
    public init(path: String, mode: ReplayMode) {
        self.path = path
        self.mode = mode
    }

    /// The mismatch that ended the replay, if any.
    public var mismatch: ReplayMismatch? { lock.withLock { failure } }

    func record(_ mismatch: ReplayMismatch) {
        lock.withLock { if failure == nil { failure = mismatch } }
    }

    /// Reads the recording's packets, the first time only. Throws ``HCITransportError/replayFinished(path:)`` after the
    /// first time, ``HCITransportError/replayUnreadable(path:reason:)`` when the file cannot be read or is not a capture.
    func claim() throws(HCITransportError) -> [ReplayRecord] {
        guard !lock.withLock({ claimed }) else { throw .replayFinished(path: path) }
        let records = try read()
        // Claimed once read: a file that could not be read is tried again at the next open (it may appear later).
        let first: Bool = lock.withLock {
            defer { claimed = true }
            return !claimed
        }
        guard first else { throw .replayFinished(path: path) }
        return records
    }

    private func read() throws(HCITransportError) -> [ReplayRecord] {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .replayUnreadable(path: path, reason: "it is a directory")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .replayUnreadable(path: path, reason: FileManager.default.fileExists(atPath: path) ? "cannot be opened" : "no such file")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: Self.maximumFileSize + 1) ?? Data() } catch {
            throw .replayUnreadable(path: path, reason: "read failed: \(error.localizedDescription)")
        }
        guard data.count <= Self.maximumFileSize else {
            throw .replayUnreadable(path: path, reason: "larger than \(Self.maximumFileSize >> 20) MiB")
        }
        let capture: CaptureFile
        do { capture = try CaptureFile.read(bytes: [UInt8](data)) } catch {
            throw .replayUnreadable(path: path, reason: error.description)
        }
        let records = ReplayRecord.records(of: capture)
        guard !records.isEmpty else { throw .replayUnreadable(path: path, reason: "it holds no HCI packets") }
        return records
    }
}
