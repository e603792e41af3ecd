// Link-level HCI commands (Read RSSI, Disconnect) go out while an ATT transaction is pending on the same link, and an
// ATT transaction timeout closes the bearer and disconnects the link.

import Dispatch
import Foundation
import OCBCore
import OCBHCI
import OCBHost
import Testing

@Test(.timeLimit(.minutes(3))) func readRSSIAndDisconnectDoNotWaitBehindAPendingATTTransaction() async throws {
    let controller = ScriptedController()
    // An ATT transaction timeout longer than any wait below: on a loaded machine (the whole suite on 2 cores) the
    // test's own awaits were once slower than the 30 s default, and the timeout, not the link commands, ended the request.
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller }, attTransactionTimeout: .seconds(150)))
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "LinkCommandIndependenceTests.events")) { log.append($0) }
    defer { host.stop() }
    try await host.start()
    let peer = try #require(BluetoothAddress("C1:A0:00:00:00:01"))
    host.connect(to: PeerAddress(peer, type: .random), options: ConnectOptions(timeout: .seconds(5)))
    #expect(pollUntil { controller.sentOpcodes.contains(0x2043) || controller.sentOpcodes.contains(0x200D) })
    // LE Connection Complete (Core v5.4 Vol 4 Part E §7.7.65.1): status 0, handle 0x0040, central, random
    // C1:A0:00:00:00:01, interval 0x0018 (30 ms), latency 0, supervision timeout 0x0048 (720 ms).
    controller.inject([0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0xA0, 0xC1,
                       0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00])
    #expect(log.waitUntil(within: 5) { $0.contains { $0.connected?.handle == 0x0040 } })

    // ATT_READ_REQ for 0x0003 (Vol 3 Part F §3.4.4.3); the controller never delivers a response.
    let attResult = Box<Result<[UInt8], HostError>>()
    host.sendATTRequest([0x0A, 0x03, 0x00], on: 0x0040) { attResult.put($0) }
    // HCI Read RSSI (§7.5.4) is answered (−45 dBm) with the ATT transaction still pending.
    #expect(try await host.readRSSI(0x0040) == -45)
    #expect(attResult.items.isEmpty)
    // HCI Disconnect (§7.1.6) goes out too; Disconnection Complete (§7.7.5, reason 0x16 Connection Terminated By
    // Local Host) then ends the ATT request.
    host.disconnect(0x0040, reason: .remoteUserTerminatedConnection)
    #expect(pollUntil { controller.sentOpcodes.contains(0x0406) })
    #expect(attResult.items.isEmpty)
    controller.inject([0x05, 0x04, 0x00, 0x40, 0x00, 0x16])
    #expect(pollUntil { attResult.items.count == 1 })
    if case .success = attResult.items.first { Issue.record("the ATT request succeeded after the link ended") }
    // Read RSSI 0x1405 and Disconnect 0x0406 in the order asked.
    #expect(controller.sentOpcodes.filter { $0 == 0x1405 || $0 == 0x0406 } == [0x1405, 0x0406])
}

@Test(.timeLimit(.minutes(1))) func attTransactionTimeoutClosesTheBearerAndDisconnectsTheLink() async throws {
    let controller = ScriptedController()
    // 300 ms instead of the 30 s ATT transaction timeout (Core v5.4 Vol 3 Part F §3.3.3), so the test need not wait.
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller }, attTransactionTimeout: .milliseconds(300)))
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "LinkCommandIndependenceTests.timeout")) { log.append($0) }
    defer { host.stop() }
    try await host.start()
    let peer = try #require(BluetoothAddress("C1:A0:00:00:00:01"))
    host.connect(to: PeerAddress(peer, type: .random), options: ConnectOptions(timeout: .seconds(5)))
    #expect(pollUntil { controller.sentOpcodes.contains(0x2043) || controller.sentOpcodes.contains(0x200D) })
    controller.inject([0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0xA0, 0xC1,
                       0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00])
    #expect(log.waitUntil(within: 5) { $0.contains { $0.connected?.handle == 0x0040 } })

    // Two ATT_READ_REQs: the first goes out (one ACL packet) and is never answered, the second waits behind it.
    let results = Box<Result<[UInt8], HostError>>()
    host.sendATTRequest([0x0A, 0x03, 0x00], on: 0x0040) { results.put($0) }
    host.sendATTRequest([0x0A, 0x05, 0x00], on: 0x0040) { results.put($0) }
    #expect(pollUntil { controller.sentACLPackets == 1 })
    // At the timeout both fail with the ATT timeout, and the host sends HCI Disconnect (0x0406) for the link.
    #expect(pollUntil { results.items.count == 2 })
    #expect(results.items.allSatisfy { $0 == .failure(.attTimeout(0x0040)) })
    #expect(pollUntil { controller.sentOpcodes.contains(0x0406) })
    // The bearer is closed: a later request fails at once and nothing more goes out on ATT.
    host.sendATTRequest([0x0A, 0x07, 0x00], on: 0x0040) { results.put($0) }
    #expect(pollUntil { results.items.count == 3 })
    #expect(results.items.last == .failure(.attTimeout(0x0040)) && controller.sentACLPackets == 1)
    // Disconnection Complete (Vol 4 Part E §7.7.5), reason 0x16: the link's end names the ATT timeout.
    controller.inject([0x05, 0x04, 0x00, 0x40, 0x00, 0x16])
    let ended = log.first(within: 5) { event -> HostError? in
        guard case .disconnected(let info, .connectionTerminatedByLocalHost, let error) = event, info.handle == 0x0040 else { return nil }
        return error
    }
    #expect(ended == .attTimeout(0x0040))
}

/// Results handed from the host's queue to the test.
private final class Box<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [T] = []
    func put(_ item: T) { lock.withLock { stored.append(item) } }
    var items: [T] { lock.withLock { stored } }
}

/// Polls `condition` every 10 ms for up to 5 s (the host runs on its own queue).
private func pollUntil(_ condition: () -> Bool) -> Bool {
    for _ in 0..<500 {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}
