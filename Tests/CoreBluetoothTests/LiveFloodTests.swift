// Connecting through the CoreBluetooth API while the peer floods the scan with distinct advertisers.
@testable import CoreBluetooth
import Foundation
import Testing

extension LiveSuite {
    /// While 20,000 advertisers flood the scan (AllowDuplicates false), alpha is found and connected, and the flood's
    /// advertisers keep arriving: the discoveries do not stand between the app and its link (the host's and the
    /// manager's bounds drop what the delegate cannot take, counted in `droppedDiscoveryCount`).
    @Test func aConnectDuringAFloodOfAdvertisersCompletes() throws {
        let peer = try LivePeer.shared()
        let central = LiveCentral(transport: try LivePeer.transport(1))
        #expect(central.wait { $0.hasPrefix("state ") } == "state poweredOn")
        #expect(central.request("discover OCB Alpha") { central.manager.scanForPeripherals(withServices: nil) } != nil)
        let alpha = try #require(central.queue.sync { central.recorder.discovered.last { $0.0.name == "OCB Alpha" }?.0 })
        let flood = DispatchSemaphore(value: 0)
        let floodResult = LockedValue<Result<Double, any Error>?>(nil)
        DispatchQueue.global().async {
            floodResult.set(Result { try peer.flood(20_000, controller: 1) })
            flood.signal()
        }
        // Once the flood's reports arrive, connect: the scan goes on meanwhile.
        #expect(poll(within: 10) { central.queue.sync { central.recorder.discovered.contains { $0.0.address?.hasPrefix("D0:00:") == true } } })
        #expect(central.request("connect", within: 20) { central.manager.connect(alpha) } == "connect")
        #expect(alpha.state == .connected)
        #expect(flood.wait(timeout: .now() + 60) == .success)
        if case .failure(let error)? = floodResult.value { Issue.record("the peer's flood failed: \(error)") }
        // What the stack still holds reaches the delegate (or is counted) once the flood is over.
        func flooded() -> Set<String> {
            central.queue.sync { Set(central.recorder.discovered.compactMap { $0.0.address }.filter { $0.hasPrefix("D0:00:") }) }
        }
        _ = poll(within: 20) { flooded().count + central.manager.droppedDiscoveryCount >= 20_000 }
        let seen = flooded()
        #expect(seen.count + central.manager.droppedDiscoveryCount >= 20_000,
                "every advertiser discovered or counted as dropped: \(seen.count) + \(central.manager.droppedDiscoveryCount)")
        central.manager.stopScan()
        central.request("disconnect") { central.manager.cancelPeripheralConnection(alpha) }
    }
}

/// A value set on one thread and read on another.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    func set(_ value: Value) { lock.withLock { stored = value } }
    var value: Value { lock.withLock { stored } }
}
