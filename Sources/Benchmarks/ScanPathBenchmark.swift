// The scan path end to end: LE Advertising Report bytes over H4 (in memory, or loopback TCP), through Host and CoreBluetooth, to didDiscover.

import CoreBluetooth
import Glibc
import OCBHost
import Synchronization

/// Measures how many advertising reports per second the whole stack takes from H4 bytes to
/// `centralManager(_:didDiscover:advertisementData:rssi:)` (issue #13's target: 1,000,000 on one core).
///
/// Two wirings (``Wiring``): `memory` (the default, the issue's "in-memory transport") is a ``Host/MemoryTransport``
/// whose controller is ``MemoryBenchController``, read in 16 KiB chunks on the host's queue as a socket is, with no
/// reader thread or system call; `tcp` is ``BenchController``, a thread in this process on a loopback TCP connection
/// (the wiring of `tcp:HOST:PORT`, as with the virtual controller). Either answers bring-up like a legacy-only
/// controller, and once LE Set Scan Enable (Core v5.4 Vol 4 Part E §7.8.11) turns scanning on hands the whole stream
/// over at once. The stream is
/// one LE Advertising Report event (§7.7.65.2, one report, ADV_NONCONN_IND, RSSI −60 dBm; the end marker's −1 dBm) per advertisement, cycling
/// the captures' advertising payloads of at most 31 bytes over `advertisers` random static addresses, then one from an
/// address heard nowhere else that marks the end (repeated every 5 ms until it is seen). Stack CPU is the process's CPU time less the controller thread's.
enum ScanPathBenchmark {
    /// How the stack reaches the controller.
    enum Wiring: String, CaseIterable {
        /// ``Host/MemoryTransport``: H4 bytes in memory, framed and handed over as a stream socket's reads are.
        case memory
        /// H4 over loopback TCP to a controller thread (`tcp:127.0.0.1:PORT`).
        case tcp
    }

    /// What each advertiser's reports carry.
    enum DataKind: String, CaseIterable {
        /// Every report of an advertiser carries the next payload of the corpus: data, and mostly the set of fields, that
        /// differ at every report (the worst case).
        case changing
        /// Every report of an advertiser carries its payload with a Manufacturer Specific Data structure after it whose
        /// last octet counts the reports (company 0xFFFF, Core Supplement v11 Part A §1.4): data that changes at every
        /// report with the same fields, as a sensor's readings do (a payload of more than 26 octets has its last octet
        /// counted instead).
        case counter
        /// Every advertiser repeats one payload (as beacons and most sensors do between readings).
        case repeating
    }

    /// One run's figures.
    struct Result {
        var reports: Int
        var delivered: Int
        var dropped: Int
        var seconds: Double
        var stackCPUSeconds: Double
    }

    /// Runs both scans (AllowDuplicates true, then false) `passes` times each over `reports` reports and prints a line
    /// per run: reports per wall second, reports per stack CPU second, deliveries and drops.
    /// `cases` narrows the runs to the data kinds (``DataKind``: "changing", "counter", "repeating") and duplicates
    /// settings ("true", "false") named, e.g. ["repeating", "true"]; empty runs all six.
    static func run(payloads: [[UInt8]], reports: Int, advertisers: Int, passes: Int, cases: Set<String> = [],
                    wiring: Wiring = .memory) -> Bool {
        let legacy = payloads.filter { $0.count <= 31 && !$0.isEmpty }
        guard !legacy.isEmpty else {
            FileHandle.standardError.write(Data("Benchmarks: no advertising payloads of 1...31 bytes\n".utf8))
            return false
        }
        print("scan path: \(reports) LE Advertising Reports from \(advertisers) advertisers, "
              + "\(wiring == .memory ? "in memory" : "tcp loopback") → Host → CoreBluetooth → didDiscover")
        let named = Set(DataKind.allCases.map(\.rawValue))
        let kinds = DataKind.allCases.filter { cases.isDisjoint(with: named) || cases.contains($0.rawValue) }
        let settings = [true, false].filter { cases.isDisjoint(with: ["true", "false"]) || cases.contains($0 ? "true" : "false") }
        for kind in kinds {
            let (stream, marker) = Self.stream(legacy, reports: reports, advertisers: advertisers, kind: kind)
            for pass in 1...passes {
                for duplicates in settings {
                    guard let result = measure(stream: stream, marker: marker, reports: reports, allowDuplicates: duplicates,
                                                wiring: wiring) else {
                        return false
                    }
                    let wall = Double(result.reports) / result.seconds
                    let delivered = Double(result.delivered) / result.seconds
                    let cpu = result.stackCPUSeconds / Double(result.reports) * 1e6
                    print(String(format: "%@ pass %d allowDuplicates=%@: %8.0f reports/s taken in, %8.0f/s to didDiscover, "
                                 + "%.2f µs stack CPU per report; %d delivered, %d dropped (counted)",
                                 (kind.rawValue + " data").padding(toLength: 14, withPad: " ", startingAt: 0), pass,
                                 duplicates ? "true " : "false",
                                 wall, delivered, cpu, result.delivered, result.dropped))
                }
            }
        }
        return true
    }

    /// The H4 bytes of the reports, then the end marker (address C0:00:FF:FF:FF:FF, RSSI −1 dBm).
    /// `kind` says what each advertiser's reports carry (``DataKind``).
    static func stream(_ payloads: [[UInt8]], reports: Int, advertisers: Int, kind: DataKind) -> (stream: [UInt8], marker: [UInt8]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(reports * 45)
        func append(_ address: UInt32, top: UInt8, _ data: [UInt8], rssi: UInt8 = 0xC4) {
            // H4 event, LE Meta, length, subevent 0x02, one report, ADV_NONCONN_IND, random, address LSB first, data, RSSI.
            bytes += [0x04, 0x3E, UInt8(12 + data.count), 0x02, 0x01, 0x03, 0x01,
                      UInt8(address & 0xFF), UInt8(address >> 8 & 0xFF), UInt8(address >> 16 & 0xFF), UInt8(address >> 24), 0x00, top,
                      UInt8(data.count)]
            bytes += data
            bytes.append(rssi)
        }
        for index in 0..<reports {
            let advertiser = index % max(1, advertisers)
            switch kind {
            case .changing: append(UInt32(advertiser), top: 0xC1, payloads[index % payloads.count])
            case .repeating: append(UInt32(advertiser), top: 0xC1, payloads[advertiser % payloads.count])
            case .counter:
                var payload = payloads[advertiser % payloads.count]
                let count = UInt8(truncatingIfNeeded: index / max(1, advertisers))
                if payload.count <= 26 {
                    payload += [0x04, 0xFF, 0xFF, 0xFF, count]
                } else {
                    payload[payload.count - 1] = count
                }
                append(UInt32(advertiser), top: 0xC1, payload)
            }
        }
        let body = bytes.count
        append(0xFFFF_FFFF, top: 0xC0, [0x02, 0x01, 0x06], rssi: 0xFF)
        return (bytes, Array(bytes[body...]))
    }

    /// One scan over `stream`; nil (with a line on stderr) when the stack did not get there.
    static func measure(stream: [UInt8], marker: [UInt8], reports: Int, allowDuplicates: Bool, wiring: Wiring) -> Result? {
        let central = ScanCentral(allowDuplicates: allowDuplicates)
        var manager: CBCentralManager?
        let controller: any StreamController
        // The in-memory wiring's state directory (no bond is made): removed when the measurement ends.
        let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        switch wiring {
        case .tcp:
            guard let socketController = BenchController(stream: stream, marker: marker) else { return nil }
            controller = socketController
            manager = CBCentralManager(delegate: central, queue: central.queue,
                                       options: [CBCentralManagerOptionTransportKey: "tcp:127.0.0.1:\(socketController.port)"])
        case .memory:
            let memoryController = MemoryBenchController(stream: stream, marker: marker)
            controller = memoryController
            let transport = memoryController.transport
            let host = HostController(configuration: HostConfiguration(makeTransport: { transport }))
            manager = CBCentralManager(delegate: central, queue: central.queue, options: nil,
                                       backend: HostCentralBackend(host: host), stateDirectory: stateDirectory)
        }
        defer { controller.stop() }
        // Done when the end marker arrived (the controller repeats it until then: a bound may drop a copy).
        let deadline = ContinuousClock.now + .seconds(60)
        while !central.ended {
            guard ContinuousClock.now < deadline else {
                let line = "Benchmarks: the scan path did not deliver the end marker within 60 s (\(central.count) discoveries)\n"
                FileHandle.standardError.write(Data(line.utf8))
                return nil
            }
            usleep(200)
        }
        let end = central.endTime
        let processCPU = BenchController.processCPU()
        guard let start = controller.streamStart else { return nil }
        let result = Result(reports: reports, delivered: central.deliveredBeforeEnd, dropped: manager?.droppedDiscoveryCount ?? 0,
                            seconds: Double((end - start).components.attoseconds) / 1e18 + Double((end - start).components.seconds),
                            stackCPUSeconds: processCPU - controller.startCPU - controller.ownCPU)
        // Released before the controller goes, as an app ends its manager: its deinit stops the host (the scan ended
        // on the controller, the transport closed), so no lost controller or failed stop is reported on the way out.
        manager = nil
        return result
    }
}

/// The controller side of either wiring, as ``ScanPathBenchmark/measure(stream:marker:reports:allowDuplicates:wiring:)`` reads it.
protocol StreamController {
    /// When the stream was handed over; nil before.
    var streamStart: ContinuousClock.Instant? { get }
    /// The process's CPU seconds when the stream began.
    var startCPU: Double { get }
    /// The CPU seconds the controller spent handing the stream over.
    var ownCPU: Double { get }
    /// Ends the controller (the host sees its transport end).
    func stop()
}

extension BenchController: StreamController {}
extension MemoryBenchController: StreamController {}

/// The delegate: counts discoveries and notes when the end marker's arrives.
private final class ScanCentral: NSObject, CBCentralManagerDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "benchmarks.scan")
    let allowDuplicates: Bool
    /// Discoveries before the end marker's: an atomic count, the least an app's delegate does (the benchmark measures the
    /// stack, not a lock of its own taken per discovery).
    private let delivered = Atomic<Int>(0)
    private let lock = NSLock()
    private var endInstant: ContinuousClock.Instant?
    private var countAtEnd = 0

    /// Discoveries so far.
    var count: Int { delivered.load(ordering: .relaxed) }
    /// True once the end marker's discovery arrived.
    var ended: Bool { lock.withLock { endInstant != nil } }
    /// When it arrived.
    var endTime: ContinuousClock.Instant { lock.withLock { endInstant ?? .now } }
    /// Discoveries before the end marker's.
    var deliveredBeforeEnd: Int { lock.withLock { countAtEnd } }

    init(allowDuplicates: Bool) { self.allowDuplicates = allowDuplicates }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        guard central.state == .poweredOn else { return }
        central.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: allowDuplicates])
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard RSSI.intValue == -1 else {
            delivered.add(1, ordering: .relaxed)
            return
        }
        lock.withLock {
            guard endInstant == nil else { return }
            endInstant = .now
            countAtEnd = delivered.load(ordering: .relaxed)
        }
    }
}
