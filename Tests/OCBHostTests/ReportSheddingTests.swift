// A host behind a flood of advertising reports while it waits for an answer skips the reports unread, counted.

import Dispatch
import Foundation
import OCBCore
import OCBHCI
import OCBHost
import Testing

/// An LE Advertising Report event (Core v5.4 Vol 4 Part E §7.7.65.2): one report, ADV_NONCONN_IND, random address
/// C0:00:00:00:00:`last`, Flags 0x06, RSSI −60 dBm.
private func report(_ last: UInt8) -> [UInt8] {
    [0x3E, 0x0F, 0x02, 0x01, 0x03, 0x01, last, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x03, 0x02, 0x01, 0x06, 0xC4]
}

/// Polls `condition` every 5 ms for up to 5 s (what it reads changes on the host's queue without an event).
private func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<1_000 {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}

@Test(.timeLimit(.minutes(1))) func reportsAreSkippedUnreadOnlyWhileBehindAndAnAnswerIsAwaited() async throws {
    let controller = ScriptedController()
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller }))
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "ReportSheddingTests.events")) { log.append($0) }
    defer { host.stop() }
    try await host.start()
    try await host.startScan(ScanOptions(isActive: false, controllerFiltersDuplicates: false, hostFiltersDuplicates: false))
    func heard(_ last: UInt8) -> Bool {
        log.first(within: 5) { $0.discovered.map { $0.peer.address.value & 0xFF == UInt64(last) } == true ? true : nil } == true
    }

    // Behind, but waiting for nothing: every report is handled.
    controller.behind = true
    controller.inject(report(0x01))
    #expect(heard(0x01))
    #expect(host.droppedDiscoveryCount == 0)

    // A connection attempt on air (LE Create Connection sent, no LE Connection Complete yet): its answer may be behind
    // the reports, so they are skipped unread and counted, with one notice.
    let peer = try #require(BluetoothAddress("C1:A0:00:00:00:01"))
    host.connect(to: PeerAddress(peer, type: .random), options: ConnectOptions(timeout: .seconds(30)))
    #expect(eventually { controller.sentOpcodes.contains(0x2043) || controller.sentOpcodes.contains(0x200D) })
    for last: UInt8 in 0x10..<0x13 { controller.inject(report(last)) }
    #expect(eventually { host.droppedDiscoveryCount == 3 })
    #expect(log.all.compactMap(\.discovered).allSatisfy { $0.peer.address.value & 0xFF < 0x10 })
    #expect(log.first(within: 1) { if case .notice(let text) = $0, text.contains("dropped unread") { true } else { nil } } == true)

    // Not behind any more: the same attempt pending, reports are handled again.
    controller.behind = false
    controller.inject(report(0x20))
    #expect(heard(0x20))
    #expect(host.droppedDiscoveryCount == 3)
}
