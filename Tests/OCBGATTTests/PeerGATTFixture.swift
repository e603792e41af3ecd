// Test support: one virtual peer and one full host shared by the GATT peer tests, with bounded waits on its events.

import OCBCore
import Foundation
import OCBGATT
import OCBHCI
import OCBHost
import PeerSupport
import Testing

/// The GATT peer tests: one ``PeerGATT`` (one peer process, one host) for all of them, run one at a time; each
/// test makes its own connection to alpha (a fresh ATT bearer at ATT_MTU 23) and ends it.
@Suite(.serialized) struct PeerGATTTests {}

/// A started host on a virtual peer's controller 0, recording its traffic in a btsnoop file.
final class PeerGATT: @unchecked Sendable {
    /// Shared by every test of the suite (started on first use; the peer exits with the test process).
    static let shared = Result { try PeerGATT() }

    let peer: VirtualPeer
    let host: HostController
    /// The host's HCI traffic, for counting ATT requests.
    let capturePath: String
    private let condition = NSCondition()
    private var events: [HostEvent] = []

    static let alpha = PeerAddress(BluetoothAddressLiteral.alpha, type: .random)

    private init() throws {
        peer = try VirtualPeer()
        let port = peer.port(0)
        capturePath = FileManager.default.temporaryDirectory.appendingPathComponent("gatt-\(peer.pid).btsnoop").path
        host = HostController(configuration: HostConfiguration(
            makeTransport: { H4StreamTransport(endpoint: .tcp(host: "127.0.0.1", port: port)) },
            ownAddress: .randomStatic(nil), commandTimeout: .seconds(2), btsnoopPath: capturePath))
        host.setEventHandler(queue: DispatchQueue(label: "PeerGATT.events")) { [weak self] event in self?.append(event) }
        let started = Waiter<Result<ControllerInfo, HostError>>()
        host.start { started.put($0) }
        _ = try #require(started.wait(within: 10)).get()
    }

    private func append(_ event: HostEvent) {
        condition.lock()
        events.append(event)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits up to `seconds` for an event matching `match` among those after index `from`.
    func event<T>(after from: Int = 0, within seconds: Double = 5, _ match: (HostEvent) -> T?) -> T? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = events.dropFirst(from).lazy.compactMap(match).first { return found }
            guard condition.wait(until: deadline) else { return nil }
        }
    }

    /// How many events arrived so far.
    var eventCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return events.count
    }

    /// Connects to alpha, runs `body` with the connection handle, then disconnects (bounded waits).
    func withAlpha(_ body: (ConnectionHandle) throws -> Void) throws {
        let mark = eventCount
        host.connect(to: Self.alpha, options: ConnectOptions(timeout: .seconds(5)))
        let handle = try #require(event(after: mark, within: 6) { event -> ConnectionHandle? in
            if case .connected(let info) = event { return info.handle }
            if case .connectionFailed(_, let error) = event { Issue.record("connect failed: \(error)") }
            return nil
        })
        defer {
            let before = eventCount
            host.disconnect(handle, reason: .remoteUserTerminatedConnection)
            _ = event(after: before) { event -> Bool? in
                if case .disconnected(let info, _, _) = event, info.handle == handle { return true }
                return nil
            }
        }
        try body(handle)
    }

    /// Runs `body` with the connection's GATT client on the host's queue and waits (bounded) for what it passes to
    /// its `done`; nil when it never did.
    func gatt<T: Sendable>(_ handle: ConnectionHandle, within seconds: Double = 10,
                           _ body: @escaping @Sendable (GATTClient, @escaping @Sendable (T) -> Void) -> Void) -> T? {
        let waiter = Waiter<T>()
        host.withGATT(handle) { client in
            guard let client else {
                Issue.record("no GATT client for 0x\(String(handle.rawValue, radix: 16))")
                return
            }
            body(client) { waiter.put($0) }
        }
        return waiter.wait(within: seconds)
    }

    /// Discovers the whole database (needed before subscribing: the CCCDs come from the cache).
    func discover(_ handle: ConnectionHandle) throws -> GATTAttributeCache {
        let result = try #require(gatt(handle) { client, done in client.discoverDatabase { done($0) } })
        return try result.get()
    }
}

/// Alpha's address (Tests/Peer/advertisers.py).
enum BluetoothAddressLiteral {
    static let alpha = BluetoothAddress("C1:A0:00:00:00:01")!
}

/// Values handed from the host's queue to the test, with bounded waits.
final class Waiter<T>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [T] = []

    func put(_ item: T) {
        condition.lock()
        items.append(item)
        condition.broadcast()
        condition.unlock()
    }

    /// The first item, waiting up to `seconds`.
    func wait(within seconds: Double) -> T? { wait(for: 1, within: seconds).first }

    /// Waits up to `seconds` until `count` items arrived; returns what arrived.
    func wait(for count: Int, within seconds: Double) -> [T] {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while items.count < count, condition.wait(until: deadline) {}
        return items
    }
}

/// A custom UUID of the peer: `0CB1xxxx-7E57-4C0D-A9E5-0123456789AB` (Tests/Peer/README.md).
func custom(_ short: UInt16) -> BluetoothUUID {
    BluetoothUUID(String(format: "0CB1%04X-7E57-4C0D-A9E5-0123456789AB", short))!
}

/// `text` as UTF-8 bytes.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
