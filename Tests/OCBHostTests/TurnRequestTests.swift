// An app's request that comes while a reader handles a read of a flood runs before the read's next packet.

import Dispatch
import Foundation
import OCBCore
import OCBHCI
@testable import OCBHost
import Testing

/// An LE Advertising Report event (Core v5.4 Vol 4 Part E §7.7.65.2): one report, ADV_NONCONN_IND, random address
/// C0:00:00:00:00:`last`, Flags 0x06, RSSI −60 dBm.
private func report(_ last: UInt8) -> [UInt8] {
    [0x3E, 0x0F, 0x02, 0x01, 0x03, 0x01, last, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x03, 0x02, 0x01, 0x06, 0xC4]
}

/// One read of four reports in a reader's turn (``TurnFlush``), behind a flood; the app asks to connect while the
/// first is handled. The connect goes out before the second packet (LE Create Connection among the commands sent by
/// then), the report before it is discovered, and, the fresh attempt now awaiting its LE Connection Complete, the
/// three after it are skipped unread and counted. (Run at the turn's end instead, the request waited for all four to
/// be handled, and on a read of 16 KiB of new advertisers that was up to 2 ms.)
@Test(.timeLimit(.minutes(1))) func anAppsRequestDuringAReadRunsBeforeTheReadsNextPacket() async throws {
    let controller = ScriptedController()
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller }))
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "TurnRequestTests.events")) { log.append($0) }
    defer { host.stop() }
    try await host.start()
    try await host.startScan(ScanOptions(isActive: false, controllerFiltersDuplicates: false, hostFiltersDuplicates: false))
    controller.behind = true
    let flush = try #require(host.queue.sync { DispatchQueue.getSpecific(key: TurnFlush.key) })
    let peer = PeerAddress(try #require(BluetoothAddress("C1:A0:00:00:00:01")), type: .random)
    let sentAfter = MemoryTestLog<Bool>()
    let done = DispatchSemaphore(value: 0)
    controller.injectRead((0x10..<0x14).map { (.event, report($0)) }, around: { read in flush.turn(read) }, between: { index in
        if index == 0 { TurnFlush.request(on: host.queue) { host.connect(to: peer, options: ConnectOptions(timeout: nil)) } }
        if index == 1 { sentAfter.append(controller.sentOpcodes.contains(0x2043) || controller.sentOpcodes.contains(0x200D)) }
        if index == 3 { done.signal() }
    })
    #expect(done.wait(timeout: .now() + 5) == .success)
    #expect(sentAfter.values == [true], "the connect went out before the read's second packet")
    #expect(log.first(within: 5) { $0.discovered.map { $0.peer.address.value & 0xFF == 0x10 } == true ? true : nil } == true)
    #expect(host.droppedDiscoveryCount == 3)
    #expect(log.all.compactMap(\.discovered).allSatisfy { !(0x11..<0x14).contains($0.peer.address.value & 0xFF) })
}
