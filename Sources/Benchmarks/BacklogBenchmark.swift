// A connect's answer behind a backlog of buffered advertising reports: how soon the host reaches it, over loopback TCP.

import Foundation
import Glibc
import OCBCore
import OCBHost

/// The host connects while scanning; the controller (``BenchController``) answers LE Create Connection (Core v5.4
/// Vol 4 Part E §7.8.12) with a Command Status, then writes `backlog` LE Advertising Reports of distinct advertisers
/// (a flood the kernel buffered ahead of the answer), then the LE Connection Complete (§7.7.65.1). What is measured
/// is the time from the controller beginning the backlog to the host taking the LE Connection Complete (noted by
/// ``HostTimeline``): the host reads the backlog while it waits for an answer, and drops its reports unread
/// (``SerialHost``'s shedding), so the time is that of reading and skipping them. Beside it, the floor: the same
/// bytes over a loopback TCP pair to a reader that only reads (poll, then 16 KiB reads until the socket is empty, as
/// the host's reader thread does) until it has the last byte. Rounds of the three (the backlog, none, the floor)
/// alternate; the medians and the host's cost per report above the floor are printed.
enum BacklogBenchmark {
    /// The peer the host connects to (C0:00:00:00:BE:EF, random static).
    static let peer = PeerAddress(BluetoothAddress(value: 0xC0_00_00_00_BE_EF), type: .random)

    /// The H4 LE Connection Complete (§7.7.65.1) that ends the backlog: success, handle 0x0040, central, the peer,
    /// interval 30 ms, latency 0, supervision timeout 720 ms.
    static let connectionComplete: [UInt8] = [0x04, 0x3E, 19, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0xEF, 0xBE, 0x00, 0x00, 0x00, 0xC0,
                                              0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00]

    /// Runs `rounds` rounds of each; false (with a line on stderr) when a round did not get there.
    static func run(payloads: [[UInt8]], backlog: Int, rounds: Int) -> Bool {
        // The reports alone: the scan-path stream's end marker (its last report) left off.
        let (withMarker, marker) = ScanPathBenchmark.stream(payloads, reports: backlog, advertisers: backlog, kind: .changing)
        let stream = Array(withMarker.dropLast(marker.count))
        print(String(format: "A connect's LE Connection Complete behind %d buffered LE Advertising Reports (%.1f MB of H4), over loopback TCP:",
                     backlog, Double(stream.count) / 1e6))
        var behind: [Double] = [], alone: [Double] = [], floors: [Double] = [], dropped: [Int] = []
        for _ in 0..<rounds {
            guard let (withBacklog, skipped) = measure(backlog: stream), let (none, _) = measure(backlog: []),
                  let floor = floor(stream.count + connectionComplete.count) else { return false }
            behind.append(withBacklog)
            alone.append(none)
            floors.append(floor)
            dropped.append(skipped)
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let list = { (values: [Double]) in values.map { String(format: "%.2f", $0 * 1e3) }.joined(separator: ", ") }
        print("  behind the backlog: \(String(format: "%.2f", median(behind) * 1e3)) ms median (\(list(behind)) ms); "
              + "reports dropped unread (the rest were read before the host was behind, and handled): "
              + dropped.map(String.init).joined(separator: ", "))
        print("  behind nothing:     \(String(format: "%.2f", median(alone) * 1e3)) ms median (\(list(alone)) ms)")
        print("  the floor (a reader that only reads the same bytes): \(String(format: "%.2f", median(floors) * 1e3)) ms median (\(list(floors)) ms)")
        let perReport = (median(behind) - median(floors)) / Double(max(1, backlog)) * 1e9
        print(String(format: "  the host above the floor: %.1f ns per report (the medians' difference over %d reports); %.2fx the floor",
                     perReport, backlog, median(behind) / max(median(floors), 1e-9)))
        return true
    }

    /// One round: seconds from the controller beginning `backlog` to the host taking the LE Connection Complete, and
    /// the reports the host dropped unread; nil when it did not come within 10 s.
    private static func measure(backlog: [UInt8]) -> (seconds: Double, dropped: Int)? {
        let began = Stamp(), took = Stamp()
        HostTimeline.observeEvents { code, first in
            if code == 0x3E, first == 0x01 { took.set(.now) }
        }
        defer { HostTimeline.observeEvents(nil) }
        // Joined before: the controller's own copy of 4 MB (and its page faults) is not the host's time.
        let answer = backlog + connectionComplete
        guard let controller = BenchController(stream: [], marker: [], onCommand: { opcode, write in
            guard opcode == 0x200D else { return false }  // LE Create Connection
            guard write([0x04, 0x0F, 0x04, 0x00, 0x01, 0x0D, 0x20]) else { return true }  // Command Status, success
            began.set(.now)
            _ = write(answer)
            return true
        }) else {
            FileHandle.standardError.write(Data("Benchmarks: loopback TCP is unavailable\n".utf8))
            return nil
        }
        defer { controller.stop() }
        let port = controller.port
        let host = HostController(configuration: HostConfiguration(makeTransport: {
            H4StreamTransport(endpoint: .tcp(host: "127.0.0.1", port: port))
        }))
        defer { host.stop() }
        let queue = DispatchQueue(label: "backlog benchmark")
        host.setEventHandler(queue: queue) { _ in }
        let ready = DispatchSemaphore(value: 0)
        host.start { _ in ready.signal() }
        guard ready.wait(timeout: .now() + 10) == .success else { return nil }
        host.startScan(ScanOptions(isActive: false)) { _ in ready.signal() }
        guard ready.wait(timeout: .now() + 10) == .success else { return nil }
        host.connect(to: peer, options: ConnectOptions())
        let deadline = ContinuousClock.now + .seconds(10)
        while took.get() == nil, ContinuousClock.now < deadline { usleep(100) }
        guard let start = began.get(), let end = took.get() else {
            FileHandle.standardError.write(Data("Benchmarks: the host did not take the LE Connection Complete within 10 s\n".utf8))
            return nil
        }
        let span = start.duration(to: end)
        // The walk that read the Connection Complete adds its shed reports to the count when it ends: wait for the
        // host's queue to finish that turn.
        host.queue.sync {}
        return (Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18, host.droppedDiscoveryCount)
    }

    /// Seconds from a writer beginning `count` bytes on a loopback TCP pair to a reader that only reads having the
    /// last; nil when the pair cannot be made or the bytes do not all come within 10 s.
    private static func floor(_ count: Int) -> Double? {
        guard let (reader, writer) = WakeFloorBenchmark.connectedPair() else { return nil }
        defer {
            Glibc.close(reader)
            Glibc.close(writer)
        }
        let began = Stamp()
        let bytes = [UInt8](repeating: 0x04, count: count)
        let writerThread = Thread {
            began.set(.now)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { raw in
                    Glibc.send(writer, raw.baseAddress.map { $0 + offset }, raw.count - offset, Int32(MSG_NOSIGNAL))
                }
                guard written > 0 else { return }
                offset += written
            }
        }
        writerThread.start()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var received = 0
        var descriptor = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now + .seconds(10)
        while received < count, ContinuousClock.now < deadline {
            guard poll(&descriptor, 1, 1_000) > 0 else { continue }
            while true {
                let got = buffer.withUnsafeMutableBytes { Glibc.read(reader, $0.baseAddress, $0.count) }
                guard got > 0 else { break }
                received += got
            }
        }
        guard received >= count, let start = began.get() else { return nil }
        let span = start.duration(to: .now)
        return Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18
    }

    /// An instant set on one thread and read on another.
    private final class Stamp: @unchecked Sendable {
        private let lock = NSLock()
        private var value: ContinuousClock.Instant?
        func set(_ instant: ContinuousClock.Instant) { lock.withLock { value = instant } }
        func get() -> ContinuousClock.Instant? { lock.withLock { value } }
    }
}
