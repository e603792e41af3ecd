// The floor under any stack's CPU per notification when each one arrives alone: one thread wake-up, poll and read per message.

import Dispatch
import Foundation
import Glibc

/// Measures, beside the peer benchmark and at the same pace, what the bare minimum costs: a thread blocked in poll()
/// on a loopback TCP socket (the wiring of `tcp:HOST:PORT`) that wakes for each 27-byte message (the size of an
/// H4 ACL packet carrying a 20-byte notification), reads it and reads again until EAGAIN, as a host must; then the
/// same with one hand-over per message to a serial dispatch queue (the hop from a transport to the app's queue).
/// The figure is the process CPU (user + system) per message with the writer thread's own CPU left out.
enum WakeFloorBenchmark {
    /// CPU microseconds per message for both variants, at `rate` messages per second, `count` messages each; nil when
    /// loopback TCP is unavailable.
    static func measure(count: Int, rate: Double) -> (bare: Double, withHop: Double)? {
        guard let bare = run(count: count, rate: rate, hop: false), let hop = run(count: count, rate: rate, hop: true) else { return nil }
        return (bare, hop)
    }

    private static func run(count: Int, rate: Double, hop: Bool) -> Double? {
        guard let (reader, writer) = connectedPair() else { return nil }
        defer {
            Glibc.close(reader)
            Glibc.close(writer)
        }
        let done = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "benchmarks.floor")
        let received = Counter()
        let writerCPU = Counter()
        let message = [UInt8](repeating: 0x5A, count: 27)
        let interval = 1.0 / max(rate, 1)
        let before = BenchController.processCPU()
        let writerThread = Thread {
            let start = threadCPU()
            let origin = ContinuousClock.now
            for index in 0..<count {
                let due = origin + .nanoseconds(Int64(Double(index) * interval * 1e9))
                let wait = ContinuousClock.now.duration(to: due)
                if wait > .zero { Thread.sleep(forTimeInterval: Double(wait.components.attoseconds) / 1e18 + Double(wait.components.seconds)) }
                _ = message.withUnsafeBytes { Glibc.write(writer, $0.baseAddress, $0.count) }
            }
            writerCPU.add(Int((threadCPU() - start) * 1e9))
        }
        let readerThread = Thread {
            var buffer = [UInt8](repeating: 0, count: 16_384)
            var descriptor = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            var bytes = 0
            while bytes < count * message.count {
                guard poll(&descriptor, 1, 5_000) > 0 else { break }
                while true {
                    let read = buffer.withUnsafeMutableBytes { Glibc.read(reader, $0.baseAddress, $0.count) }
                    guard read > 0 else { break }
                    bytes += read
                    if hop { queue.async { received.add(1) } } else { received.add(1) }
                }
            }
            if hop { queue.sync {} }
            done.signal()
        }
        writerThread.start()
        readerThread.start()
        guard done.wait(timeout: .now() + .seconds(Int(Double(count) * interval) + 30)) == .success else { return nil }
        while writerCPU.value == 0 { usleep(1_000) }
        let cpu = BenchController.processCPU() - before - Double(writerCPU.value) / 1e9
        return cpu / Double(count) * 1e6
    }

    /// A connected loopback TCP pair (reader non-blocking, writer with TCP_NODELAY), as the host and a controller are.
    static func connectedPair() -> (Int32, Int32)? {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { return nil }
        defer { Glibc.close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard named else { return nil }
        let writer = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(writer, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let reader = accept(listener, nil, nil)
        guard writer >= 0, connected == 0, reader >= 0 else { return nil }
        var one: Int32 = 1
        setsockopt(writer, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
        return (reader, writer)
    }

    private static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A counter shared between threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add(_ amount: Int) { lock.withLock { count += amount } }
}
