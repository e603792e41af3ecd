// Connections against the virtual peer: connect, MTU, disconnect both ways, reconnect, two at once, cancel, timeout, raw ATT.

import OCBCore
import OCBHCI
import OCBHost
import PeerSupport
import Testing

/// An address nobody on the peer's radio advertises.
private let nobody = PeerAddress(BluetoothAddress("C2:00:00:00:00:99")!, type: .random)
/// UUIDs of the peer's characteristics (Tests/Peer/databases.py: custom(1, n)).
private let longValueUUID = BluetoothUUID("0CB10003-7E57-4C0D-A9E5-0123456789AB")!
private let writableUUID = BluetoothUUID("0CB10004-7E57-4C0D-A9E5-0123456789AB")!

/// Connects to `peer` and returns the connection (bounded wait).
private func connect(_ host: HostController, _ log: EventLog, to peer: PeerAddress) throws -> ConnectionInfo {
    let already = log.all.compactMap(\.connected).count
    host.connect(to: peer, options: ConnectOptions(timeout: .seconds(5)))
    let ok = log.waitUntil(within: 6) { events in
        events.compactMap(\.connected).count > already || events.contains { $0.connectionFailure?.0 == peer }
    }
    #expect(ok)
    return try #require(log.all.compactMap(\.connected).dropFirst(already).first { $0.peer == peer })
}

/// The value handle of the characteristic value with `uuid`: ATT_READ_BY_TYPE_REQ over the whole range
/// (Core v5.4 Vol 3 Part F §3.4.4.1): 0x08 | start 0x0001 | end 0xFFFF | type (16 bytes).
private func valueHandle(_ host: HostController, _ handle: ConnectionHandle, _ uuid: BluetoothUUID) async throws -> UInt16 {
    let response = try await host.sendATTRequest([0x08, 0x01, 0x00, 0xFF, 0xFF] + uuid.littleEndianBytes(width: 16)!, on: handle)
    // ATT_READ_BY_TYPE_RSP: 0x09 | Length | Handle (2) | Value ...
    try #require(response.count >= 4 && response[0] == 0x09)
    return UInt16(response[2]) | UInt16(response[3]) << 8
}

@Suite(.serialized) struct HostConnectionTests {
    @Test func connectExchangeMTUDisconnectBothWaysAndReconnect() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        let info = try await host.start()
        #expect(info.ownAddress.type == .random)
        #expect(info.ownAddress.address.randomSubtype == .static)
        #expect(info.aclDataPacketLength == 27)

        let first = try connect(host, log, to: PeerDevices.alpha)
        #expect(first.role == .central)
        #expect(host.linkMTU(on: first.handle)?.value == 23)
        let mtu = try await host.exchangeMTU(247, on: first.handle)
        #expect(mtu == 247)
        #expect(host.linkMTU(on: first.handle)?.value == 247)
        #expect(log.first(within: 2) { if case .mtuChanged(first.handle, 247) = $0 { true } else { nil } } == true)

        host.disconnect(first.handle, reason: .remoteUserTerminatedConnection)
        let ours = try #require(log.first(within: 5) { $0.disconnection })
        #expect(ours.0.handle == first.handle)
        #expect(ours.2 == nil)
        #expect(ours.1 == .connectionTerminatedByLocalHost)

        let second = try connect(host, log, to: PeerDevices.alpha)
        _ = try peer.send("disconnect alpha")
        let theirs = try #require(log.first(within: 5) { event in event.disconnection.flatMap { $0.0.handle == second.handle && $0.2 != nil ? $0 : nil } })
        #expect(theirs.1 == .remoteUserTerminatedConnection)
        #expect(theirs.2 == .disconnected(second.handle, .remoteUserTerminatedConnection))

        let third = try connect(host, log, to: PeerDevices.alpha)
        let again = try await host.exchangeMTU(100, on: third.handle)
        #expect(again == 100)
    }

    @Test func twoPeripheralsConnectedAtOnce() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        _ = try await host.start()
        host.connect(to: PeerDevices.alpha, options: ConnectOptions(timeout: .seconds(5)))
        host.connect(to: PeerDevices.bravo, options: ConnectOptions(timeout: .seconds(5)))
        #expect(log.waitUntil(within: 8) { $0.compactMap(\.connected).count == 2 })
        let links = log.all.compactMap(\.connected)
        #expect(Set(links.map(\.peer)) == [PeerDevices.alpha, PeerDevices.bravo])
        #expect(Set(links.map(\.handle)).count == 2)
        for link in links {
            let mtu = try await host.exchangeMTU(64, on: link.handle)
            #expect(mtu == 64)
        }
    }

    @Test func connectCancelEndsTheAttemptAndTheNextConnectWorks() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        _ = try await host.start()
        host.connect(to: nobody, options: ConnectOptions(timeout: nil))
        _ = log.waitUntil(within: 0.3) { _ in false }
        host.cancelConnect(to: nobody)
        let failure = try #require(log.first(within: 4) { $0.connectionFailure })
        #expect(failure.0 == nobody)
        #expect(failure.1 == .connectCancelled(nobody))
        _ = try connect(host, log, to: PeerDevices.bravo)
    }

    @Test func connectToNobodyTimesOut() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        _ = try await host.start()
        host.connect(to: nobody, options: ConnectOptions(timeout: .milliseconds(800)))
        let failure = try #require(log.first(within: 5) { $0.connectionFailure })
        #expect(failure.1 == .connectTimeout(nobody))
        _ = try connect(host, log, to: PeerDevices.alpha)
    }

    @Test func rawATTReadOfTheLongValueAndWriteReadBackOverFragments() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        _ = try await host.start()
        let link = try connect(host, log, to: PeerDevices.alpha)
        // MTU 247: the 247-byte Read Response crosses the 27-byte ACL buffer in 10 fragments.
        #expect(try await host.exchangeMTU(247, on: link.handle) == 247)
        let long = try await valueHandle(host, link.handle, longValueUUID)
        // ATT_READ_REQ 0x0A | handle → ATT_READ_RSP 0x0B | the first ATT_MTU-1 = 246 bytes (Vol 3 Part F §3.4.4.3-4).
        let read = try await host.sendATTRequest([0x0A, UInt8(long & 0xFF), UInt8(long >> 8)], on: link.handle)
        #expect(read.first == 0x0B)
        #expect(Array(read.dropFirst()) == (0..<246).map { UInt8($0 & 0xFF) })  // LONG_VALUE = bytes(i & 0xFF)

        let writable = try await valueHandle(host, link.handle, writableUUID)
        // ATT_WRITE_REQ 0x12 | handle | value → ATT_WRITE_RSP 0x13 (§3.4.5.1-2).
        let value: [UInt8] = [0xA5, 0x5A, 0x0C, 0xB1]
        let written = try await host.sendATTRequest([0x12, UInt8(writable & 0xFF), UInt8(writable >> 8)] + value, on: link.handle)
        #expect(written == [0x13])
        let back = try await host.sendATTRequest([0x0A, UInt8(writable & 0xFF), UInt8(writable >> 8)], on: link.handle)
        #expect(back == [0x0B] + value)
    }
}
