// A host behind a flood of advertising reports while it waits for an answer skips the reports unread, counted; an app's request during a read runs before its next packet.

import Dispatch
import Foundation
import OCBCore
import OCBHCI
@testable import OCBHost
import Synchronization
import Testing

/// An LE Extended Advertising Report event (§7.7.65.13): one report, data complete, random C0:00:00:00:00:`last`,
/// 1M PHY, TX power 0x7F, RSSI −60 dBm, no interval, no direct address, Flags 0x06. `legacy`: the legacy
/// ADV_NONCONN_IND properties (0x0010), no secondary PHY, SID 0xFF (what an extended scan reports of a legacy
/// advertiser); else an extended non-connectable PDU (0x0000) on LE 1M, SID 0 (which might end a chain).
private func extendedReport(_ last: UInt8, legacy: Bool) -> [UInt8] {
    let report: [UInt8] = [legacy ? 0x10 : 0x00, 0x00, 0x01, last, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x01, legacy ? 0x00 : 0x01,
                           legacy ? 0xFF : 0x00, 0x7F, 0xC4, 0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0x03, 0x02, 0x01, 0x06]
    return [0x3E, UInt8(2 + report.count), 0x0D, 0x01] + report
}

/// A host on `controller`, started and scanning (passive, no duplicate filter): what the tests here shed reports from.
/// `attemptWindow` is how long a connection attempt counts as fresh (``HostConfiguration/attemptSheddingWindow``;
/// a test whose reads must come within it on a loaded machine gives a long one). The caller stops it.
private func scanningHost(on controller: ScriptedController, attemptWindow: Duration = .seconds(1)) async throws -> HostController {
    var configuration = HostConfiguration(makeTransport: { controller })
    configuration.attemptSheddingWindow = attemptWindow
    let host = HostController(configuration: configuration)
    do {
        try await host.start()
        try await host.startScan(ScanOptions(isActive: false, controllerFiltersDuplicates: false, hostFiltersDuplicates: false))
    } catch {
        host.stop()
        throw error
    }
    return host
}

@Test(.timeLimit(.minutes(1))) func aFreshConnectionAttemptSkipsReportsWhileBehind() async throws {
    let controller = ScriptedController()
    let host = try await scanningHost(on: controller)
    defer { host.stop() }
    controller.behind = true
    let peer = try #require(BluetoothAddress("C1:A0:00:00:00:01"))
    host.connect(to: PeerAddress(peer, type: .random), options: ConnectOptions(timeout: nil))
    #expect(eventually { controller.sentOpcodes.contains(0x2043) || controller.sentOpcodes.contains(0x200D) })
    // Within the attempt's first second (attemptSheddingWindow): its LE Connection Complete may be behind these.
    for last: UInt8 in 0x10..<0x12 { controller.inject(legacyReport(last)) }
    #expect(eventually { host.droppedDiscoveryCount == 2 })
}

@Test(.timeLimit(.minutes(1))) func reportsAreSkippedUnreadOnlyWhileBehindAndAnAnswerIsAwaited() async throws {
    let controller = ScriptedController()
    // No window for connection attempts: this attempt stands for one that has waited past it (a reconnect to a
    // device out of range).
    var configuration = HostConfiguration(makeTransport: { controller })
    configuration.attemptSheddingWindow = .zero
    let host = HostController(configuration: configuration)
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
    controller.inject(legacyReport(0x01))
    #expect(heard(0x01))

    // A connection attempt on air past its window (a reconnect to a device out of range may wait for hours): handled.
    let peer = try #require(BluetoothAddress("C1:A0:00:00:00:01"))
    host.connect(to: PeerAddress(peer, type: .random), options: ConnectOptions(timeout: nil))
    #expect(eventually { controller.sentOpcodes.contains(0x2043) || controller.sentOpcodes.contains(0x200D) })
    controller.inject(legacyReport(0x02))
    #expect(heard(0x02))
    #expect(host.droppedDiscoveryCount == 0)

    // LE Connection Complete (§7.7.65.1): handle 0x0040. An ATT request then waits (the scripted controller drops
    // ACL data, so its response never comes): its answer may be behind the reports, so they are skipped unread and
    // counted, with one notice, and so is an extended report of a legacy PDU (always whole); an extended report of an
    // extended PDU (the end of a chain, perhaps) is still handled.
    controller.inject([0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0xA0, 0xC1,
                       0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00])
    #expect(log.first(within: 5) { $0.connected } != nil)
    host.sendATTRequest([0x0A, 0x03, 0x00], on: 0x0040) { _ in }
    #expect(eventually { controller.sentACLPackets > 0 })
    for last: UInt8 in 0x10..<0x13 { controller.inject(legacyReport(last)) }
    controller.inject(extendedReport(0x14, legacy: true))
    controller.inject(extendedReport(0x30, legacy: false))
    #expect(heard(0x30))
    #expect(host.droppedDiscoveryCount == 4)
    #expect(log.all.compactMap(\.discovered).allSatisfy { !(0x10..<0x15).contains($0.peer.address.value & 0xFF) })
    #expect(log.first(within: 1) { if case .notice(let text) = $0, text.contains("dropped unread") { true } else { nil } } == true)

    // Not behind any more, the same request waiting: reports are handled again.
    controller.behind = false
    controller.inject(legacyReport(0x20))
    #expect(heard(0x20))
    #expect(host.droppedDiscoveryCount == 4)
}

@Test(.timeLimit(.minutes(1))) func anAppsRequestWaitingForTheQueueSkipsTheReportsOfTheReadAtHand() async throws {
    let controller = ScriptedController()
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller }))
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "ReportSheddingTests.events")) { log.append($0) }
    defer { host.stop() }
    try await host.start()
    try await host.startScan(ScanOptions(isActive: false, controllerFiltersDuplicates: false, hostFiltersDuplicates: false))
    controller.behind = true
    // A read being handled on the host's queue while an app's request (a connect, a stop) waits for the queue: its
    // reports are skipped unread, counted, so the request runs after a skip, not after every report in front of it.
    host.queue.sync {
        TurnFlush.request(on: host.queue) {}
        for last: UInt8 in 0x10..<0x13 { controller.injectInPlace(legacyReport(last)) }
    }
    #expect(host.droppedDiscoveryCount == 3)
    // The request ran: behind, waiting for nothing, reports are handled again.
    controller.inject(legacyReport(0x20))
    #expect(log.first(within: 5) { $0.discovered.map { $0.peer.address.value & 0xFF == 0x20 } == true ? true : nil } == true)
    #expect(host.droppedDiscoveryCount == 3)
    #expect(log.all.compactMap(\.discovered).allSatisfy { !(0x10..<0x13).contains($0.peer.address.value & 0xFF) })
}

/// One read of four reports in a reader's turn (``TurnFlush``), behind a flood; the app asks to connect between the
/// first and the second. The connect goes out once the second is handled, before the third (LE Create Connection
/// among the commands sent by then), the two reports before it are discovered, and, the fresh attempt now awaiting its
/// LE Connection Complete, the two after it are skipped unread and counted. (Run at the turn's end instead, the
/// request waited for all four to be handled, and on a read of 16 KiB of new advertisers that was up to 2 ms.)
@Test(.timeLimit(.minutes(1))) func anAppsRequestDuringAReadRunsOnceThePacketAtHandIsHandled() async throws {
    let controller = ScriptedController()
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller }))
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "ReportSheddingTests.events")) { log.append($0) }
    defer { host.stop() }
    try await host.start()
    try await host.startScan(ScanOptions(isActive: false, controllerFiltersDuplicates: false, hostFiltersDuplicates: false))
    controller.behind = true
    let flush = try #require(host.queue.sync { DispatchQueue.getSpecific(key: TurnFlush.key) })
    let peer = PeerAddress(try #require(BluetoothAddress("C1:A0:00:00:00:01")), type: .random)
    let sentBy = Mutex<[Bool]>([])
    let done = DispatchSemaphore(value: 0)
    controller.injectRead((0x10..<0x14).map { (.event, legacyReport($0)) }, around: { read in flush.turn(read) }, between: { index in
        if index == 0 { TurnFlush.request(on: host.queue) { host.connect(to: peer, options: ConnectOptions(timeout: nil)) } }
        if index < 3 { sentBy.withLock { $0.append(controller.sentOpcodes.contains(0x2043) || controller.sentOpcodes.contains(0x200D)) } }
        if index == 3 { done.signal() }
    })
    #expect(done.wait(timeout: .now() + 5) == .success)
    #expect(sentBy.withLock { $0 } == [false, true, true], "the connect went out once the second packet was handled")
    for last: UInt8 in [0x10, 0x11] {
        #expect(log.first(within: 5) { $0.discovered.map { $0.peer.address.value & 0xFF == UInt64(last) } == true ? true : nil } == true)
    }
    #expect(host.droppedDiscoveryCount == 2)
    #expect(log.all.compactMap(\.discovered).allSatisfy { ![0x12, 0x13].contains($0.peer.address.value & 0xFF) })
}

/// One read holding reports, then the answer the host waits for, then more reports (what an H4 read brings during a
/// flood): the reports before the answer are skipped unread, the answer is handled, and the reports after it are
/// handled again, since nothing is awaited any more. A capture still records every packet the controller sent.
@Test(.timeLimit(.minutes(1))) func aReadIsSkippedUpToTheAnswerItHoldsAndHandledAfterIt() async throws {
    let controller = ScriptedController()
    let capture = FileManager.default.temporaryDirectory.appendingPathComponent("shedding-\(UUID().uuidString).btsnoop").path
    defer { try? FileManager.default.removeItem(atPath: capture) }
    var configuration = HostConfiguration(makeTransport: { controller })
    configuration.attemptSheddingWindow = .zero
    configuration.btsnoopPath = capture
    let host = HostController(configuration: configuration)
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "ReportSheddingTests.events")) { log.append($0) }
    try await host.start()
    try await host.startScan(ScanOptions(isActive: false, controllerFiltersDuplicates: false, hostFiltersDuplicates: false))
    let peer = try #require(BluetoothAddress("C1:A0:00:00:00:01"))
    host.connect(to: PeerAddress(peer, type: .random), options: ConnectOptions(timeout: nil))
    #expect(eventually { controller.sentOpcodes.contains(0x2043) || controller.sentOpcodes.contains(0x200D) })
    // LE Connection Complete (§7.7.65.1), handle 0x0040; then an ATT Read Request of handle 0x0003 waits.
    controller.inject([0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0xA0, 0xC1,
                       0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00])
    #expect(log.first(within: 5) { $0.connected } != nil)
    let response = Mutex<[UInt8]?>(nil)
    host.sendATTRequest([0x0A, 0x03, 0x00], on: 0x0040) { result in response.withLock { $0 = try? result.get() } }
    #expect(eventually { controller.sentACLPackets > 0 })
    controller.behind = true
    // ACL on handle 0x0040 (PB 0b10), 7 bytes: L2CAP length 3, CID 0x0004 (ATT), Read Response 0x0B with value 01 02
    // (Core v5.4 Vol 3 Part F §3.4.4.4).
    let readResponse: [UInt8] = [0x40, 0x20, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x0B, 0x01, 0x02]
    controller.injectRead([(.event, legacyReport(0x40)), (.event, legacyReport(0x41)), (.acl, readResponse), (.event, legacyReport(0x42))])
    #expect(log.first(within: 5) { $0.discovered.map { $0.peer.address.value & 0xFF == 0x42 } == true ? true : nil } == true)
    #expect(response.withLock { $0 } == [0x0B, 0x01, 0x02])
    #expect(host.droppedDiscoveryCount == 2)
    #expect(log.all.compactMap(\.discovered).allSatisfy { ![0x40, 0x41].contains($0.peer.address.value & 0xFF) })
    host.stop()
    let recorded = try CaptureFile.read(path: capture).records.compactMap(\.packet).filter { $0.type == .event }.map(\.bytes)
    #expect(recorded.contains(legacyReport(0x40)) && recorded.contains(legacyReport(0x41)) && recorded.contains(legacyReport(0x42)),
            "the skipped reports are in the capture too")
}

/// A connect asked on the host's own queue (a backend running there, as the CoreBluetooth one does) sends LE Create
/// Connection (or LE Extended Create Connection, §7.8.12, §7.8.66) before it returns: during a flood it does not wait
/// behind a turn of discoveries queued there.
@Test(.timeLimit(.minutes(1))) func aConnectAskedOnTheHostsQueueGoesOutAtOnce() async throws {
    let controller = ScriptedController()
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller }))
    defer { host.stop() }
    try await host.start()
    let peer = try #require(BluetoothAddress("C1:A0:00:00:00:01"))
    let sentBeforeReturning = host.queue.sync {
        host.connect(to: PeerAddress(peer, type: .random), options: ConnectOptions(timeout: nil))
        return controller.sentOpcodes.contains(0x2043) || controller.sentOpcodes.contains(0x200D)
    }
    #expect(sentBeforeReturning)
}

/// Over the H4 framer the host reads with (``MemoryTransport``, reads of 1,800 bytes, 100 reports each): a fresh
/// attempt's LE Connection Complete (§7.7.65.1) behind 500 reports of distinct advertisers, and 500 more after it, in
/// one write. Behind, the host sheds the first report of each read and the framer passes over the rest at its request
/// (``HCI/H4FrameStep/skipLegacyAdvertisingReports``); every one of the 500 is counted, none is discovered, the link
/// comes up, and the 500 after the answer (nothing awaited any more) are discovered.
@Test(.timeLimit(.minutes(1))) func reportsPassedOverByTheH4FramerAreCountedAndTheAnswerBehindThemIsHandled() async throws {
    let createConnectionSent = Mutex(false)
    let transport = MemoryTransport(chunkSize: 1_800) { packet, transport in
        guard let answer = ScriptedController.commandComplete(answering: packet) else { return }
        // LE Create Connection or LE Extended Create Connection (§7.8.12, §7.8.66: this controller lists both).
        if answer.opcode == 0x200D || answer.opcode == 0x2043 { createConnectionSent.withLock { $0 = true } }
        transport.receive([HCIPacketType.event.rawValue] + answer.event)
    }
    let counting = CountingTransport(transport)
    // The attempt counts as fresh for a minute: a loaded machine may take over the default second before the read.
    var configuration = HostConfiguration(makeTransport: { counting })
    configuration.attemptSheddingWindow = .seconds(60)
    let host = HostController(configuration: configuration)
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "ReportSheddingTests.h4")) { log.append($0) }
    defer { host.stop() }
    try await host.start()
    try await host.startScan(ScanOptions(isActive: false, controllerFiltersDuplicates: false, hostFiltersDuplicates: false))
    let peer = PeerAddress(try #require(BluetoothAddress("C0:00:00:00:BE:EF")), type: .random)
    host.connect(to: peer, options: ConnectOptions(timeout: nil))
    #expect(eventually { createConnectionSent.withLock { $0 } })
    // H4 LE Advertising Reports (§7.7.65.2), ADV_NONCONN_IND from random C1:00:00:00:hi:lo, Flags 0x06, RSSI −60.
    func reports(_ range: Range<Int>) -> [UInt8] {
        range.flatMap { index -> [UInt8] in
            [0x04, 0x3E, 0x0F, 0x02, 0x01, 0x03, 0x01, UInt8(index & 0xFF), UInt8(index >> 8), 0x00, 0x00, 0x00, 0xC1,
             0x03, 0x02, 0x01, 0x06, 0xC4]
        }
    }
    // Success, handle 0x0040, central, random C0:00:00:00:BE:EF, interval 30 ms, latency 0, timeout 720 ms.
    let connectionComplete: [UInt8] = [0x04, 0x3E, 19, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0xEF, 0xBE, 0x00, 0x00, 0x00, 0xC0,
                                       0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00]
    let handedBefore = counting.handed.withLock { $0 }
    transport.receive(reports(0..<500) + connectionComplete + reports(500..<1_000))
    #expect(log.first(within: 5) { event -> Bool? in
        if case .connected(let info) = event, info.peer == peer { return true }
        return nil
    } == true)
    #expect(log.waitUntil { $0.compactMap(\.discovered).count >= 500 })
    #expect(host.droppedDiscoveryCount == 500)
    let discovered = log.all.compactMap(\.discovered).map { Int($0.peer.address.value & 0xFFFF) }
    #expect(discovered.count == 500 && discovered.first == 500 && discovered.last == 999 && discovered == Array(500..<1_000))
    // The host saw one report a read of the 500 behind (five reads), the answer, and the 500 after it: not 1,001.
    #expect(counting.handed.withLock { $0 } - handedBefore == 5 + 1 + 500)
}

/// Forwards to a ``MemoryTransport``, counting the packets the host's body is handed (those the framer passes over
/// at its request are not).
private final class CountingTransport: HCITransport, @unchecked Sendable {
    let inner: MemoryTransport
    let handed = Mutex(0)
    init(_ inner: MemoryTransport) { self.inner = inner }

    func open(queue: DispatchQueue, onPacket: @escaping @Sendable (HCIPacket) -> Void,
              onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        try inner.open(queue: queue, onPacket: onPacket, onClose: onClose)
    }

    func open(queue: DispatchQueue, onPackets: @escaping @Sendable (HCIPacketWalk) -> Void,
              onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        try inner.open(queue: queue, onPackets: { [self] walk in
            onPackets { body in
                withoutActuallyEscaping(body) { body in
                    walk { type, bytes in
                        handed.withLock { $0 += 1 }
                        return body(type, bytes)
                    }
                }
            }
        }, onClose: onClose)
    }

    func send(_ packet: HCIPacket) throws(HCITransportError) { try inner.send(packet) }
    func close() { inner.close() }
    var hasUnreadInput: Bool { inner.hasUnreadInput }
    var hasInputWaiting: Bool { inner.hasInputWaiting }
    var isBehind: Bool { inner.isBehind }
}

/// A request that comes while the framer passes over a run of shed reports ends the run: the next report is handed
/// over (shed), and the request runs before the LE Connection Complete that follows is handled, as it would between
/// any two packets (found by review: without the run's predicate the request ran only after the packet that ended
/// the run, here the Connection Complete). The request looks whether the host knows the link yet: it must not.
@Test(.timeLimit(.minutes(1))) func aRequestDuringARunOfReportsPassedOverRunsBeforeThePacketAfterTheRun() async throws {
    let controller = ScriptedController()
    let host = try await scanningHost(on: controller, attemptWindow: .seconds(60))
    defer { host.stop() }
    controller.behind = true
    let flush = try #require(host.queue.sync { DispatchQueue.getSpecific(key: TurnFlush.key) })
    let peer = PeerAddress(try #require(BluetoothAddress("C0:00:00:00:BE:EF")), type: .random)
    host.connect(to: peer, options: ConnectOptions(timeout: nil))
    #expect(eventually { controller.sentOpcodes.contains(0x2043) || controller.sentOpcodes.contains(0x200D) })
    // Success, handle 0x0040, central, random C0:00:00:00:BE:EF, interval 30 ms, latency 0, timeout 720 ms (§7.7.65.1).
    let connectionComplete: [UInt8] = [0x3E, 19, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0xEF, 0xBE, 0x00, 0x00, 0x00, 0xC0,
                                       0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00]
    let linkKnownAtRequest = Mutex<Bool?>(nil)
    let done = DispatchSemaphore(value: 0)
    let packets: [(HCIPacketType, [UInt8])] = (0x10..<0x14).map { (.event, legacyReport($0)) } + [(.event, connectionComplete)]
    controller.injectRead(packets, around: { read in flush.turn(read) }, between: { index in
        if index == 1 {
            // Report 0x11, passed over: the run goes on until the request comes.
            TurnFlush.request(on: host.queue) { linkKnownAtRequest.withLock { $0 = !host.links.isEmpty } }
        }
        if index == packets.count - 1 { done.signal() }
    })
    #expect(done.wait(timeout: .now() + 5) == .success)
    #expect(eventually { linkKnownAtRequest.withLock { $0 } != nil })
    #expect(linkKnownAtRequest.withLock { $0 } == false, "the request ran after the LE Connection Complete was handled")
    // Counted when the read's walk ends, after the last packet's `between`.
    #expect(eventually { host.droppedDiscoveryCount == 4 })
}
