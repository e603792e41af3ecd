// Tests of H4 over byte streams: a socketpair, a TCP connection to a local listener, and a pty as a serial line.

import Dispatch
import Foundation
import Glibc
import OCBHCI
import Testing
@testable import OCBHost

/// Collects what a transport delivers, with bounded waits.
final class TransportRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var packetsSeen: [HCIPacket] = []
    private var closeSeen: [HCITransportError?] = []
    private let packetSignal = DispatchSemaphore(value: 0)
    private let closeSignal = DispatchSemaphore(value: 0)
    let queue = DispatchQueue(label: "transport-test")

    var packets: [HCIPacket] { lock.lock(); defer { lock.unlock() }; return packetsSeen }
    var closes: [HCITransportError?] { lock.lock(); defer { lock.unlock() }; return closeSeen }

    func open(_ transport: any HCITransport) throws(HCITransportError) {
        try transport.open(queue: queue, onPacket: { [self] packet in
            lock.lock(); packetsSeen.append(packet); lock.unlock()
            packetSignal.signal()
        }, onClose: { [self] error in
            lock.lock(); closeSeen.append(error); lock.unlock()
            closeSignal.signal()
        })
    }

    /// Records a packet as if the transport had delivered it.
    func note(_ packet: HCIPacket) {
        lock.lock(); packetsSeen.append(packet); lock.unlock()
        packetSignal.signal()
    }

    /// Waits (at most 5 s in all) for `count` packets.
    func waitForPackets(_ count: Int) -> [HCIPacket] {
        let deadline = DispatchTime.now() + .seconds(5)
        while packets.count < count, packetSignal.wait(timeout: deadline) == .success {}
        return packets
    }

    /// Waits (at most 5 s) for the close callback.
    func waitForClose() -> [HCITransportError?] {
        _ = closeSignal.wait(timeout: .now() + .seconds(5))
        return closes
    }
}

/// Writes all of `bytes` to a blocking descriptor.
func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
        if count <= 0 { return }
        offset += count
    }
}

/// Reads exactly `count` bytes from a descriptor (poll-bounded, 5 s).
func readExactly(_ descriptor: Int32, _ count: Int) -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while result.count < count {
        var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&pollDescriptor, 1, 5_000) > 0 else { break }
        let got = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, min(4096, count - result.count)) }
        if got <= 0 { break }
        result += buffer[0..<got]
    }
    return result
}

/// Values noted from the transport's queue.
private final class Flags: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Bool] = []
    func put(_ value: Bool) { lock.withLock { stored.append(value) } }
    var items: [Bool] { lock.withLock { stored } }
}

@Suite struct TransportH4StreamTests {
    // HCI_Reset and its Command Complete (Core v5.4 Vol 4 Part E §7.3.2, §7.7.14), then an ACL packet.
    let reset = HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00])
    let resetComplete = HCIPacket(type: .event, bytes: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
    let acl = HCIPacket(type: .acl, bytes: [0x40, 0x20, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x02, 0x17, 0x00])

    @Test func socketpairPacketsSplitAcrossWritesAndEndOfStream() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        let transport = H4StreamTransport(endpoint: .fileDescriptor(pair[0]))
        let recorder = TransportRecorder()
        try recorder.open(transport)
        let stream = resetComplete.h4Bytes + acl.h4Bytes + resetComplete.h4Bytes
        // Split inside a header, inside a payload, and two packets joined.
        for piece in [stream[0..<1], stream[1..<5], stream[5..<12], stream[12...]] {
            writeAll(pair[1], Array(piece))
        }
        #expect(recorder.waitForPackets(3) == [resetComplete, acl, resetComplete])
        try transport.send(reset)
        #expect(readExactly(pair[1], 4) == [0x01, 0x03, 0x0C, 0x00])
        Glibc.close(pair[1])
        #expect(recorder.waitForClose() == [.closed])
        #expect(throws: HCITransportError.notOpen) { try transport.send(reset) }
    }

    @Test func badIndicatorClosesWithFramingError() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { Glibc.close(pair[1]) }
        let transport = H4StreamTransport(endpoint: .fileDescriptor(pair[0]))
        let recorder = TransportRecorder()
        try recorder.open(transport)
        writeAll(pair[1], resetComplete.h4Bytes + [0x09, 0x00])
        #expect(recorder.waitForClose() == [.framing(.badPacketIndicator(0x09, offset: 7))])
        #expect(recorder.packets == [resetComplete])
    }

    @Test func packetsAreHandedOverOnTheQueueGivenNotOnTheReaderThreadsOwn() throws {
        // The channel's reader thread enters the queue (queue.sync) for each read: the handler runs on it, as the
        // host's state requires, and one read's packets arrive in order.
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { Glibc.close(pair[1]) }
        let queue = DispatchQueue(label: "transport-test.owner")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let onQueue = TransportRecorder()
        let transport = H4StreamTransport(endpoint: .fileDescriptor(pair[0]))
        try transport.open(queue: queue, onPacket: { packet in
            onQueue.queue.sync {}  // any thread may wait on another queue from the handler
            dispatchPrecondition(condition: .onQueue(queue))
            if DispatchQueue.getSpecific(key: key) == 7 { onQueue.note(packet) }
        }, onClose: { _ in })
        writeAll(pair[1], resetComplete.h4Bytes + acl.h4Bytes)
        #expect(onQueue.waitForPackets(2) == [resetComplete, acl])
        transport.close()
    }

    @Test func whileAReadIsHandedOverItSaysWhetherMoreInputWaits() throws {
        // 20 ACL packets of 1,004 bytes in one write: the first read fills the 16 KiB buffer, so its packets are
        // handled with more input waiting; the packets of the last read have nothing behind them.
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { Glibc.close(pair[1]) }
        let transport = H4StreamTransport(endpoint: .fileDescriptor(pair[0]))
        let queue = DispatchQueue(label: "transport-test.waiting")
        let seen = TransportRecorder()
        let flags = Flags()
        try transport.open(queue: queue, onPacket: { packet in
            flags.put(transport.isBehind)
            seen.note(packet)
        }, onClose: { _ in })
        let packet = HCIPacket(type: .acl, bytes: [0x40, 0x20, 0xE8, 0x03] + [UInt8](repeating: 0x5A, count: 1_000))
        writeAll(pair[1], (0..<20).flatMap { _ in packet.h4Bytes })
        #expect(seen.waitForPackets(20).count == 20)
        #expect(flags.items.first == true, "the first read filled the buffer")
        #expect(flags.items.last == false, "nothing behind the last read")
        transport.close()
    }

    @Test func aSendToAPeerThatWentAwayIsATypedErrorNotASignal() throws {
        // Without MSG_NOSIGNAL a write to a socket whose other end is gone raises SIGPIPE, which ends the process.
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        let transport = H4StreamTransport(endpoint: .fileDescriptor(pair[0]))
        let recorder = TransportRecorder()
        try recorder.open(transport)
        Glibc.close(pair[1])
        var failure: HCITransportError?
        for _ in 0..<3 where failure == nil {
            do { try transport.send(reset) } catch { failure = error }
        }
        #expect(failure == .closed || failure == .notOpen, "EPIPE (or the channel already ended on the hang-up)")
        transport.close()
    }

    @Test func closeReportsNilOnceAndRefusesReopen() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { Glibc.close(pair[1]) }
        let transport = H4StreamTransport(endpoint: .fileDescriptor(pair[0]))
        let recorder = TransportRecorder()
        try recorder.open(transport)
        #expect(throws: HCITransportError.alreadyOpen) { try recorder.open(transport) }
        transport.close()
        transport.close()
        #expect(recorder.waitForClose() == [nil])
        // The descriptor was closed: the other end sees end of file.
        #expect(readExactly(pair[1], 1) == [])
        recorder.queue.sync {}
        #expect(recorder.closes.count == 1)
    }

    @Test func tcpClientAgainstLocalListener() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { Glibc.close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        #expect(bound)
        #expect(listen(listener, 1) == 0)
        let port = UInt16(bigEndian: address.sin_port)

        let transport = try TransportSpec("tcp:127.0.0.1:\(port)").makeTransport()
        let recorder = TransportRecorder()
        try recorder.open(transport)
        let server = accept(listener, nil, nil)
        #expect(server >= 0)
        let stream = H4Encoder.encode([resetComplete, acl])
        writeAll(server, Array(stream[0..<3]))
        writeAll(server, Array(stream[3...]))
        #expect(recorder.waitForPackets(2) == [resetComplete, acl])
        try transport.send(acl)
        #expect(readExactly(server, acl.h4Bytes.count) == acl.h4Bytes)
        Glibc.close(server)
        #expect(recorder.waitForClose() == [.closed])
    }

    @Test func tcpConnectionRefusedIsATypedError() throws {
        // Find a free port by binding and closing, then connect to it.
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) == 0 && getsockname(probe, $0, &length) == 0 }
        }
        Glibc.close(probe)
        let transport = H4StreamTransport(endpoint: .tcp(host: "127.0.0.1", port: UInt16(bigEndian: address.sin_port)))
        let recorder = TransportRecorder()
        #expect(throws: HCITransportError.system(operation: "connect to tcp:127.0.0.1:\(UInt16(bigEndian: address.sin_port))", errno: ECONNREFUSED)) {
            try recorder.open(transport)
        }
    }

    @Test func ptyAsSerialLine() throws {
        // /dev/ptmx, unlocked with TIOCSPTLCK (0x40045431), its number from TIOCGPTN (0x80045430): Linux asm-generic/ioctls.h.
        let master = Glibc.open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { Glibc.close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
        let path = "/dev/pts/\(number)"
        let transport = try TransportSpec("serial:\(path)@921600").makeTransport()
        let recorder = TransportRecorder()
        try recorder.open(transport)
        writeAll(master, Array(resetComplete.h4Bytes.prefix(2)))
        writeAll(master, Array(resetComplete.h4Bytes.dropFirst(2)) + acl.h4Bytes)
        #expect(recorder.waitForPackets(2) == [resetComplete, acl])
        try transport.send(reset)
        #expect(readExactly(master, 4) == [0x01, 0x03, 0x0C, 0x00])
        // Raw mode: bytes that a cooked tty would translate (CR, ^C, ^D) pass through untouched.
        let control = HCIPacket(type: .acl, bytes: [0x40, 0x20, 0x03, 0x00, 0x0D, 0x03, 0x04])
        writeAll(master, control.h4Bytes)
        #expect(recorder.waitForPackets(3).last == control)
        transport.close()
        #expect(recorder.waitForClose() == [nil])
    }

    @Test func serialErrors() {
        let recorder = TransportRecorder()
        #expect(throws: HCITransportError.unsupportedBaudRate(12_345)) {
            try recorder.open(H4StreamTransport(endpoint: .serial(path: "/dev/null", baudRate: 12_345, flowControl: true)))
        }
        #expect(throws: HCITransportError.system(operation: "tcgetattr /dev/null", errno: ENOTTY)) {
            try recorder.open(H4StreamTransport(endpoint: .serial(path: "/dev/null", baudRate: 115_200, flowControl: true)))
        }
    }
}
