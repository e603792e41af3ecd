// An app's ATT and GATT operations are requests like a connect or a disconnect: during a flood's read they go out once the packet at hand is handled, in the order asked.

import Dispatch
import OCBCore
import OCBHCI
@testable import OCBHost
import Synchronization
import Testing

/// LE Connection Complete (Core v5.4 Vol 4 Part E §7.7.65.1): success, handle 0x0040, central, random
/// C1:A0:00:00:00:01, interval 30 ms, latency 0, supervision timeout 720 ms.
private let connectionComplete: [UInt8] = [0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0xA0,
                                           0xC1, 0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00]

/// A host on `controller`, started, scanning (passive, no duplicate filter) and connected to C1:A0:00:00:00:01 on
/// handle 0x0040, with the controller behind (a flood); the caller stops it.
private func connectedHost(on controller: ScriptedController) async throws -> HostController {
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller }))
    do {
        try await host.start()
        try await host.startScan(ScanOptions(isActive: false, controllerFiltersDuplicates: false, hostFiltersDuplicates: false))
        let peer = PeerAddress(try #require(BluetoothAddress("C1:A0:00:00:00:01")), type: .random)
        host.connect(to: peer, options: ConnectOptions(timeout: nil))
        #expect(eventually { controller.sentOpcodes.contains(0x2043) || controller.sentOpcodes.contains(0x200D) })
        controller.inject(connectionComplete)
        try #require(eventually { host.queue.sync { host.links[0x0040] != nil } })
    } catch {
        host.stop()
        throw error
    }
    controller.behind = true
    return host
}

/// Runs `ask` on another thread (as an app's thread does) and returns once it returned.
private func askFromAnotherThread(_ ask: @escaping @Sendable () -> Void) {
    let asked = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        ask()
        asked.signal()
    }
    asked.wait()
}

/// One read of four reports in a reader's turn, behind a flood; between the first and the second the app asks for an
/// ATT Read Request (Vol 3 Part F §3.4.4.3) of handle 0x0003. It goes out (the host's one ACL packet) once the second
/// report is handled, as a connect does, not after the whole read: as a plain block on the queue it waited for the
/// turn's end, and during a flood that is a read of up to 16 KiB of reports.
@Test(.timeLimit(.minutes(1))) func anATTRequestDuringAReadGoesOutOnceThePacketAtHandIsHandled() async throws {
    let controller = ScriptedController()
    let host = try await connectedHost(on: controller)
    defer { host.stop() }
    let flush = try #require(host.queue.sync { DispatchQueue.getSpecific(key: TurnFlush.key) })
    let before = controller.sentACLPackets
    let sentBy = Mutex<[Bool]>([])
    let done = DispatchSemaphore(value: 0)
    controller.injectRead((0x10..<0x14).map { (.event, legacyReport($0)) }, around: { read in flush.turn(read) }, between: { index in
        if index == 0 { askFromAnotherThread { host.sendATTRequest([0x0A, 0x03, 0x00], on: 0x0040) { _ in } } }
        if index < 3 { sentBy.withLock { $0.append(controller.sentACLPackets > before) } }
        if index == 3 { done.signal() }
    })
    #expect(done.wait(timeout: .now() + 5) == .success)
    #expect(sentBy.withLock { $0 } == [false, true, true], "the Read Request went out once the second packet was handled")
}

/// During a flood's read the app writes without response (ATT_WRITE_CMD, Vol 3 Part F §3.4.5.3) and then
/// disconnects: the write goes out before HCI Disconnect (Vol 4 Part E §7.1.6, opcode 0x0406), in the order asked.
/// (As a plain block, the write waited for the turn's end while the disconnect, a request, ran between two packets:
/// the Disconnect went first and the write after it, on a link being torn down.)
@Test(.timeLimit(.minutes(1))) func aWriteAndThenADisconnectDuringAReadGoOutInTheOrderAsked() async throws {
    let controller = ScriptedController()
    let host = try await connectedHost(on: controller)
    defer { host.stop() }
    let flush = try #require(host.queue.sync { DispatchQueue.getSpecific(key: TurnFlush.key) })
    let mark = controller.sentInOrder.count
    let done = DispatchSemaphore(value: 0)
    controller.injectRead((0x10..<0x14).map { (.event, legacyReport($0)) }, around: { read in flush.turn(read) }, between: { index in
        if index == 0 {
            askFromAnotherThread {
                host.sendATT([0x52, 0x03, 0x00, 0x01], on: 0x0040) { _ in }
                host.disconnect(0x0040)
            }
        }
        if index == 3 { done.signal() }
    })
    #expect(done.wait(timeout: .now() + 5) == .success)
    #expect(eventually { controller.sentInOrder.contains(.command(0x0406)) })
    #expect(Array(controller.sentInOrder.dropFirst(mark)) == [.acl, .command(0x0406)])
}

/// An ATT_EXCHANGE_MTU_REQ (Vol 3 Part F §3.4.2.1) asked on the host's own queue (the CoreBluetooth backend runs there
/// and asks for it the moment a link is up) goes out before the call returns: the first step after a connect does not
/// wait behind a turn of discoveries queued there during a flood.
@Test(.timeLimit(.minutes(1))) func anMTUExchangeAskedOnTheHostsQueueGoesOutAtOnce() async throws {
    let controller = ScriptedController()
    let host = try await connectedHost(on: controller)
    defer { host.stop() }
    let before = controller.sentACLPackets
    let sentBeforeReturning = host.queue.sync {
        host.exchangeMTU(247, on: 0x0040) { _ in }
        return controller.sentACLPackets > before
    }
    #expect(sentBeforeReturning)
}
