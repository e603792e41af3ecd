// Legacy or extended scan/connect commands chosen from the controller's Supported Commands, checked on the host's btsnoop recording.

import OCBCore
import Dispatch
import Foundation
import OCBHCI
import OCBHost
import PeerSupport
import Testing

/// The peer's `--extended-beacon` advertiser (Tests/Peer/advertisers.py, Tests/Peer/README.md).
private enum ExtendedBeacon {
    static let peer = PeerAddress(BluetoothAddress("C1:E7:00:00:00:05")!, type: .random)
    /// Flags 0x06; complete name "OCB Extended"; manufacturer FFFF: 00 01 … F9 — 271 bytes, two reports (229 + 42).
    static let data = PeerAdvertising.flags + PeerAdvertising.ad(0x09, Array("OCB Extended".utf8))
        + PeerAdvertising.ad(0xFF, [0xFF, 0xFF] + (0..<250).map { UInt8($0) })
    static let rssi: Int8 = -55
    static let txPower: Int8 = -4
}

/// Legacy scan and create-connection opcodes (Core v5.4 Vol 4 Part E §7.8.10, §7.8.11, §7.8.12).
private let legacyScanAndCreate: Set<UInt16> = [0x200B, 0x200C, 0x200D]
/// The extended family of Vol 4 Part E §3.1.1 (LE Set Advertising Set Random Address 0x2035 … LE Extended Create
/// Connection 0x2043, and the periodic advertising commands up to LE Read Periodic Advertiser List Size 0x204A).
private let extendedFamily = Set<UInt16>(0x2035...0x204A)

/// What a host's btsnoop recording shows: commands it sent and LE Meta events it received.
private struct Recording {
    /// Opcodes of the commands sent, in order.
    var sentOpcodes: [UInt16] = []
    /// LE Meta events received: (subevent code, parameters after the subevent code).
    var leMeta: [(subevent: UInt8, parameters: [UInt8])] = []

    init(path: String) throws {
        let capture = try CaptureFile.read(path: path)
        #expect(capture.error == nil)
        for record in capture.records {
            guard let packet = record.packet else { continue }
            let bytes = packet.bytes
            switch (packet.type, record.direction) {
            case (.command, .sent) where bytes.count >= 3:
                sentOpcodes.append(UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
            case (.event, .received) where bytes.count >= 3 && bytes[0] == 0x3E:
                leMeta.append((bytes[2], Array(bytes.dropFirst(3))))
            default:
                break
            }
        }
    }

    /// The single-report LE Extended Advertising Reports (§7.7.65.13) from `address`: (Event_Type, Data_Length).
    func extendedReports(from address: BluetoothAddress) -> [(eventType: UInt16, dataLength: Int)] {
        leMeta.compactMap { event in
            // Num_Reports(1) Event_Type(2) Address_Type(1) Address(6) … Data_Length at offset 23 of the report.
            let p = event.parameters
            guard event.subevent == 0x0D, p.count >= 25, p[0] == 1, Array(p[4..<10]) == Array(address.bytes.reversed()) else { return nil }
            return (UInt16(p[1]) | UInt16(p[2]) << 8, Int(p[24]))
        }
    }
}

/// A host on controller `index` of `peer` recording to a fresh btsnoop file; the path is removed by `cleanUp`.
private func recordingHost(_ peer: VirtualPeer, index: Int = 0) -> (HostController, EventLog, String) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("family-\(peer.pid)-\(index).btsnoop").path
    let port = peer.port(index)
    let host = HostController(configuration: HostConfiguration(
        makeTransport: { H4StreamTransport(endpoint: .tcp(host: "127.0.0.1", port: port)) },
        ownAddress: .randomStatic(nil), commandTimeout: .seconds(2), btsnoopPath: path))
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "HostCommandFamilyTests.events")) { log.append($0) }
    return (host, log, path)
}

/// Stops `host` (closing its recording) and reads the recording.
private func finish(_ host: HostController, _ path: String) throws -> Recording {
    host.stop()
    _ = host.state  // the stop ran on the host's queue before this returns
    return try Recording(path: path)
}

/// Connects to `peer` (bounded wait).
private func connect(_ host: HostController, _ log: EventLog, to peer: PeerAddress) throws -> ConnectionInfo {
    host.connect(to: peer, options: ConnectOptions(timeout: .seconds(5)))
    _ = log.waitUntil(within: 6) { events in events.contains { $0.connected?.peer == peer || $0.connectionFailure?.0 == peer } }
    return try #require(log.all.compactMap(\.connected).first { $0.peer == peer })
}

/// Raw ATT over `handle`: ATT_READ_REQ of alpha's 512-byte value (0x002F, byte i = i & 0xFF; Vol 3 Part F §3.4.4.3)
/// gives its first MTU − 1 = 22 bytes; ATT_WRITE_REQ to 0x0031 (§3.4.5.1) is read back.
private func expectWorkingATT(_ host: HostController, on handle: ConnectionHandle) async throws {
    let read = try await host.sendATTRequest([0x0A, 0x2F, 0x00], on: handle)
    #expect(read == [0x0B] + (0..<22).map { UInt8($0) })
    let written = try await host.sendATTRequest([0x12, 0x31, 0x00, 0x5A, 0xA5, 0x0F], on: handle)
    #expect(written == [0x13])
    let back = try await host.sendATTRequest([0x0A, 0x31, 0x00], on: handle)
    #expect(back == [0x0B, 0x5A, 0xA5, 0x0F])
}

/// Scans actively until the four legacy advertisers (and `alsoExtendedBeacon`) are in, with their scan responses.
private func scanEveryone(_ host: HostController, _ log: EventLog, alsoExtendedBeacon: Bool) async throws -> [DiscoveredDevice] {
    try await host.startScan(ScanOptions(isActive: true, hostFiltersDuplicates: true))
    let complete = log.waitUntil(within: 5) { events in
        let devices = events.compactMap(\.discovered)
        return devices.contains { $0.peer == PeerDevices.alpha && $0.scanResponseData != nil }
            && devices.contains { $0.peer == PeerDevices.bravo && $0.scanResponseData != nil }
            && devices.contains { $0.peer == PeerDevices.iBeacon } && devices.contains { $0.peer == PeerDevices.eddystone }
            && (!alsoExtendedBeacon || devices.contains { $0.peer == ExtendedBeacon.peer })
    }
    // Three more of the beacons' 100 ms intervals: what a legacy scanner could still see of the extended beacon.
    try await Task.sleep(for: .milliseconds(300))
    try await host.stopScan()
    #expect(complete)
    return log.all.compactMap(\.discovered)
}

/// The legacy advertisers' exact values as the peer sets them (Tests/Peer/README.md), scan responses merged.
private func expectLegacyAdvertisers(_ devices: [DiscoveredDevice]) throws {
    let alpha = try #require(devices.last { $0.peer == PeerDevices.alpha && $0.scanResponseData != nil })
    #expect(alpha.advertisingData == PeerAdvertising.alphaAdvertising)
    #expect(alpha.scanResponseData == PeerAdvertising.alphaScanResponse)
    #expect(alpha.isConnectable && alpha.rssi == -45 && alpha.txPower == nil)
    let bravo = try #require(devices.last { $0.peer == PeerDevices.bravo && $0.scanResponseData != nil })
    #expect(bravo.mergedData == PeerAdvertising.bravoAdvertising + PeerAdvertising.bravoScanResponse)
    #expect(bravo.isConnectable && bravo.rssi == -60)
    let iBeacon = try #require(devices.last { $0.peer == PeerDevices.iBeacon })
    #expect(iBeacon.advertisingData == PeerAdvertising.iBeacon && iBeacon.scanResponseData == nil)
    #expect(!iBeacon.isConnectable && iBeacon.rssi == -70 && iBeacon.txPower == nil)
    let eddystone = try #require(devices.last { $0.peer == PeerDevices.eddystone })
    #expect(eddystone.advertisingData == PeerAdvertising.eddystone && eddystone.scanResponseData == nil)
    #expect(!eddystone.isConnectable && eddystone.rssi == -75)
}

@Suite(.serialized) struct HostCommandFamilyTests {
    @Test func extendedControllerScansWithExtendedCommandsAndReassemblesChains() async throws {
        let peer = try VirtualPeer(extendedBeacon: true)
        defer { peer.stop() }
        let (host, log, path) = recordingHost(peer)
        defer { host.stop(); try? FileManager.default.removeItem(atPath: path) }
        let info = try await host.start()
        // The peer's extended controller lists the commands (Vol 4 Part E §6.27 octet 37 bits 5-7) and the feature.
        #expect(info.supportedCommands.contains(.leSetExtendedScanParameters))
        #expect(info.supportedCommands.contains(.leSetExtendedScanEnable))
        #expect(info.supportedCommands.contains(.leExtendedCreateConnection))
        #expect(info.leFeatures.contains(.leExtendedAdvertising))

        let devices = try await scanEveryone(host, log, alsoExtendedBeacon: true)
        try expectLegacyAdvertisers(devices)
        let beacon = try #require(devices.last { $0.peer == ExtendedBeacon.peer })
        #expect(beacon.advertisingData == ExtendedBeacon.data)
        #expect(beacon.advertisingData.count == 271)
        #expect(beacon.rssi == ExtendedBeacon.rssi && beacon.txPower == ExtendedBeacon.txPower)
        #expect(!beacon.isConnectable && beacon.scanResponseData == nil)
        // Delivered whole, never as a fragment, and (host duplicate filtering) once.
        #expect(devices.filter { $0.peer == ExtendedBeacon.peer }.count == 1)

        let recording = try finish(host, path)
        #expect(recording.sentOpcodes.contains(0x2041) && recording.sentOpcodes.contains(0x2042))
        #expect(recording.sentOpcodes.filter { legacyScanAndCreate.contains($0) } == [])
        #expect(recording.leMeta.contains { $0.subevent == 0x0D })
        #expect(!recording.leMeta.contains { $0.subevent == 0x02 })
        // Legacy PDUs come as extended reports with the legacy bit (0x13 ADV_IND, 0x1B its scan response, §7.7.65.13).
        let alphaTypes = Set(recording.extendedReports(from: PeerDevices.alpha.address).map(\.eventType))
        #expect(alphaTypes == [0x0013, 0x001B])
        // The beacon's data arrived as a chain: 229 bytes "incomplete, more to come" (Data_Status 0b01), then 42 complete.
        let chain = recording.extendedReports(from: ExtendedBeacon.peer.address)
        #expect(chain.count >= 2)
        #expect(chain.prefix(2).map(\.eventType) == [0x0020, 0x0000])
        #expect(chain.prefix(2).map(\.dataLength) == [229, 42])
    }

    @Test func extendedControllerConnectsWithExtendedCreateConnection() async throws {
        let peer = try VirtualPeer()
        defer { peer.stop() }
        let (host, log, path) = recordingHost(peer)
        defer { host.stop(); try? FileManager.default.removeItem(atPath: path) }
        _ = try await host.start()
        let link = try connect(host, log, to: PeerDevices.alpha)
        #expect(link.role == .central)
        try await expectWorkingATT(host, on: link.handle)
        // A scan after the connection keeps to the family in use.
        try await host.startScan(ScanOptions(isActive: false))
        #expect(log.first(within: 3) { $0.discovered.flatMap { $0.peer == PeerDevices.bravo ? true : nil } } == true)
        try await host.stopScan()

        let recording = try finish(host, path)
        #expect(recording.sentOpcodes.contains(0x2043))
        #expect(recording.sentOpcodes.contains(0x2042))
        #expect(recording.sentOpcodes.filter { legacyScanAndCreate.contains($0) } == [])
        // LE Enhanced Connection Complete (§7.7.65.10), status success, for alpha (address at parameters 5...10).
        let complete = try #require(recording.leMeta.first { $0.subevent == 0x0A })
        #expect(complete.parameters.first == 0x00)
        #expect(Array(complete.parameters.dropFirst(5).prefix(6)) == Array(PeerDevices.alpha.address.bytes.reversed()))
        #expect(!recording.leMeta.contains { $0.subevent == 0x01 })
    }

    @Test func extendedBeaconIsNotConnectable() async throws {
        let peer = try VirtualPeer(extendedBeacon: true)
        defer { peer.stop() }
        let (host, log) = makeHost(peer)
        defer { host.stop() }
        _ = try await host.start()
        host.connect(to: ExtendedBeacon.peer, options: ConnectOptions(timeout: .milliseconds(500)))
        let failure = try #require(log.first(within: 4) { $0.connectionFailure })
        #expect(failure.0 == ExtendedBeacon.peer)
        #expect(failure.1 == .connectTimeout(ExtendedBeacon.peer))
    }

    @Test func legacyOnlyControllerGetsOnlyLegacyCommands() async throws {
        let peer = try VirtualPeer(controllers: 2, legacyOnly: [1], extendedBeacon: true)
        defer { peer.stop() }
        let (host, log, path) = recordingHost(peer, index: 1)
        defer { host.stop(); try? FileManager.default.removeItem(atPath: path) }
        let info = try await host.start()
        #expect(!info.supportedCommands.contains(.leSetExtendedScanParameters))
        #expect(!info.supportedCommands.contains(.leExtendedCreateConnection))
        #expect(info.supportedCommands.contains(.leSetScanParameters) && info.supportedCommands.contains(.leCreateConnection))
        #expect(!info.leFeatures.contains(.leExtendedAdvertising))

        let devices = try await scanEveryone(host, log, alsoExtendedBeacon: false)
        try expectLegacyAdvertisers(devices)
        // Extended advertising is invisible to a legacy scanner.
        #expect(!devices.contains { $0.peer == ExtendedBeacon.peer })
        let link = try connect(host, log, to: PeerDevices.bravo)
        // Bravo's 0CB20002 at 0x0015 reads "Bravo" (Tests/Peer/README.md).
        #expect(try await host.sendATTRequest([0x0A, 0x15, 0x00], on: link.handle) == [0x0B] + Array("Bravo".utf8))

        let recording = try finish(host, path)
        #expect(legacyScanAndCreate.isSubset(of: Set(recording.sentOpcodes)))
        #expect(recording.sentOpcodes.filter { extendedFamily.contains($0) } == [])
        #expect(recording.leMeta.contains { $0.subevent == 0x02 })
        #expect(!recording.leMeta.contains { $0.subevent == 0x0D })
    }
}
