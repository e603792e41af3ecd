// Test helper: drives a GATTClient through a script of expected request bytes and the response bytes to feed back.
import Testing
import Foundation
import OCBATT
import OCBCore
@testable import OCBGATT

/// Parses hex written as in the spec's byte layouts ("10 01 00 ff ff 00 28"); an empty array if not hex.
func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }

/// The production wiring of a client under test: the client with the ATT bearer it owns, fed as the host's LinkATT
/// feeds it (every PDU received on CID 0x0004 through ``GATTClient/receive(_:now:)``, procedures through
/// ``GATTClient/run(now:)``), at one injected instant.
final class Wiring: @unchecked Sendable {
    static let shared = Wiring()
    let now = ContinuousClock.now

    /// Runs `client` after `feed` (a PDU received on its bearer) and returns the PDUs it sent.
    func run(_ client: GATTClient, feed: [UInt8]? = nil) -> [[UInt8]] {
        sends(feed.map { client.receive($0, now: now) } ?? client.run(now: now))
    }

    /// The PDUs to send among `events`.
    func sends(_ events: [ATTBearerEvent]) -> [[UInt8]] {
        events.compactMap { if case .send(let pdu) = $0 { pdu } else { nil } }
    }
}

extension GATTClient {
    /// A client whose bearer agreed ATT_MTU `mtu` (23...517): the peer's own Exchange MTU Request announced it, and the
    /// client's answer is dropped.
    static func agreed(mtu: Int) -> GATTClient {
        let client = GATTClient()
        if mtu > ATTBearer.minimumMTU { _ = client.receive([0x02, UInt8(mtu & 0xFF), UInt8(mtu >> 8)], now: Wiring.shared.now) }
        return client
    }
}

/// Has the client's bearer receive a server-initiated PDU (a notification or indication, hex or bytes), keeps what it
/// sent for the next ``exchange(_:_:_:sourceLocation:)``, and returns true when the client took the value (a
/// subscriber or Service Changed), false when it passed it up.
@discardableResult
func serverSends(_ client: GATTClient, _ pdu: [UInt8]) -> Bool {
    let events = client.receive(pdu, now: Wiring.shared.now)
    stash(client, pendingSent(client, runFirst: false) + Wiring.shared.sends(events))
    return !events.contains { if case .value = $0 { true } else { false } }
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

func stash(_ client: GATTClient, _ pdus: [[UInt8]]) {
    stashLock.withLock { stashed[ObjectIdentifier(client)] = Stash(client: client, pdus: pdus) }
}

/// What the client sent since the last look: stashed PDUs, then (`runFirst`) a run for procedures started since.
func pendingSent(_ client: GATTClient, runFirst: Bool = true) -> [[UInt8]] {
    let earlier = stashLock.withLock { () -> [[UInt8]] in
        guard let entry = stashed.removeValue(forKey: ObjectIdentifier(client)), entry.client === client else { return [] }
        return entry.pdus
    }
    return earlier + (runFirst ? Wiring.shared.run(client) : [])
}

/// Holds the one result a completion delivers.
final class Outcome<Value> {
    var result: Result<Value, GATTError>?
    var completion: (Result<Value, GATTError>) -> Void { { self.result = $0 } }
    var value: Value? { if case .success(let value) = result { value } else { nil } }
    var error: GATTError? { if case .failure(let error) = result { error } else { nil } }
}
