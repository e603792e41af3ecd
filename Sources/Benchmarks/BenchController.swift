// A minimal legacy-only controller on a loopback TCP socket, for the path benchmarks: answers bring-up, then streams reports or notifications.

import Foundation
import Glibc

/// Listens on 127.0.0.1 (an ephemeral port), accepts one host and runs on its own thread: every HCI command gets a
/// Command Complete with status 0x00 (Core v5.4 Vol 4 Part E §7.7.14) and the return parameters bring-up reads
/// (HCI 5.4; supported commands listing only the legacy LE scan and create commands, octet 26 bits 2-5; LE ACL
/// buffers 27 × 8; BD_ADDR 0C:B0:00:00:00:0F). When LE Set Scan Enable (§7.8.11) enables scanning it writes `stream`
/// whole (once), noting the instant and its own CPU time so the benchmark can leave its work out. With a
/// ``BenchPeripheral`` it plays that peripheral instead: its answers to commands and ACL, and its notification stream
/// once the host subscribed.
final class BenchController: @unchecked Sendable {
    /// The port the host connects to.
    let port: UInt16
    private let listener: Int32
    private let stream: [UInt8]
    private let marker: [UInt8]
    private var stopped = false
    private let lock = NSLock()
    private let writeLock = NSLock()
    private var connection: Int32 = -1
    private var started: ContinuousClock.Instant?
    private var cpuBefore = 0.0
    private var cpuUsed = 0.0
    private var processCPUAtStart = 0.0
    private var peripheral: BenchPeripheral?
    /// Answers the commands it returns true for, with the writer it is given (``BacklogBenchmark``'s connect).
    private let onCommand: ((_ opcode: UInt16, _ write: ([UInt8]) -> Bool) -> Bool)?

    /// When the stream's first byte was written; nil before.
    var streamStart: ContinuousClock.Instant? { lock.withLock { started } }
    /// The controller thread's CPU seconds spent writing the stream.
    var ownCPU: Double { lock.withLock { cpuUsed } }
    /// The process's CPU seconds when the stream began (the bring-up before it is left out).
    var startCPU: Double { lock.withLock { processCPUAtStart } }

    /// Opens the listener and starts the thread; nil when loopback TCP is unavailable.
    /// `marker` is written again every 5 ms after the stream until ``stop()``: the report that tells the benchmark the
    /// stream went through, even when a bound dropped its first copy.
    /// `onCommand`, when given, sees each command first and answers those it returns true for itself.
    init?(stream: [UInt8], marker: [UInt8], peripheral: BenchPeripheral? = nil,
          onCommand: ((_ opcode: UInt16, _ write: ([UInt8]) -> Bool) -> Bool)? = nil) {
        self.onCommand = onCommand
        self.stream = stream
        self.marker = marker
        self.peripheral = peripheral
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard bound == 0, named == 0, listen(socket, 1) == 0 else {
            Glibc.close(socket)
            return nil
        }
        listener = socket
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Closes the connection and the listener (the host sees the end of the stream).
    func stop() {
        lock.withLock {
            stopped = true
            if connection >= 0 { shutdown(connection, Int32(SHUT_RDWR)) }
        }
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
    }

    private func serve() {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return }
        // As a controller on TCP does (Bumble's asyncio transport, Python ≥ 3.6): no write waits behind Nagle's algorithm for
        // the host's delayed ACK (up to 40 ms between a Command Status and the event after it).
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        lock.withLock { connection = fd }
        defer { Glibc.close(fd) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var streamed = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            pending += buffer[0..<count]
            while let packet = Self.nextPacket(&pending) {
                var startsStream = false
                switch packet {
                case .acl(let payload, let first):
                    guard let reply = peripheral?.receiveACL(payload, first: first) else { continue }
                    guard write(fd, reply.reply) else { return }
                    startsStream = reply.subscribed
                case .command(let opcode, let parameters):
                    if let onCommand, onCommand(opcode, { write(fd, $0) }) { continue }
                    if let answer = peripheral?.answer(opcode, parameters) {
                        guard write(fd, answer) else { return }
                    } else {
                        guard write(fd, Self.commandComplete(opcode, parameters)) else { return }
                    }
                    startsStream = peripheral == nil && opcode == 0x200C && parameters.first == 0x01
                }
                if startsStream, !streamed {
                    streamed = true
                    let processCPU = Self.processCPU()
                    let threadCPU = Self.threadCPU()
                    lock.withLock {
                        started = .now
                        processCPUAtStart = processCPU
                    }
                    guard write(fd, stream) else { return }
                    let used = Self.threadCPU() - threadCPU
                    lock.withLock { cpuUsed = used }
                    let markerThread = Thread { [self] in
                        while !lock.withLock({ stopped }) {
                            guard write(fd, marker) else { return }
                            usleep(5_000)
                        }
                    }
                    markerThread.start()
                }
            }
        }
    }

    /// One H4 packet from the host.
    private enum HostPacket {
        /// 0x01: opcode and parameters.
        case command(UInt16, [UInt8])
        /// 0x02: the ACL payload, and whether its Packet Boundary flag starts a frame.
        case acl([UInt8], first: Bool)
    }

    /// Takes one whole H4 command (0x01, opcode, length, parameters) or ACL packet (0x02, handle and flags, length,
    /// data) off the front of `pending`.
    private static func nextPacket(_ pending: inout [UInt8]) -> HostPacket? {
        guard let type = pending.first else { return nil }
        switch type {
        case 0x01:
            guard pending.count >= 4 else { return nil }
            let total = 4 + Int(pending[3])
            guard pending.count >= total else { return nil }
            let opcode = UInt16(pending[1]) | UInt16(pending[2]) << 8
            let parameters = Array(pending[4..<total])
            pending.removeFirst(total)
            return .command(opcode, parameters)
        case 0x02:
            guard pending.count >= 5 else { return nil }
            let total = 5 + (Int(pending[3]) | Int(pending[4]) << 8)
            guard pending.count >= total else { return nil }
            let first = pending[2] >> 4 & 0x03 != 0x01
            let payload = Array(pending[5..<total])
            pending.removeFirst(total)
            return .acl(payload, first: first)
        default:
            pending.removeAll()  // only commands and ACL are expected from the host here
            return nil
        }
    }

    /// The H4 Command Complete event (§7.7.14: one command allowed, the opcode) answering `opcode` with status 0x00
    /// and what bring-up reads of it.
    static func commandComplete(_ opcode: UInt16, _ parameters: [UInt8]) -> [UInt8] {
        let answer = returnParameters(opcode, parameters)
        return [0x04, 0x0E, UInt8(3 + answer.count), 0x01, UInt8(opcode & 0xFF), UInt8(opcode >> 8)] + answer
    }

    /// Status 0x00 followed by what the command returns (§7.4.1-7.4.6, §7.8.2-7.8.3).
    private static func returnParameters(_ opcode: UInt16, _ parameters: [UInt8]) -> [UInt8] {
        switch opcode {
        case 0x1001: return [0x00, 0x0D, 0x00, 0x00, 0x0D, 0xFF, 0xFF, 0x00, 0x00]
        case 0x1002:
            var commands = [UInt8](repeating: 0, count: 64)
            commands[26] = 0b0011_1100
            return [0x00] + commands
        case 0x1003: return [0x00] + [UInt8](repeating: 0, count: 8)
        case 0x2003: return [0x00] + [UInt8](repeating: 0, count: 8)
        case 0x1009: return [0x00, 0x0F, 0x00, 0x00, 0x00, 0xB0, 0x0C]
        case 0x2002: return [0x00, 27, 0x00, 8]
        case 0x1005: return [0x00, 27, 0x00, 0, 8, 0x00, 0, 0x00]
        default: return [0x00]
        }
    }

    /// Writes all of `bytes`; the marker thread and the serving thread take turns whole.
    private func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        writeLock.lock()
        defer { writeLock.unlock() }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                // send(MSG_NOSIGNAL): the marker thread may write after stop(); EPIPE ends it, a SIGPIPE would end the process.
                return Glibc.send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The process's CPU seconds so far (every thread).
    static func processCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
