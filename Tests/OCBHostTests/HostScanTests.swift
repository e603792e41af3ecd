// Scanning against the virtual peer: both peripherals and both beacons with the exact values the peer advertises.

import OCBCore
import OCBHost
import PeerSupport
import Testing

/// The AD structures the peer advertises (Tests/Peer/advertisers.py), rebuilt from its constants.
enum PeerAdvertising {
    static func ad(_ type: UInt8, _ payload: [UInt8]) -> [UInt8] { [UInt8(payload.count + 1), type] + payload }
    static let flags = ad(0x01, [0x06])
    static let alphaService = BluetoothUUID("0CB10001-7E57-4C0D-A9E5-0123456789AB")!
    static let bravoService = BluetoothUUID("0CB20001-7E57-4C0D-A9E5-0123456789AB")!
    static let alphaAdvertising = flags + ad(0x03, [0x0D, 0x18, 0x0F, 0x18]) + ad(0x08, Array("Alpha".utf8))
        + ad(0x0A, [0xF8]) + ad(0x16, [0x0F, 0x18, 0x64]) + ad(0xFF, [0xFF, 0xFF, 0x0C, 0xB1, 0x01])
    static let alphaScanResponse = ad(0x09, Array("OCB Alpha".utf8)) + ad(0x07, alphaService.littleEndianBytes(width: 16)!)
    static let bravoAdvertising = flags + ad(0x06, bravoService.littleEndianBytes(width: 16)!) + ad(0x0A, [0x00])
        + ad(0x08, Array("Bravo".utf8))
    static let bravoScanResponse = ad(0x09, Array("OCB Bravo".utf8)) + ad(0x02, [0x0A, 0x18, 0x0F, 0x18])
        + ad(0xFF, [0xFF, 0xFF, 0x0C, 0xB2, 0x02, 0xB0]) + ad(0x16, [0x0A, 0x18, 0x01, 0x02])
    static let iBeacon = flags + ad(0xFF, [0x4C, 0x00, 0x02, 0x15]
        + BluetoothUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!.bigEndianBytes + [0x01, 0x02, 0x03, 0x04, 0xC5])
    static let eddystone = flags + ad(0x03, [0xAA, 0xFE])
        + ad(0x16, [0xAA, 0xFE, 0x10, 0xEB, 0x03] + Array("example".utf8) + [0x07])
}

@Suite(.serialized) struct HostScanTests {
    @Test func activeScanFindsEveryDeviceWithMergedScanResponses() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        _ = try await host.start()
        try await host.startScan(ScanOptions(isActive: true, hostFiltersDuplicates: true))
        let complete = log.waitUntil(within: 5) { events in
            let devices = events.compactMap(\.discovered)
            return devices.contains { $0.peer == PeerDevices.alpha && $0.scanResponseData != nil }
                && devices.contains { $0.peer == PeerDevices.bravo && $0.scanResponseData != nil }
                && devices.contains { $0.peer == PeerDevices.iBeacon } && devices.contains { $0.peer == PeerDevices.eddystone }
        }
        try await host.stopScan()
        #expect(complete)
        let devices = log.all.compactMap(\.discovered)
        let alpha = try #require(devices.last { $0.peer == PeerDevices.alpha && $0.scanResponseData != nil })
        #expect(alpha.advertisingData == PeerAdvertising.alphaAdvertising)
        #expect(alpha.scanResponseData == PeerAdvertising.alphaScanResponse)
        #expect(alpha.isConnectable)
        #expect(alpha.rssi == -45)
        let bravo = try #require(devices.last { $0.peer == PeerDevices.bravo && $0.scanResponseData != nil })
        #expect(bravo.mergedData == PeerAdvertising.bravoAdvertising + PeerAdvertising.bravoScanResponse)
        #expect(bravo.rssi == -60)
        let beacon = try #require(devices.last { $0.peer == PeerDevices.iBeacon })
        #expect(beacon.advertisingData == PeerAdvertising.iBeacon)
        #expect(!beacon.isConnectable)
        #expect(beacon.scanResponseData == nil)
        #expect(beacon.rssi == -70)
        let eddystone = try #require(devices.last { $0.peer == PeerDevices.eddystone })
        #expect(eddystone.advertisingData == PeerAdvertising.eddystone)
        #expect(eddystone.rssi == -75)
        // Host duplicate filtering: each device reported once per distinct data.
        #expect(devices.filter { $0.peer == PeerDevices.iBeacon }.count == 1)
    }

    @Test func passiveScanGetsNoScanResponses() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        _ = try await host.start()
        try await host.startScan(ScanOptions(isActive: false, interval: 0x0010, window: 0x0010))
        let seen = log.waitUntil(within: 5) { events in
            let peers = Set(events.compactMap(\.discovered).map(\.peer))
            return [PeerDevices.alpha, PeerDevices.bravo, PeerDevices.iBeacon, PeerDevices.eddystone].allSatisfy(peers.contains)
                && events.compactMap(\.discovered).filter { $0.peer == PeerDevices.alpha }.count >= 5
        }
        try await host.stopScan()
        #expect(seen)
        let devices = log.all.compactMap(\.discovered)
        #expect(devices.allSatisfy { $0.scanResponseData == nil })
        #expect(devices.first { $0.peer == PeerDevices.alpha }?.advertisingData == PeerAdvertising.alphaAdvertising)
    }

    @Test func serviceFilterKeepsOnlyMatchingDevices() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        _ = try await host.start()
        // Bravo lists its 128-bit service in the advertising data; nobody else does.
        try await host.startScan(ScanOptions(isActive: true, services: [PeerAdvertising.bravoService]))
        let found = log.first(within: 5) { $0.discovered.flatMap { $0.peer == PeerDevices.bravo ? $0 : nil } }
        _ = log.waitUntil(within: 1) { _ in false }
        try await host.stopScan()
        #expect(found != nil)
        #expect(log.all.compactMap(\.discovered).allSatisfy { $0.peer == PeerDevices.bravo })
    }
}
