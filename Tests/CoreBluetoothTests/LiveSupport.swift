// Test support for the integration tests: one virtual peer for the suite, a manager on one of its controllers, bounded waits.
@testable import CoreBluetooth
import Foundation
import PeerSupport
import Testing

/// The suite's virtual peer: six host-facing controllers, one per test that needs its own (the peer serves one
/// client per controller, and a controller that just lost its client needs a moment before it accepts the next).
enum LivePeer {
    nonisolated(unsafe) private static var started: Result<VirtualPeer, any Error>?
    private static let lock = NSLock()

    /// The running peer (started on first use).
    static func shared() throws -> VirtualPeer {
        try lock.withLock {
            if started == nil { started = Result { try VirtualPeer(controllers: 7) } }
            return try started!.get()
        }
    }

    /// Controllers: 0 the scenario, 1 the failed connection (muted), 2 the example, 3 state restoration, 4 the
    /// controller lost mid-session (its client dropped), 5 an auto-reconnect connection when the controller is lost, 6 the
    /// golden session recorded for the replay tests.
    static func transport(_ index: Int) throws -> String {
        "tcp:127.0.0.1:\(try shared().port(index))"
    }
}

/// A manager on a peer controller with a recording delegate on its own queue.
final class LiveCentral: @unchecked Sendable {
    let queue: DispatchQueue
    let recorder: Recorder
    let manager: CBCentralManager

    init(transport: String, options: [String: Any] = [:]) {
        let label = "live.\(UUID().uuidString)"
        queue = DispatchQueue(label: label)
        recorder = Recorder(queue: queue, label: label)
        recorder.onConnect = { [recorder] peripheral in peripheral.delegate = recorder }
        var all = options
        all[CBCentralManagerOptionTransportKey] = transport
        manager = CBCentralManager(delegate: recorder, queue: queue, options: all)
    }

    /// The log entries from `mark` on.
    func entries(from mark: Int) -> [String] { Array(recorder.log.dropFirst(mark)) }

    /// Waits (bounded) until an entry after `mark` satisfies `match`; returns it.
    @discardableResult
    func wait(from mark: Int = 0, within seconds: Double = 5, _ match: (String) -> Bool) -> String? {
        var found: String?
        _ = poll(within: seconds) {
            found = entries(from: mark).first(where: match)
            return found != nil
        }
        return found
    }

    /// Runs `request` and waits for the entry that starts with `prefix` after it.
    @discardableResult
    func request(_ prefix: String, within seconds: Double = 5, _ request: () -> Void) -> String? {
        let mark = recorder.log.count
        request()
        return wait(from: mark, within: seconds) { $0.hasPrefix(prefix) }
    }

    /// The advertisement data and RSSI of the last discovery of the peripheral named `name`.
    func lastDiscovery(named name: String) -> ([String: Any], NSNumber)? {
        queue.sync { recorder.discovered.last { $0.0.name == name }.map { ($0.1, $0.2) } }
    }
}

/// Polls `condition` every 10 ms for at most `seconds` (integration tests wait on the real peer, bounded).
func poll(within seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}

extension CBPeripheral {
    /// The discovered characteristic with this UUID string, in any service.
    func characteristic(_ uuid: String) -> CBCharacteristic? {
        (services ?? []).lazy.compactMap { $0.characteristics?.first { $0.uuid == CBUUID(string: uuid) } }.first
    }

    /// The discovered service with this UUID string.
    func service(_ uuid: String) -> CBService? { services?.first { $0.uuid == CBUUID(string: uuid) } }
}

/// Custom UUIDs of the peer's test service: `0CB1xxxx-7E57-4C0D-A9E5-0123456789AB`.
func alphaUUID(_ short: String) -> String { "0CB1\(short)-7E57-4C0D-A9E5-0123456789AB" }

extension LiveSuite {
    /// Scans, connects to "OCB Alpha" and discovers its services and the test service's characteristics (Tests/Peer
    /// README: 0CB10001 at 0x0027); the caller cancels the connection.
    static func connectAlphaTestService(_ central: LiveCentral) throws -> CBPeripheral {
        scanAll(central)
        let alpha = try #require(central.queue.sync { central.recorder.discovered.last { $0.0.name == "OCB Alpha" }?.0 })
        #expect(central.request("connect") { central.manager.connect(alpha, options: nil) } == "connect")
        #expect(central.request("services ") { alpha.discoverServices(nil) } != nil)
        let test = try #require(alpha.service(alphaUUID("0001")))
        #expect(central.request("characteristics ") { alpha.discoverCharacteristics(nil, for: test) } != nil)
        return alpha
    }
}
