// A manager that cannot reach its controller says why on stderr, once per state change, unless ShowPowerAlert is false.
@testable import CoreBluetooth
import Foundation
import Glibc
import OCBHost
import Testing

/// Counts calls (the host's transport openings) and the backend's state events.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var events: [CBManagerState] = []

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
    func record(_ event: BackendEvent) {
        if case .stateChanged(let state, _) = event { lock.withLock { events.append(state) } }
    }
    var states: [CBManagerState] { lock.withLock { events } }
}

/// Polls `condition` every 10 ms for at most `seconds` (bounded waits on the backend's own retry timer).
private func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(10_000)
    }
    return true
}

@Suite(.serialized) struct UnavailabilityWarningTests {
    @Test("no kernel Bluetooth: state unsupported and one WARNING line with the reason and what to do")
    func unsupported() throws {
        let opens = Counter(), events = Counter()
        let host = HostController(configuration: HostConfiguration(makeTransport: {
            opens.increment()
            throw HCITransportError.noBluetoothSupport
        }))
        let capture = WarningCapture(marker: "state unsupported")
        defer { capture.remove() }
        let backend = HostCentralBackend(host: host)
        backend.start { events.record($0) }
        #expect(eventually { !capture.lines.isEmpty })
        backend.stop()
        #expect(events.states == [.unsupported])
        // Other suites running at the same time make default (hci0) managers on this kernel, which log the same line:
        // every captured line is this one, and this backend opened its transport once (a retry would log again).
        #expect(Set(capture.lines) == ["[CoreBluetooth] WARNING: Bluetooth is unavailable (state unsupported): this kernel has no "
                                       + "Bluetooth support (socket(AF_BLUETOOTH) gives EAFNOSUPPORT): load the bluetooth modules, "
                                       + "or pick tcp:HOST:PORT or serial:DEVICE with CBCentralManagerOptionTransportKey or OCB_TRANSPORT"])
        #expect(opens.value == 1, "unsupported is final: no retry")
    }

    @Test("a refused transport: poweredOff, one WARNING line with the transport's words, none for the retries")
    func refusedOncePerStateChange() throws {
        let opens = Counter(), events = Counter()
        let host = HostController(configuration: HostConfiguration(makeTransport: {
            opens.increment()
            throw HCITransportError.system(operation: "connect to tcp:warning-test:1", errno: ECONNREFUSED)
        }))
        let capture = WarningCapture(marker: "warning-test")
        defer { capture.remove() }
        let backend = HostCentralBackend(host: host)
        backend.retryDelay = 0.01  // 0.01, 0.02, 0.04 s: four openings within a few tenths of a second
        backend.start { events.record($0) }
        #expect(eventually { opens.value >= 4 })
        backend.stop()
        #expect(events.states == [.poweredOff])
        #expect(capture.lines == ["[CoreBluetooth] WARNING: Bluetooth is unavailable (state poweredOff): connect to "
                                  + "tcp:warning-test:1 failed: Connection refused (errno 111) (opening it again every 0.5 s "
                                  + "to 30 s until it answers)"])
    }

    @Test("CBCentralManagerOptionShowPowerAlertKey: true by default (one line), false silences it")
    func showPowerAlertOption() throws {
        // Port 1 on the loopback: nothing listens there on a test machine, so connect is refused.
        for (options, expected) in [([:] as [String: Any], 1), ([CBCentralManagerOptionShowPowerAlertKey: false], 0)] {
            let capture = WarningCapture(marker: "tcp:127.0.0.1:1 failed")
            defer { capture.remove() }
            let queue = DispatchQueue(label: "UnavailabilityWarningTests.manager")
            var all = options
            all[CBCentralManagerOptionTransportKey] = "tcp:127.0.0.1:1"
            let manager = CBCentralManager(delegate: nil, queue: queue, options: all)
            #expect(eventually { manager.state == .poweredOff })
            // The warning is logged right after the state is reported, in the same block of the backend's queue.
            let backend = try #require(manager.backend as? HostCentralBackend)
            backend.queue.sync {}
            #expect(capture.lines.count == expected, "\(options): \(capture.lines)")
            withExtendedLifetime(manager) {}
        }
    }

    @Test("a controller lost mid-session: one WARNING line with the host's words, then poweredOn again after the retry")
    func lostMidSession() throws {
        let peer = try LivePeer.shared()
        let central = LiveCentral(transport: try LivePeer.transport(4))
        #expect(poll(within: 10) { central.manager.state == .poweredOn })
        // The marker is this loss's own words: other suites' managers (a replay ending, a scan refused) log their own
        // "transport closed" lines through the same process-wide sink.
        let capture = WarningCapture(marker: "transport closed: transport closed by the other side")
        defer { capture.remove() }
        try peer.dropClient(controller: 4)  // the peer closes the TCP connection: the host reads end of file
        #expect(poll(within: 5) { !capture.lines.isEmpty })
        // The facade's state follows on its own queue: wait for its delegate calls, not the property.
        #expect(central.wait(within: 5) { $0 == "state poweredOff" } != nil)
        let off = central.recorder.log.lastIndex(of: "state poweredOff") ?? 0
        #expect(central.wait(from: off, within: 10) { $0 == "state poweredOn" } != nil, "the backend opens the controller again")
        #expect(capture.lines == ["[CoreBluetooth] WARNING: Bluetooth is unavailable (state poweredOff): transport closed: "
                                  + "transport closed by the other side (opening it again every 0.5 s to 30 s until it answers)"])
        #expect(central.recorder.log.filter { $0.hasPrefix("state ") } == ["state poweredOn", "state poweredOff", "state poweredOn"])
    }
}

// In the serialized LiveSuite: it connects OCB Alpha, which takes one central at a time and stops advertising while
// connected, so it must not run beside the other tests that connect it.
extension LiveSuite {
    @Test("an auto-reconnect connection when the controller is lost: not reported as reconnecting; connects again once it is back")
    func autoReconnectAfterControllerLoss() throws {
        let peer = try LivePeer.shared()
        let central = LiveCentral(transport: try LivePeer.transport(5), options: [CBCentralManagerOptionShowPowerAlertKey: false])
        #expect(central.wait { $0.hasPrefix("state ") } == "state poweredOn")
        central.request("discover OCB Alpha") { central.manager.scanForPeripherals(withServices: [CBUUID(string: "180D")]) }
        central.manager.stopScan()
        let alpha = try #require(central.queue.sync { central.recorder.discovered.last { $0.0.name == "OCB Alpha" }?.0 })
        #expect(central.request("connect") { central.manager.connect(alpha, options: [CBConnectPeripheralOptionEnableAutoReconnect: true]) } == "connect")
        let mark = central.recorder.log.count
        try peer.dropClient(controller: 5)  // the controller is gone: end of file on its transport
        #expect(central.wait(from: mark, within: 5) { $0 == "state poweredOff" } != nil)
        #expect(central.entries(from: mark).prefix(2) == ["disconnect error=CB.7", "state poweredOff"], "\(central.entries(from: mark))")
        #expect(alpha.state == .disconnected)
        #expect(central.wait(from: mark, within: 10) { $0 == "state poweredOn" } != nil, "the backend opens the controller again")
        // As on iOS, the app finds the peripheral again and connects it itself.
        let again = central.recorder.log.count
        central.request("discover OCB Alpha") { central.manager.scanForPeripherals(withServices: [CBUUID(string: "180D")]) }
        central.manager.stopScan()
        let found = try #require(central.queue.sync { central.recorder.discovered.last { $0.0.name == "OCB Alpha" }?.0 })
        #expect(central.request("connect") { central.manager.connect(found) } == "connect", "\(central.entries(from: again))")
        central.request("disconnect") { central.manager.cancelPeripheralConnection(found) }
    }
}
