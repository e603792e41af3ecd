// Link-level behaviour against the virtual peer: data length, PHY, Read RSSI, peripheral-requested parameter update,
// and the per-connection GATT client (withGATT, disconnection ending its procedures, Write Without Response readiness).

import OCBCore
import Foundation
import OCBGATT
import OCBHCI
import OCBHost
import PeerSupport
import Testing

/// Results handed from the host's queue to the test, with a bounded wait.
private final class Box<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [T] = []

    func put(_ item: T) {
        condition.lock()
        items.append(item)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits up to `seconds` until `count` items arrived; returns what arrived.
    func wait(for count: Int, within seconds: Double = 5) -> [T] {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while items.count < count, condition.wait(until: deadline) {}
        return items
    }
}

/// Connects to alpha with `options` and returns the connection (bounded wait).
private func connectAlpha(_ host: HostController, _ log: EventLog, options: ConnectOptions) throws -> ConnectionInfo {
    host.connect(to: PeerDevices.alpha, options: options)
    #expect(log.waitUntil(within: 6) { $0.contains { $0.connected != nil || $0.connectionFailure != nil } })
    return try #require(log.all.compactMap(\.connected).first)
}

@Suite(.serialized) struct HostLinkTests {
    @Test func dataLengthPHYReadRSSIAndPeripheralRequestedParameterUpdate() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        _ = try await host.start()
        let link = try connectAlpha(host, log, options: ConnectOptions(timeout: .seconds(5), requestDataLength: true, requestTwoMegabitPHY: true))

        // LE Set Data Length asked 251 octets / 2120 µs (the LE 1M maximum); the peer's controller grants both
        // (Core v5.4 Vol 4 Part E §7.7.65.7).
        let length = log.first { event -> [UInt16]? in
            guard case .dataLengthChanged(link.handle, let txOctets, let txTime, let rxOctets, let rxTime) = event else { return nil }
            return [txOctets, txTime, rxOctets, rxTime]
        }
        #expect(length == [251, 2120, 251, 2120])
        // LE Set PHY offered 1M or 2M both ways: LE PHY Update Complete with 2 = LE 2M (§7.7.65.12).
        let phy = log.first { event -> [UInt8]? in
            guard case .phyUpdated(link.handle, let tx, let rx) = event else { return nil }
            return [tx, rx]
        }
        #expect(phy == [2, 2])

        // Read RSSI (§7.5.4): the peer reports alpha's configured RSSI, −45 dBm (Tests/Peer/README.md).
        #expect(try await host.readRSSI(link.handle) == -45)

        // Peer control 05 on 0x004E: alpha sends an L2CAP Connection Parameter Update Request for 30–50 ms,
        // latency 0, 4 s (Vol 3 Part A §4.20); the host applies it with LE Connection Update, and the peer's controller
        // completes with the maximum interval: 40 × 1.25 ms, latency 0, timeout 400 × 10 ms.
        let written = try await host.sendATTRequest([0x12, 0x4E, 0x00, 0x05], on: link.handle)
        #expect(written == [0x13])
        let updated = log.first { event -> LinkParameters? in
            guard case .connectionUpdated(link.handle, let parameters) = event else { return nil }
            return parameters
        }
        #expect(updated == LinkParameters(interval: 40, latency: 0, supervisionTimeout: 400))
    }

    @Test func gattClientPerConnectionAndDisconnectionEndsItsProcedures() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        _ = try await host.start()
        #expect(host.canSendWriteWithoutResponse(0x0EFF) == false)
        let none = Box<Bool>()
        host.withGATT(0x0EFF) { client in none.put(client == nil) }
        #expect(none.wait(for: 1) == [true])

        let link = try connectAlpha(host, log, options: ConnectOptions(timeout: .seconds(5)))
        #expect(host.canSendWriteWithoutResponse(link.handle))

        // The Appearance value 40 03 at 0x0005 (Tests/Peer/README.md) through the connection's GATT client.
        let appearance = Box<Result<[UInt8], GATTError>>()
        host.withGATT(link.handle) { client in client?.read(0x0005) { appearance.put($0) } }
        #expect(appearance.wait(for: 1).first == .success([0x40, 0x03]))

        // Twelve Read Long procedures of the 512-byte value at 0x002F (23 ATT requests each at ATT_MTU 23), then
        // Disconnect at once: the ones still pending when the link ends complete with GATTError.disconnected.
        let reads = Box<Result<[UInt8], GATTError>>()
        host.withGATT(link.handle) { client in
            for _ in 0..<12 { client?.read(0x002F, long: true) { reads.put($0) } }
        }
        host.disconnect(link.handle, reason: .remoteUserTerminatedConnection)
        let results = reads.wait(for: 12)
        #expect(results.count == 12)
        let failures = results.compactMap { result -> GATTError? in if case .failure(let error) = result { error } else { nil } }
        #expect(!failures.isEmpty)
        #expect(failures.allSatisfy { $0 == .disconnected })
        for case .success(let value) in results { #expect(value == (0..<512).map { UInt8($0 & 0xFF) }) }
        #expect(log.first { $0.disconnection } != nil)
        #expect(host.canSendWriteWithoutResponse(link.handle) == false)
    }

    @Test func writeWithoutResponseReadinessComesBackAfterCompletedPackets() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        _ = try await host.start()
        let link = try connectAlpha(host, log, options: ConnectOptions(timeout: .seconds(5), requestDataLength: false))
        // 200 Write Commands of 20 bytes to the writable 0x0031 (Vol 3 Part F §3.4.5.3) outrun the controller's
        // 64 LE ACL buffers: readiness turns false, and Number Of Completed Packets brings it back with the event.
        let blocked = Box<Bool>()
        host.withGATT(link.handle) { client in
            guard let client else { return blocked.put(false) }
            for index in 0..<200 { try? client.writeWithoutResponse([UInt8](repeating: UInt8(index & 0xFF), count: 20), to: 0x0031) }
        }
        host.withGATT(link.handle) { _ in blocked.put(host.canSendWriteWithoutResponse(link.handle) == false) }
        #expect(blocked.wait(for: 1) == [true])
        #expect(log.first { if case .readyToSendWriteWithoutResponse(link.handle) = $0 { true } else { nil } } == true)
        #expect(host.canSendWriteWithoutResponse(link.handle))
        // The last command landed: the value reads back as twenty 199 & 0xFF = 0xC7 bytes.
        let back = Box<Result<[UInt8], GATTError>>()
        host.withGATT(link.handle) { client in client?.read(0x0031) { back.put($0) } }
        #expect(back.wait(for: 1).first == .success([UInt8](repeating: 0xC7, count: 20)))
    }
}
