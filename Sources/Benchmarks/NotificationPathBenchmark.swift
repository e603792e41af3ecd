// The notification path end to end at line rate: ACL bytes over H4 on loopback TCP, through L2CAP, ATT, GATT, Host and CoreBluetooth, to didUpdateValueFor.

import CoreBluetooth
import Glibc

/// Measures the stack's CPU per received notification when they come as fast as the host reads them (issue #12's
/// target: at most 2 µs), beside the virtual peer's figure where each value comes alone at the peer's pace.
///
/// The controller is ``BenchController`` playing a ``BenchPeripheral``: the app scans, connects, discovers the one
/// service and characteristic and subscribes through the CoreBluetooth API, exactly as against a device; the
/// peripheral then writes all its notifications at once (one ACL packet each, 20-byte values, ATT_MTU 23). Stack CPU
/// is the process's CPU time from the first notification to the last one delivered, less the controller thread's.
enum NotificationPathBenchmark {
    /// Runs `passes` measurements over `notifications` values and prints a line each; false when one failed.
    static func run(notifications: Int, passes: Int) -> Bool {
        print("notification path: \(notifications) Handle Value Notifications, tcp loopback → Host → CoreBluetooth → "
              + "didUpdateValueFor")
        for pass in 1...passes {
            guard let result = measure(notifications: notifications) else { return false }
            print(String(format: "notification path pass %d: %8.0f notifications/s taken in, %.2f µs stack CPU per "
                         + "notification; %d delivered, %d dropped (counted)", pass,
                         Double(notifications) / result.seconds, result.stackCPUSeconds / Double(notifications) * 1e6,
                         result.delivered, result.dropped))
        }
        return true
    }

    /// One run's figures.
    struct Result {
        var delivered: Int
        var dropped: Int
        var seconds: Double
        var stackCPUSeconds: Double
    }

    /// One session; nil (with a line on stderr) when the stack did not get there.
    static func measure(notifications: Int) -> Result? {
        func fail(_ what: String) -> Result? {
            FileHandle.standardError.write(Data("Benchmarks: notification path: \(what)\n".utf8))
            return nil
        }
        let peripheral = BenchPeripheral(notifications: notifications)
        guard let controller = BenchController(stream: peripheral.stream(), marker: peripheral.marker(), peripheral: peripheral) else {
            return fail("no loopback TCP")
        }
        defer { controller.stop() }
        let central = NotificationCentral()
        var options: [String: Any] = [CBCentralManagerOptionTransportKey: "tcp:127.0.0.1:\(controller.port)"]
        // OCB_BENCH_BTSNOOP=PATH records the session, to look at what went wrong.
        if let path = ProcessInfo.processInfo.environment["OCB_BENCH_BTSNOOP"] { options[CBCentralManagerOptionBtsnoopPathKey] = path }
        let manager = CBCentralManager(delegate: central, queue: central.queue, options: options)
        let deadline = ContinuousClock.now + .seconds(60)
        while !central.ended {
            guard ContinuousClock.now < deadline else {
                return fail("the end marker did not arrive within 60 s (\(central.progress))")
            }
            usleep(200)
        }
        let end = central.endTime
        let processCPU = BenchController.processCPU()
        guard let start = controller.streamStart, let peer = central.peripheral else { return fail("no stream") }
        let elapsed = start.duration(to: end)
        let result = Result(delivered: central.deliveredBeforeEnd, dropped: peer.droppedNotificationCount,
                            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                            stackCPUSeconds: processCPU - controller.startCPU - controller.ownCPU)
        manager.cancelPeripheralConnection(peer)
        return result
    }
}

/// The app: connects to "Bench", subscribes to its one characteristic and counts the values until the end marker's.
private final class NotificationCentral: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "benchmarks.notifications")
    private let lock = NSLock()
    private var delivered = 0
    private var endInstant: ContinuousClock.Instant?
    private var step = "waiting for poweredOn"
    /// The connected peripheral (read after the end).
    private(set) var peripheral: CBPeripheral?
    /// Values before the end marker's.
    private(set) var deliveredBeforeEnd = 0

    /// True once the end marker's value arrived.
    var ended: Bool { lock.withLock { endInstant != nil } }
    /// When it arrived.
    var endTime: ContinuousClock.Instant { lock.withLock { endInstant ?? .now } }
    /// Where the session is, for a failure line.
    var progress: String { lock.withLock { "\(step), \(delivered) values" } }

    private func note(_ text: String) { lock.withLock { step = text } }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        guard central.state == .poweredOn else { return }
        note("scanning")
        central.scanForPeripherals(withServices: nil, options: nil)
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard self.peripheral == nil, advertisementData[CBAdvertisementDataLocalNameKey] as? String == "Bench" else { return }
        central.stopScan()
        self.peripheral = peripheral
        peripheral.delegate = self
        note("connecting")
        central.connect(peripheral, options: nil)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        note("discovering services")
        peripheral.discoverServices(nil)
    }

    func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?) {
        note("connect failed: \(String(describing: error))")
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {
        guard let service = peripheral.services?.first else { return note("no service: \(String(describing: error))") }
        note("discovering characteristics")
        peripheral.discoverCharacteristics(nil, for: service)
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?) {
        guard let characteristic = service.characteristics?.first else {
            return note("no characteristic: \(String(describing: error))")
        }
        note("subscribing")
        peripheral.setNotifyValue(true, for: characteristic)
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: (any Error)?) {
        note(error == nil ? "subscribed" : "subscribe failed: \(String(describing: error))")
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        let isEnd = characteristic.value?.first == BenchPeripheral.markerByte
        lock.withLock {
            if isEnd, endInstant == nil {
                endInstant = .now
                deliveredBeforeEnd = delivered
            }
            if !isEnd { delivered += 1 }
        }
    }
}
