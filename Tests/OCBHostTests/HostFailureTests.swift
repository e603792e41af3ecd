// Failures against the virtual peer: unanswered commands, end of file, Hardware Error and a killed peer; the host recovers.

import OCBCore
import Foundation
import OCBHCI
import OCBHost
import PeerSupport
import Testing

@Suite(.serialized) struct HostFailureTests {
    @Test func unansweredCommandTimesOutThenTheHostAsksForAReset() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer, commandTimeout: .milliseconds(500))
        defer { host.stop() }
        // Reset (0x0C03) never answered: bring-up fails with the command timeout.
        try peer.mute(opcode: 0x0C03)
        await #expect(throws: HostError.commandTimeout(.reset)) { try await host.start() }
        #expect(host.state == .poweredOff)
        try peer.unmute()
        try await host.start()
        #expect(host.state == .poweredOn)
        // Read RSSI (0x1405) never answered on a live connection: the command fails with the timeout, then the host,
        // out of step with the controller, ends the link with that error, says so and waits for a start (resetting).
        host.connect(to: PeerDevices.alpha, options: ConnectOptions(timeout: .seconds(5)))
        let link = try #require(log.first(within: 6) { $0.connected })
        try peer.mute(opcode: 0x1405)
        await #expect(throws: HostError.commandTimeout(.readRSSI)) { try await host.readRSSI(link.handle) }
        #expect(log.first(within: 2) { if case .controllerUnresponsive(.readRSSI) = $0 { true } else { nil } } == true)
        #expect(log.first(within: 2) { $0.disconnection }?.2 == .commandTimeout(.readRSSI))
        #expect(log.first(within: 2) { if case .stateChanged(.resetting) = $0 { true } else { nil } } == true)
        #expect(host.state == .resetting)
        try peer.unmute()
        // A start resets and re-initialises the controller; connections work again.
        log.clear()
        try await host.start()
        #expect(host.state == .poweredOn)
        host.connect(to: PeerDevices.alpha, options: ConnectOptions(timeout: .seconds(5)))
        let again = try #require(log.first(within: 6) { $0.connected })
        #expect(try await host.exchangeMTU(50, on: again.handle) == 50)
        host.disconnect(again.handle, reason: .remoteUserTerminatedConnection)
        #expect(log.first(within: 5) { $0.disconnection }?.2 == nil)
    }

    @Test func endOfFileEndsConnectionsAndScanThenRestartWorks() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        _ = try await host.start()
        host.connect(to: PeerDevices.alpha, options: ConnectOptions(timeout: .seconds(5)))
        let link = try #require(log.first(within: 6) { $0.connected })
        try await host.startScan(ScanOptions())
        try peer.dropClient()
        let ended = try #require(log.first(within: 5) { $0.disconnection })
        #expect(ended.0.handle == link.handle)
        #expect(ended.2 == .transportClosed)
        #expect(log.first(within: 2) { if case .scanStopped(.transportClosed) = $0 { true } else { nil } } == true)
        #expect(log.first(within: 2) { if case .stateChanged(.poweredOff) = $0 { true } else { nil } } == true)
        await #expect(throws: HostError.notConnected(link.handle)) { try await host.readRSSI(link.handle) }

        log.clear()
        try await host.start()
        host.connect(to: PeerDevices.bravo, options: ConnectOptions(timeout: .seconds(5)))
        #expect(log.first(within: 6) { $0.connected }?.peer == PeerDevices.bravo)
    }

    @Test func hardwareErrorEndsEverythingWithThatError() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        _ = try await host.start()
        host.connect(to: PeerDevices.alpha, options: ConnectOptions(timeout: .seconds(5)))
        _ = try #require(log.first(within: 6) { $0.connected })
        try peer.hardwareError(code: 0x42)
        let ended = try #require(log.first(within: 5) { $0.disconnection })
        #expect(ended.2 == .hardwareError(0x42))
        #expect(ended.1 == .hardwareFailure)
        try await host.start()
        #expect(host.state == .poweredOn)
    }

    @Test func killedPeerMidConnectionIsReportedAndNothingWaits() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        _ = try await host.start()
        host.connect(to: PeerDevices.alpha, options: ConnectOptions(timeout: .seconds(5)))
        let link = try #require(log.first(within: 6) { $0.connected })
        peer.kill()
        let ended = try #require(log.first(within: 5) { $0.disconnection })
        #expect(ended.0.handle == link.handle)
        #expect(ended.2 == .transportClosed)
        #expect(host.state == .poweredOff)
        // Starting against a dead peer fails promptly with a transport error.
        await #expect { try await host.start() } throws: { error in
            if case .transportFailed = error as? HostError { return true }
            return false
        }
    }
}

@Test func btsnoopRecordingCapturesTheBringUp() async throws {
    let peer = try VirtualPeer()
    defer { peer.stop() }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("host-\(peer.pid).btsnoop").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let port = peer.port()
    let host = HostController(configuration: HostConfiguration(
        makeTransport: { H4StreamTransport(endpoint: .tcp(host: "127.0.0.1", port: port)) }, btsnoopPath: path))
    _ = try await host.start()
    host.stop()
    _ = host.state  // the stop ran on the host's queue before this returns
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    // btsnoop header: "btsnoop\0", version 1, datalink 1002 (H4) — then the Reset command record.
    #expect(Array(bytes.prefix(8)) == Array("btsnoop\0".utf8))
    #expect(bytes.count > 16 + 24 * 10)
    // First record's packet: H4 command 01, HCI_Reset opcode 03 0C, length 00.
    #expect(Array(bytes.dropFirst(16 + 24).prefix(4)) == [0x01, 0x03, 0x0C, 0x00])
}

extension HostFailureTests {

    /// The peer floods the scan with 100,000 advertisers faster than the host reads them, so the answers to the host's
    /// commands wait behind megabytes of reports in the stream. With a 500 ms command timeout the host must not take
    /// that for a silent controller (no reset, no resetting state): the connect made during the flood completes.
    @Test func aFloodTheHostIsBehindOnIsNoUnresponsiveController() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer, commandTimeout: .milliseconds(500))
        defer { host.stop() }
        try await host.start()
        try await host.startScan(ScanOptions(isActive: false, controllerFiltersDuplicates: false, hostFiltersDuplicates: true))
        #expect(log.first(within: 5) { if case .discovered(let device) = $0, device.peer == PeerDevices.alpha { true } else { nil } } == true)
        let flooding = Task.detached { try peer.flood(100_000, timeout: 120) }
        #expect(log.first(within: 10) { if case .discovered(let device) = $0, device.peer.address.value >> 40 == 0xD0 { true } else { nil } } == true)
        host.connect(to: PeerDevices.alpha, options: ConnectOptions(timeout: .seconds(30)))
        #expect(log.first(within: 40) { $0.connected } != nil, "the connect made during the flood completes")
        _ = try await flooding.value
        #expect(log.first(within: 0.1) { if case .controllerUnresponsive = $0 { true } else { nil } } == nil)
        #expect(host.state == .poweredOn)
    }
}
