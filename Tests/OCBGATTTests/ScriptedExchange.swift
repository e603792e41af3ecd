// Test helper: drives a GATTClient through a script of expected request bytes and the response bytes to feed back.
import Testing
import Foundation
import OCBATT
import OCBCore
@testable import OCBGATT

/// Parses hex written as in the spec's byte layouts ("10 01 00 ff ff 00 28"); an empty array if not hex.
func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }

/// The production wiring of a client under test: the ATT bearer it runs on (``GATTClient/run(on:now:)``, as the host's
/// LinkATT does), one per client, made on first use with the client's ATT_MTU already agreed.
final class Wiring: @unchecked Sendable {
    static let shared = Wiring()
    /// Weak so that a new client at a freed client's address never gets its bearer.
    private struct Entry {
        weak var client: GATTClient?
        var bearer: ATTBearer
    }
    private var bearers: [ObjectIdentifier: Entry] = [:]
    private let lock = NSLock()
    let now = ContinuousClock.now

    /// Runs `client` over its bearer after `feed` (received PDUs go to the bearer) and returns the PDUs sent.
    func run(_ client: GATTClient, feed: [UInt8]? = nil) -> [[UInt8]] {
        lock.lock()
        defer { lock.unlock() }
        let key = ObjectIdentifier(client)
        var bearer = bearers[key].flatMap { $0.client === client ? $0.bearer : nil } ?? Self.bearer(mtu: client.mtu, now: now)
        if let feed { bearer.receive(feed, now: now) }
        let events = client.run(on: &bearer, now: now)
        bearers[key] = Entry(client: client, bearer: bearer)
        return events.compactMap { if case .send(let pdu) = $0 { pdu } else { nil } }
    }

    /// A bearer whose ATT_MTU is `mtu`: the peer's own Exchange MTU Request announced it (our answer is dropped).
    private static func bearer(mtu: Int, now: ContinuousClock.Instant) -> ATTBearer {
        var bearer = ATTBearer()
        if mtu > ATTBearer.minimumMTU {
            bearer.receive([0x02, UInt8(mtu & 0xFF), UInt8(mtu >> 8)], now: now)
            _ = bearer.takeEvents()
        }
        return bearer
    }
}

/// Expects the client, run over its ATT bearer (the production wiring), to send exactly `request` (hex), then has the
/// bearer receive `response` (hex) and runs the client again, as the host does for each PDU on CID 0x0004.
func exchange(_ client: GATTClient, _ request: String, _ response: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let sent = pendingSent(client)
    #expect(sent.map { Hex.string($0, separator: " ") } == [Hex.string(hex(request), separator: " ")], sourceLocation: sourceLocation)
    stash(client, Wiring.shared.run(client, feed: hex(response)))
}

/// Expects nothing more to be sent and no procedure running.
func expectQuiet(_ client: GATTClient, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(pendingSent(client).isEmpty, sourceLocation: sourceLocation)
    #expect(!client.isBusy, sourceLocation: sourceLocation)
}

/// PDUs a client sent after the last exchange but not yet expected (weak, as the wiring's bearers).
private struct Stash {
    weak var client: GATTClient?
    var pdus: [[UInt8]]
}
nonisolated(unsafe) private var stashed: [ObjectIdentifier: Stash] = [:]
private let stashLock = NSLock()

private func stash(_ client: GATTClient, _ pdus: [[UInt8]]) {
    stashLock.withLock { stashed[ObjectIdentifier(client)] = Stash(client: client, pdus: pdus) }
}

/// What the client sent since the last look: stashed PDUs, then a run for procedures started since.
private func pendingSent(_ client: GATTClient) -> [[UInt8]] {
    let earlier = stashLock.withLock { () -> [[UInt8]] in
        guard let entry = stashed.removeValue(forKey: ObjectIdentifier(client)), entry.client === client else { return [] }
        return entry.pdus
    }
    return earlier + Wiring.shared.run(client)
}

/// Holds the one result a completion delivers.
final class Outcome<Value> {
    var result: Result<Value, GATTError>?
    var completion: (Result<Value, GATTError>) -> Void { { self.result = $0 } }
    var value: Value? { if case .success(let value) = result { value } else { nil } }
    var error: GATTError? { if case .failure(let error) = result { error } else { nil } }
}
