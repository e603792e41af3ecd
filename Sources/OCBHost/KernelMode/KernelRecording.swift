// Kernel mode's btsnoop recording: one controller's packets from the HCI monitor channel, written as they come (like btmon -w).

import Foundation
import OCBHCI

/// Records the packets of controller hci`controller` into a btsnoop file (datalink 1002, H4 with directions, the
/// layout of ``HostController``'s recording) as the kernel's HCI monitor channel reports them: every command, event
/// and ACL/SCO/ISO packet on that controller, sent by this host, the kernel or any other program. Other controllers'
/// packets and the monitor's non-packet records (index, notes, management) are left out.
///
/// Problems after the start (a failed file write, a malformed monitor frame, the channel ending) are reported once
/// each through `onProblem` on the monitor's queue; a failed write stops the recording.
final class KernelRecording: @unchecked Sendable {
    /// Why a recording could not start, worded for a ``HostEvent/diagnostic(_:)``.
    struct Unavailable: Error, Equatable {
        /// E.g. "opening the HCI monitor channel needs CAP_NET_RAW".
        let reason: String
    }

    /// The btsnoop file.
    let path: String
    /// The controller index whose packets are kept.
    let controller: UInt16
    private let monitor = HCIMonitorSocket()
    private let writer: BtsnoopFileWriter
    private let onProblem: @Sendable (String) -> Void
    private let lock = NSLock()
    private var writeFailed = false
    private var reportedMalformed = false

    private init(path: String, controller: UInt16, writer: BtsnoopFileWriter, onProblem: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.controller = controller
        self.writer = writer
        self.onProblem = onProblem
    }

    /// Creates (or truncates) the file at `path` with its btsnoop header, then opens the monitor channel. Throws
    /// ``Unavailable`` when the file cannot be created or the channel cannot be opened (no Bluetooth in the kernel,
    /// no CAP_NET_RAW); the file then holds only the header.
    static func start(path: String, controller: UInt16, onProblem: @escaping @Sendable (String) -> Void) throws(Unavailable) -> KernelRecording {
        let writer: BtsnoopFileWriter
        do { writer = try BtsnoopFileWriter(path: path) } catch { throw Unavailable(reason: "\(error)") }
        let recording = KernelRecording(path: path, controller: controller, writer: writer, onProblem: onProblem)
        do {
            try recording.monitor.open(onFrame: { [weak recording] in recording?.receive($0) },
                                       onClose: { [weak recording] error in
                                           recording?.onProblem("btsnoop recording to \(path) stopped: \(error.map { "\($0)" } ?? "the monitor channel closed")")
                                       })
        } catch {
            writer.close()
            throw Unavailable(reason: reason(error))
        }
        return recording
    }

    /// Writes what the monitor channel already queued, then closes the channel and the file.
    func stop() {
        monitor.close()
        writer.close()
    }

    /// The wording of a monitor channel that cannot be opened.
    static func reason(_ error: HCITransportError) -> String {
        switch error {
        case .permissionDenied: "opening the HCI monitor channel needs CAP_NET_RAW (run as root or setcap cap_net_raw+ep)"
        default: "cannot open the HCI monitor channel: \(error)"
        }
    }

    /// The record to write for `frame`: its packet when it is one of `controller`'s, else nil.
    static func record(_ frame: HCIMonitorFrame, controller: UInt16) -> CaptureRecord? {
        guard frame.index == controller else { return nil }
        return frame.captureRecord
    }

    /// One monitor datagram (on the monitor's queue).
    private func receive(_ frame: Result<HCIMonitorFrame, HCIMonitorFrameError>) {
        lock.lock()
        defer { lock.unlock() }
        guard !writeFailed else { return }
        switch frame {
        case .success(let frame):
            guard let record = Self.record(frame, controller: controller) else { return }
            do throws(CaptureError) { try writer.write(record) } catch {
                writeFailed = true
                onProblem("btsnoop recording to \(path) stopped: \(error)")
            }
        case .failure(let error):
            guard !reportedMalformed else { return }
            reportedMalformed = true
            onProblem("btsnoop recording to \(path) skipped a datagram (and will skip others silently): \(error)")
        }
    }
}
