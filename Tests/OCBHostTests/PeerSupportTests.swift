// Starts the virtual peer through PeerSupport.VirtualPeer and checks its READY data and one real H4 exchange.
import Foundation
import PeerSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP client to 127.0.0.1:`port` with a receive timeout, for one raw H4 exchange.
private func h4Exchange(port: UInt16, send bytes: [UInt8], expect count: Int, timeoutMs: Int) -> [UInt8] {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return [] }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { return [] }
    _ = bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
    var received: [UInt8] = []
    let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
    while received.count < count && Date() < deadline {
        var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pollFD, 1, 50) > 0 else { continue }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBufferPointer { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        received += buffer[0..<n]
    }
    return received
}

/// HCI_Reset (opcode 0x0C03, no parameters) as an H4 command packet (Core v5.4 Vol 4 Part E §7.3.2).
private let hciReset: [UInt8] = [0x01, 0x03, 0x0C, 0x00]
/// Command Complete for HCI_Reset, status success: 04 0E 04 01 03 0C 00 (Core v5.4 Vol 4 Part E §7.7.14).
private let hciResetComplete: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]

@Suite(.serialized) struct PeerSupportTests {
    @Test func readyLineDescribesControllersAndDevices() throws {
        let peer = try VirtualPeer(controllers: 2, legacyOnly: [1])
        defer { peer.stop() }
        let ready = peer.ready
        #expect(ready.controllers.count == 2)
        #expect(ready.controllers.map(\.extended) == [true, false])
        #expect(ready.controllers.map(\.publicAddress) == ["0C:B0:00:00:00:01", "0C:B0:00:00:00:02"])
        #expect(peer.ports.allSatisfy { $0 != 0 })
        #expect(Set(peer.ports).count == 2)
        #expect(ready.pid == peer.pid)

        let alpha = try #require(ready.peer(named: "alpha"))
        #expect(alpha.address == "C1:A0:00:00:00:01")
        #expect(alpha.addressType == "random")
        #expect(alpha.role == "peripheral")
        #expect(alpha.connectable)
        // Complete Local Name "OCB Alpha": length 0x0A, type 0x09, UTF-8 bytes.
        #expect(alpha.scanResponseData.hasPrefix("0a094f434220416c706861"))
        let bravo = try #require(ready.peer(named: "bravo"))
        #expect(bravo.address == "C1:B0:00:00:00:02")
        let iBeacon = try #require(ready.peer(named: "ibeacon"))
        #expect(!iBeacon.connectable)
        #expect(iBeacon.scanResponseData.isEmpty)
        // Apple company id 0x004C little-endian, iBeacon type 0x02, length 0x15.
        #expect(iBeacon.advertisingData.contains("ff4c000215"))
        let eddystone = try #require(ready.peer(named: "eddystone"))
        #expect(eddystone.address == "C1:ED:D7:00:00:04")
        // Service data on 0xFEAA (little-endian aa fe), URL frame 0x10.
        #expect(eddystone.advertisingData.contains("16aafe10"))
    }

    @Test func controllerAnswersResetAndMuteSilencesIt() throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        #expect(h4Exchange(port: peer.port(0), send: hciReset, expect: 7, timeoutMs: 3000) == hciResetComplete)
        try peer.mute(opcode: 0x0C03)
        #expect(h4Exchange(port: peer.port(0), send: hciReset, expect: 7, timeoutMs: 300).isEmpty)
        try peer.unmute()
        #expect(h4Exchange(port: peer.port(0), send: hciReset, expect: 7, timeoutMs: 3000) == hciResetComplete)
    }

    @Test func stopLeavesNoProcess() throws {
        let peer = try VirtualPeer()
        let pid = peer.pid
        #expect(peer.isRunning)
        peer.stop()
        #expect(!peer.isRunning)
        // kill(pid, 0) fails with ESRCH once the process is gone and reaped.
        #expect(kill(pid, 0) == -1)
    }

    @Test func killEndsThePeerAtOnce() throws {
        let peer = try VirtualPeer()
        peer.kill()
        #expect(!peer.isRunning)
        #expect(throws: VirtualPeerError.self) { try peer.send("ping") }
    }
}
