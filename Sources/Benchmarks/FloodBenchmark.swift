// The flood figures of issue #13 through the CoreBluetooth API: connect time with and without a flood, memory during and after it.

import CoreBluetooth
import Glibc
import OCBHost
import PeerSupport

/// A central that counts discoveries of the flood's advertisers (D0:00:…) and notes alpha and its connection.
private final class FloodCentral: NSObject, CBCentralManagerDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "benchmarks.flood")
    private let condition = NSCondition()
    private var flooded = 0
    private var poweredOn = false
    private var found: CBPeripheral?
    private var connected = false

    /// Discoveries of the flood's advertisers (the lock taken; inside ``wait(within:_:)``'s predicate use ``flood``).
    var floodDiscoveries: Int { condition.withLock { flooded } }
    /// The same, read under the lock ``wait(within:_:)`` already holds.
    var flood: Int { flooded }

    func centralManagerDidUpdateState(_ central: CBCentralManager) { signal { poweredOn = central.state == .poweredOn } }
    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        if RSSI.intValue == -70, peripheral.address?.hasPrefix("D0:00:") == true {
            signal { flooded += 1 }
        } else if peripheral.name == "OCB Alpha" {
            signal { found = peripheral }
        }
    }
    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) { signal { connected = true } }
    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: (any Error)?) {
        signal { connected = false }
    }

    private func signal(_ change: () -> Void) {
        condition.lock()
        change()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits up to `seconds` for `predicate`, which runs with the lock held (read the plain fields); false on timeout.
    func wait(within seconds: Double = 20, _ predicate: (FloodCentral) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(self) { guard condition.wait(until: deadline) else { return predicate(self) } }
        return true
    }

    /// Forgets alpha's discovery, to wait for the next one.
    func forgetAlpha() { condition.withLock { found = nil } }

    /// Starts counting the flood's discoveries from zero (for the next scan).
    func resetFlood() { condition.withLock { flooded = 0 } }

    var isPoweredOn: Bool { poweredOn }
    var alpha: CBPeripheral? { found }
    var isConnected: Bool { connected }
}

/// This process's resident set now and at its peak (VmRSS, VmHWM of /proc/self/status), KiB.
private func residentKiB() -> (now: Int, peak: Int) {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
    func field(_ name: String) -> Int {
        text.split(separator: "\n").first { $0.hasPrefix(name) }.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    }
    return (field("VmRSS:"), field("VmHWM:"))
}

/// Has the peer send its flood of `count` advertisers; the seconds it took the peer, nil when it failed.
private func flood(_ peer: VirtualPeer, _ count: Int) -> Double? {
    try? peer.flood(count, timeout: 300)
}

/// Alpha's advertising interval in microseconds (`ALPHA_INTERVAL_MS`, Tests/Peer/advertisers.py): a connect made at a
/// random point of it waits for alpha's next advertisement. (Legacy advertising adds a random 0-10 ms advDelay to each
/// event, Core v5.4 Vol 6 Part B §4.4.2.2.1, so the period is 50-60 ms; a random point of the first 50 ms is random
/// enough for two sets of connects to wait alike.)
private let alphaIntervalMicroseconds: UInt32 = 50_000

/// Connects to alpha and disconnects `times` times; the seconds from connect() to didConnect of each.
///
/// A connection is made when the initiator hears the advertiser's next connectable advertisement (Core v5.4 Vol 6
/// Part B §4.5), so each connect waits for alpha's next one: between 0 and its 50 ms interval (`ALPHA_INTERVAL_MS`,
/// Tests/Peer/advertisers.py). Alpha starts advertising again at once after a disconnect; the pause before the next
/// connect is 100 ms plus a random part of the interval, so each connect lands at a random point of it, as a
/// connect during a flood does (a fixed pause would land at the same point every time and measure only that one).
/// `spans` gets each connect's connect() and didConnect instants on CLOCK_MONOTONIC (seconds), for ``ConnectPhases``.
private func connectTimes(_ manager: CBCentralManager, _ central: FloodCentral, _ alpha: CBPeripheral, times: Int,
                          spans: inout [(start: Double, end: Double)]) -> [Double]? {
    var seconds: [Double] = []
    for _ in 0..<times {
        let start = ContinuousClock.now
        let monotonicStart = ConnectPhases.monotonic()
        manager.connect(alpha, options: nil)
        guard central.wait({ $0.isConnected }) else { return nil }
        spans.append((monotonicStart, ConnectPhases.monotonic()))
        let took = ContinuousClock.now - start
        seconds.append(Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18)
        manager.cancelPeripheralConnection(alpha)
        guard central.wait({ !$0.isConnected }) else { return nil }
        usleep(100_000 + UInt32.random(in: 0..<alphaIntervalMicroseconds))  // the peer's alpha advertises again; a random phase of its interval
    }
    return seconds
}

/// Runs the flood against the virtual peer through CBCentralManager and prints its figures; false on failure.
/// `count` distinct advertisers (peer control `flood`, Tests/Peer/README.md), the scan without AllowDuplicates;
/// `quietConnects` connects without a flood, then `floodConnects` floods with one connect during each.
func runFloodBenchmark(count: Int, quietConnects: Int = 15, floodConnects: Int = 15) -> Bool {
    func fail(_ what: String) -> Bool {
        FileHandle.standardError.write(Data("Benchmarks: \(what)\n".utf8))
        return false
    }
    // The peer notes when it takes each LE Create Connection and hands over its LE Connection Complete (peer_controller.py).
    let timeline = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-flood-timeline-\(getpid())").path
    unlink(timeline)
    setenv("OCB_PEER_TIMELINE", timeline, 1)
    defer { unlink(timeline) }
    // The host notes when it hands each command to the socket (HostTimeline): the first part of a connect split there.
    let hostWrites = HostWrites(), hostReads = HostReads()
    HostTimeline.observeCommands { opcode in hostWrites.append(opcode) }
    HostTimeline.observeEvents { code, first in hostReads.append(code, first) }
    defer {
        HostTimeline.observeCommands(nil)
        HostTimeline.observeEvents(nil)
    }
    var quietSpans: [(start: Double, end: Double)] = [], floodSpans: [(start: Double, end: Double)] = []
    let peer: VirtualPeer
    do { peer = try VirtualPeer(controllers: 1) } catch { return fail("the virtual peer did not start: \(error)") }
    defer { peer.stop() }
    let central = FloodCentral()
    var options: [String: Any] = [CBCentralManagerOptionTransportKey: "tcp:127.0.0.1:\(peer.port())",
                                  CBCentralManagerOptionShowPowerAlertKey: false]
    // OCB_BENCH_BTSNOOP=PATH records the session: when each packet of a connect during the flood went and came.
    if let path = ProcessInfo.processInfo.environment["OCB_BENCH_BTSNOOP"] { options[CBCentralManagerOptionBtsnoopPathKey] = path }
    let manager = CBCentralManager(delegate: central, queue: central.queue, options: options)
    guard central.wait({ $0.isPoweredOn }) else { return fail("the manager did not power on") }
    manager.scanForPeripherals(withServices: nil, options: nil)
    guard central.wait({ $0.alpha != nil }), let alpha = central.alpha else { return fail("OCB Alpha was not found") }
    manager.stopScan()
    guard let quiet = connectTimes(manager, central, alpha, times: quietConnects, spans: &quietSpans) else { return fail("connect without a flood failed") }
    let before = residentKiB()

    // 1. A flood with nothing else going on: how much of it the app discovers, memory at its peak and after stopScan.
    central.forgetAlpha()
    manager.scanForPeripherals(withServices: nil, options: nil)
    // The flood goes to a host that scans: alpha discovered again says the scan is on.
    guard central.wait({ $0.alpha != nil }) else { return fail("the second scan found nothing") }
    guard let alone = flood(peer, count) else { return fail("the peer's flood failed") }
    // Every advertiser is either discovered or counted as dropped; how long after the peer's last write that takes.
    let waitStart = ContinuousClock.now
    _ = central.wait(within: 20) { $0.flood + manager.droppedDiscoveryCount >= count }
    let settled = ContinuousClock.now - waitStart
    let peak = residentKiB().peak
    let discovered = central.floodDiscoveries
    let dropped = manager.droppedDiscoveryCount
    manager.stopScan()
    usleep(3_000_000)
    let after = residentKiB().now

    // 2. The same flood with a connect while it runs (its first reports are in), once per flood.
    var during: [Double] = []
    var duringDiscovered: [Int] = [], shed: [Int] = []
    for _ in 0..<floodConnects {
        central.forgetAlpha()
        central.resetFlood()
        let droppedBefore = manager.droppedDiscoveryCount
        manager.scanForPeripherals(withServices: nil, options: nil)
        guard central.wait({ $0.alpha != nil }) else { return fail("the scan before a flood found nothing") }
        // Alpha was heard just now: the connect (a few ms after the flood starts) would land at the start of alpha's
        // interval every time and wait for nearly all of it (41 ms median against 29 without a flood, 2026-12-06). A
        // random part of the interval first puts it at a random point, as the connects without a flood are.
        usleep(UInt32.random(in: 0..<alphaIntervalMicroseconds))
        let done = DispatchSemaphore(value: 0)
        let peerSeconds = LockedDouble()
        DispatchQueue.global().async {
            peerSeconds.value = flood(peer, count) ?? -1
            done.signal()
        }
        guard central.wait({ $0.flood > 0 }) else { return fail("no flood report arrived") }
        guard let took = connectTimes(manager, central, alpha, times: 1, spans: &floodSpans) else { return fail("connect during the flood failed") }
        guard done.wait(timeout: .now() + 300) == .success, peerSeconds.value >= 0 else { return fail("the peer's flood failed") }
        _ = central.wait(within: 2) { $0.flood >= count }
        during += took
        duringDiscovered.append(central.floodDiscoveries)
        shed.append(manager.droppedDiscoveryCount - droppedBefore)
        manager.stopScan()
    }

    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    print(String(format: "flood: %d distinct advertisers in %.2f s from the peer; %d discovered, %d dropped (counted), "
                 + "all accounted for %.2f s after the peer's last write",
                 count, alone, discovered, dropped, Double(settled.components.seconds) + Double(settled.components.attoseconds) / 1e18))
    print("resident set: \(before.now / 1024) MiB before the scan, peak \(peak / 1024) MiB, \(after / 1024) MiB 3 s after stopScan")
    func milliseconds(_ values: [Double]) -> String { values.sorted().map { String(format: "%.0f", $0 * 1000) }.joined(separator: " ") }
    let quietMedian = String(format: "%.0f", median(quiet) * 1000), duringMedian = String(format: "%.0f", median(during) * 1000)
    print("connect to OCB Alpha: median \(quietMedian) ms without a flood (\(quiet.count) connects: \(milliseconds(quiet)) ms), "
          + "\(duringMedian) ms during one (\(during.count) floods: \(milliseconds(during)) ms), "
          + String(format: "%.2fx", median(during) / median(quiet)))
    print("during each of those floods: \(duringDiscovered.map(String.init).joined(separator: ", ")) discovered, "
          + "\(shed.map(String.init).joined(separator: ", ")) dropped (counted, most skipped unread while the connect waited)")
    let events = ConnectPhases.read(timeline)
    let writes = hostWrites.values, reads = hostReads.values
    let quietSplits = ConnectPhases.split(quietSpans, events, hostWrites: writes, hostReads: reads)
    let floodSplits = ConnectPhases.split(floodSpans, events, hostWrites: writes, hostReads: reads)
    let quietStack = ConnectPhases.stackPart(quietSplits), floodStack = ConnectPhases.stackPart(floodSplits)
    if !quietStack.isEmpty, !floodStack.isEmpty {
        print(String(format: "the stack's part of a connect (connect() to the peer taking the command, its Connection Complete to "
                     + "didConnect; alpha's 0-50 ms between them left out): median %.1f ms without a flood, %.1f ms during one, %.2fx",
                     median(quietStack) * 1000, median(floodStack) * 1000, median(floodStack) / median(quietStack)))
    }
    let quietHost = ConnectPhases.hostPart(quietSplits), floodHost = ConnectPhases.hostPart(floodSplits)
    if !quietHost.isEmpty, !floodHost.isEmpty {
        print(String(format: "the host's part of it (connect() to the host writing the command, the peer's Connection Complete to "
                     + "didConnect; the socket and the peer taking the command left out): median %.1f ms without a flood, "
                     + "%.1f ms during one, %.2fx", median(quietHost) * 1000, median(floodHost) * 1000, median(floodHost) / median(quietHost)))
    }
    for (name, splits) in [("without a flood", quietSplits), ("during a flood", floodSplits)] {
        let spans = name == "without a flood" ? quietSpans : floodSpans
        print("connect phases \(name): " + ConnectPhases.summary(splits))
        // Commands other than the connect's own the peer took while a connect ran (none is expected).
        let others = events.filter { event in event.event == "command" && spans.contains { event.at >= $0.start && event.at <= $0.end } }
        if !others.isEmpty {
            let opcodes = Dictionary(grouping: others.map(\.detail), by: { $0 }).map { "0x\($0.key) × \($0.value.count)" }.sorted()
            print("  other commands the peer took during those connects: \(opcodes.joined(separator: ", "))")
        }
    }
    return true
}

/// The host's command writes (CLOCK_MONOTONIC seconds, opcode), noted on the host's queue and read at the end.
private final class HostWrites: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(at: Double, opcode: UInt16)] = []
    func append(_ opcode: UInt16) {
        let at = ConnectPhases.monotonic()
        lock.withLock { stored.append((at, opcode)) }
    }
    var values: [(at: Double, opcode: UInt16)] { lock.withLock { stored } }
}

/// The events the host took (CLOCK_MONOTONIC seconds, code, first parameter), noted on the host's queue.
private final class HostReads: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(at: Double, code: UInt8, first: UInt8?)] = []
    func append(_ code: UInt8, _ first: UInt8?) {
        let at = ConnectPhases.monotonic()
        lock.withLock { stored.append((at, code, first)) }
    }
    var values: [(at: Double, code: UInt8, first: UInt8?)] { lock.withLock { stored } }
}

/// A Double set on one thread and read on another.
private final class LockedDouble: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0.0
    var value: Double {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
