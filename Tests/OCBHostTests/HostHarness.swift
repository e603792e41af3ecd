// Test support: a HostController on a virtual peer's controller, with an event log that tests wait on (bounded).

import OCBCore
import Dispatch
import Foundation
import OCBHCI
import OCBHost
import PeerSupport

/// Every event a host emitted, in order, with bounded waits.
final class EventLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [HostEvent] = []

    func append(_ event: HostEvent) {
        condition.lock()
        events.append(event)
        condition.broadcast()
        condition.unlock()
    }

    var all: [HostEvent] {
        condition.lock()
        defer { condition.unlock() }
        return events
    }

    /// Waits up to `seconds` for an event matching `match`, searching from the start; nil when none came.
    func first<T>(within seconds: Double = 5, _ match: (HostEvent) -> T?) -> T? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = events.lazy.compactMap(match).first { return found }
            guard condition.wait(until: deadline) else { return events.lazy.compactMap(match).first }
        }
    }

    /// Waits until `predicate` holds over the whole log (bounded).
    func waitUntil(within seconds: Double = 5, _ predicate: ([HostEvent]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(events) {
            guard condition.wait(until: deadline) else { return predicate(events) }
        }
        return true
    }

    func clear() {
        condition.lock()
        events = []
        condition.unlock()
    }
}

/// A host on controller `index` of `peer`.
func makeHost(_ peer: VirtualPeer, index: Int = 0, commandTimeout: Duration = .seconds(2),
              ownAddress: HostConfiguration.OwnAddress = .randomStatic(nil)) -> (HostController, EventLog) {
    let port = peer.port(index)
    let host = HostController(configuration: HostConfiguration(
        makeTransport: { H4StreamTransport(endpoint: .tcp(host: "127.0.0.1", port: port)) },
        ownAddress: ownAddress, commandTimeout: commandTimeout))
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "OCBHostTests.events")) { log.append($0) }
    return (host, log)
}

/// The peer's devices (Tests/Peer/advertisers.py).
enum PeerDevices {
    static let alpha = PeerAddress(BluetoothAddress("C1:A0:00:00:00:01")!, type: .random)
    static let bravo = PeerAddress(BluetoothAddress("C1:B0:00:00:00:02")!, type: .random)
    static let iBeacon = PeerAddress(BluetoothAddress("C1:1B:EA:C0:00:03")!, type: .random)
    static let eddystone = PeerAddress(BluetoothAddress("C1:ED:D7:00:00:04")!, type: .random)
}

extension HostEvent {
    var discovered: DiscoveredDevice? { if case .discovered(let device) = self { return device } else { return nil } }
    var connected: ConnectionInfo? { if case .connected(let info) = self { return info } else { return nil } }
    var connectionFailure: (PeerAddress, HostError)? {
        if case .connectionFailed(let peer, let error) = self { return (peer, error) } else { return nil }
    }
    var disconnection: (ConnectionInfo, HCIErrorCode, HostError?)? {
        if case .disconnected(let info, let reason, let error) = self { return (info, reason, error) } else { return nil }
    }
}
