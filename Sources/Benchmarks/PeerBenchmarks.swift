// Benchmarks against the virtual peer, through the CoreBluetooth API: stack CPU per received notification, and the ATT
// requests a whole-database discovery takes beside the fewest its procedures allow.

import CoreBluetooth
import Glibc
import OCBATT
import OCBHCI
import OCBL2CAP
import PeerSupport

/// The central that drives the peer benchmarks: records what the delegate methods say, on its own queue.
private final class BenchCentral: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "benchmarks.central")
    let condition = NSCondition()
    var state: CBManagerState = .unknown
    var alpha: CBPeripheral?
    var connected = false
    var answers = 0
    var notifications = 0
    var lastNotification: ContinuousClock.Instant?

    func centralManagerDidUpdateState(_ central: CBCentralManager) { signal { state = central.state } }
    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        if peripheral.name == "OCB Alpha" || advertisementData[CBAdvertisementDataLocalNameKey] as? String == "OCB Alpha" {
            signal { alpha = peripheral }
        }
    }
    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) { signal { connected = true } }
    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) { signal { answers += 1 } }
    func peripheral(_ peripheral: CBPeripheral, didDiscoverIncludedServicesFor service: CBService, error: (any Error)?) { signal { answers += 1 } }
    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?) { signal { answers += 1 } }
    func peripheral(_ peripheral: CBPeripheral, didDiscoverDescriptorsFor characteristic: CBCharacteristic, error: (any Error)?) { signal { answers += 1 } }
    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: (any Error)?) { signal { answers += 1 } }
    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: (any Error)?) { signal { answers += 1 } }
    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        // Counted without waking the waiting thread (it polls): a wake-up per value would be the benchmark's own cost.
        condition.lock()
        notifications += 1
        lastNotification = .now
        condition.unlock()
    }

    private func signal(_ change: () -> Void) {
        condition.lock()
        change()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits up to `seconds` for `predicate`; false on timeout.
    func wait(_ predicate: () -> Bool, within seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !predicate() { guard condition.wait(until: deadline) else { return predicate() } }
        return true
    }

    /// Runs `request` and waits for one more answer.
    func answered(_ request: () -> Void) -> Bool {
        let before = condition.withLock { answers }
        request()
        return wait({ answers > before })
    }
}

/// Process CPU time (user + system), in seconds (getrusage, RUSAGE_SELF).
private func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return user + system
}

/// ATT requests the central sent in a btsnoop recording (opcodes of kind request, Exchange MTU left out).
private func attRequests(inRecording path: String) -> Int {
    guard let capture = try? CaptureFile.read(path: path) else { return -1 }
    var recombiner = L2CAPRecombiner()
    var count = 0
    for record in capture.records where record.direction == .sent {
        guard let packet = record.packet, packet.type == .acl, let acl = try? HCIACLDataPacket(bytes: packet.bytes) else { continue }
        for case .frame(let frame) in recombiner.receive(acl) where frame.channelID == .attributeProtocol {
            guard let first = frame.payload.first else { continue }
            let opcode = ATTOpcode(rawValue: first)
            if opcode.kind == .request, opcode != .exchangeMTURequest { count += 1 }
        }
    }
    return count
}

/// The fewest ATT requests Core v5.4 Vol 3 Part G's discovery procedures allow for `services` at `mtu`, discovered
/// the way the CoreBluetooth calls ask (§4.4.1 services, §4.5.1 includes, §4.6.1 characteristics, §4.7.1 descriptors):
/// each response as full as ATT_MTU allows, one entry size per response, and one closing request unless the last
/// entry reaches the end of the searched range.
private func fewestRequests(_ services: [CBService], mtu: Int) -> Int {
    /// Requests for entries of the given sizes filling responses of `room` bytes, closing unless `endsRange`.
    func requests(_ sizes: [Int], room: Int, endsRange: Bool) -> Int {
        var count = 0
        var index = 0
        while index < sizes.count {
            let size = sizes[index]
            var used = 0
            while index < sizes.count, sizes[index] == size, used + size <= room {
                used += size
                index += 1
            }
            count += 1
        }
        return count + (endsRange ? 0 : 1)
    }
    let room = mtu - 2
    let primaries = services.filter(\.isPrimary)
    var total = requests(primaries.map { 4 + $0.uuid.data.count }, room: room,
                         endsRange: primaries.last?.attributeHandles.upperBound == 0xFFFF)
    for service in services {
        let range = service.attributeHandles
        let includes = service.includedServices ?? []
        // Include declarations: handle + value (start, end, 16-bit UUID or none), Read By Type Response entries.
        total += requests(includes.map { 2 + 4 + ($0.uuid.data.count == 2 ? 2 : 0) }, room: room, endsRange: false)
        total += includes.filter { $0.uuid.data.count == 16 }.count  // Read Request for each 128-bit included UUID
        let characteristics = service.characteristics ?? []
        total += requests(characteristics.map { 2 + 3 + $0.uuid.data.count }, room: room,
                          endsRange: characteristics.last?.valueAttributeHandle == range.upperBound)
        for characteristic in characteristics {
            let descriptors = characteristic.descriptors ?? []
            let end = characteristic.attributeHandles.upperBound
            guard characteristic.valueAttributeHandle < end else { continue }
            total += requests(descriptors.map { 2 + $0.uuid.data.count }, room: mtu - 2,
                              endsRange: descriptors.last?.attributeHandle == end)
        }
    }
    return total
}

/// A connected session with OCB Alpha through a new manager (recording to `recording` when given).
private struct AlphaSession {
    let central = BenchCentral()
    let manager: CBCentralManager
    let alpha: CBPeripheral

    init?(port: UInt16, recording: String?) {
        var options: [String: Any] = [CBCentralManagerOptionTransportKey: "tcp:127.0.0.1:\(port)",
                                      CBCentralManagerOptionShowPowerAlertKey: false]
        if let recording { options[CBCentralManagerOptionBtsnoopPathKey] = recording }
        manager = CBCentralManager(delegate: central, queue: central.queue, options: options)
        let central = self.central
        guard central.wait({ central.state == .poweredOn }) else { return nil }
        manager.scanForPeripherals(withServices: nil, options: nil)
        guard central.wait({ central.alpha != nil }), let alpha = central.alpha else { return nil }
        manager.stopScan()
        alpha.delegate = central
        manager.connect(alpha, options: nil)
        guard central.wait({ central.connected }) else { return nil }
        self.alpha = alpha
    }

    /// Discovers the whole database as an app does: services, each service's includes and characteristics, each
    /// characteristic's descriptors; the services (secondary ones reached through includes too), nil on no answer.
    func discoverAll() -> [CBService]? {
        guard central.answered({ alpha.discoverServices(nil) }) else { return nil }
        var services = alpha.services ?? []
        for service in services {
            guard central.answered({ alpha.discoverIncludedServices(nil, for: service) }) else { return nil }
        }
        for service in services {
            for included in service.includedServices ?? [] where !services.contains(included) { services.append(included) }
        }
        for service in services {
            guard central.answered({ alpha.discoverCharacteristics(nil, for: service) }) else { return nil }
            for characteristic in service.characteristics ?? [] {
                guard central.answered({ alpha.discoverDescriptors(for: characteristic) }) else { return nil }
            }
        }
        return services
    }

    func end() {
        manager.cancelPeripheralConnection(alpha)
        _ = central.wait({ false }, within: 0.3)
    }
}

/// Runs both peer benchmarks and prints their lines; false when the peer or the stack failed.
func runPeerBenchmarks(notifications count: Int) -> Bool {
    func fail(_ what: String) -> Bool {
        FileHandle.standardError.write(Data("Benchmarks: \(what)\n".utf8))
        return false
    }
    let peer: VirtualPeer
    do { peer = try VirtualPeer(controllers: 2) } catch { return fail("the virtual peer did not start: \(error)") }
    defer { peer.stop() }

    // Round trips, from a btsnoop recording of the session.
    let recording = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-bench-\(getpid()).btsnoop").path
    defer { try? FileManager.default.removeItem(atPath: recording) }
    guard let recorded = AlphaSession(port: peer.port(), recording: recording) else { return fail("could not connect to OCB Alpha") }
    let before = attRequests(inRecording: recording)
    guard let services = recorded.discoverAll() else { return fail("discovery got no answer") }
    let used = attRequests(inRecording: recording) - before
    // ATT_MTU is not in Apple's API; a Write Command's limit is ATT_MTU − 3 capped at 512, and the peer serves 517.
    let writable = recorded.alpha.maximumWriteValueLength(for: .withoutResponse)
    let mtu = writable == 512 ? 517 : writable + 3
    print("whole-database discovery of OCB Alpha (ATT_MTU \(mtu)): \(used) ATT requests; the procedures' fewest: "
          + "\(fewestRequests(services, mtu: mtu))")
    recorded.end()

    // Notifications, without recording (through the peer's second controller): subscribe to the burst characteristic, then ask the peer for `count` of them.
    guard let session = AlphaSession(port: peer.port(1), recording: nil), let found = session.discoverAll() else {
        return fail("could not connect to OCB Alpha again")
    }
    let central = session.central, alpha = session.alpha
    guard let test = found.first(where: { $0.uuid == CBUUID(string: "0CB10001-7E57-4C0D-A9E5-0123456789AB") }),
          let burst = test.characteristics?.first(where: { $0.uuid == CBUUID(string: "0CB10007-7E57-4C0D-A9E5-0123456789AB") }),
          let control = test.characteristics?.first(where: { $0.uuid == CBUUID(string: "0CB10009-7E57-4C0D-A9E5-0123456789AB") })
    else { return fail("the burst characteristics are missing") }
    guard central.answered({ alpha.setNotifyValue(true, for: burst) }) else { return fail("subscribe: no answer") }
    let total = min(max(count, 1), 65535)
    // The same process idle for 2 s, connected and subscribed: the floor under the figure below.
    let idleBefore = processCPUSeconds()
    _ = central.wait({ false }, within: 2)
    let idle = (processCPUSeconds() - idleBefore) / 2
    let cpuBefore = processCPUSeconds()
    let start = ContinuousClock.now
    alpha.writeValue(Data([0x01, UInt8(total & 0xFF), UInt8(total >> 8)]), for: control, type: .withResponse)
    let deadline = ContinuousClock.now + .seconds(120)
    while central.condition.withLock({ central.notifications }) < total, ContinuousClock.now < deadline {
        usleep(50_000)
    }
    guard central.condition.withLock({ central.notifications }) >= total else {
        return fail("only \(central.condition.withLock { central.notifications }) of \(total) notifications arrived")
    }
    let cpu = processCPUSeconds() - cpuBefore
    let elapsed = start.duration(to: central.condition.withLock { central.lastNotification } ?? .now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(String(format: "notifications through CoreBluetooth: %d in %.2f s (%.0f/s, the peer's pace); stack CPU %.2f µs per "
                 + "notification (process user+system CPU / notifications, peer excluded)",
                 total, seconds, Double(total) / max(seconds, 1e-9), cpu / Double(total) * 1e6))
    print(String(format: "  idle, connected: %.1f ms CPU per second", idle * 1e3))
    session.end()
    // The floor at the same pace: what one wake-up, poll and read per message cost on this machine, and one queue hop more.
    let rate = Double(total) / max(seconds, 1e-9)
    guard let floor = WakeFloorBenchmark.measure(count: total, rate: rate) else { return fail("no loopback TCP for the floor") }
    print(String(format: "  the floor at %.0f messages/s, one per wake-up (loopback TCP, poll + read until EAGAIN): %.2f µs CPU per "
                 + "message; with one hand-over to a dispatch queue: %.2f µs", rate, floor.bare, floor.withHop))
    return true
}
