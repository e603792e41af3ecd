// A scan restarted with other options hands over what it held waiting for a scan response, as a stop does.

import Dispatch
import OCBCore
import OCBHCI
@testable import OCBHost
import Testing

/// An LE Advertising Report event (Core v5.4 Vol 4 Part E §7.7.65.2): one report, ADV_IND (connectable and
/// scannable, so an active scan holds it for its scan response), random address C0:00:00:00:00:42, Flags 0x06,
/// RSSI −60 dBm.
private let scannableReport: [UInt8] = [0x3E, 0x0F, 0x02, 0x01, 0x00, 0x01, 0x42, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x03, 0x02,
                                        0x01, 0x06, 0xC4]

/// An active scan holds an ADV_IND for its scan response (up to 10 s here); the app restarts the scan with other
/// options before the response comes. The advertisement is discovered at the restart, with its data, not dropped with
/// the old scan's state (as a kernel-mode restart dropped it until 2026-12-06: every start, stop and restart now
/// releases through ``SerialHost/releaseHeldAdvertisements()``).
@Test(.timeLimit(.minutes(1))) func aScanRestartedWithOtherOptionsHandsOverWhatItHeld() async throws {
    let controller = ScriptedController()
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller }))
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "ScanRestartTests.events")) { log.append($0) }
    defer { host.stop() }
    try await host.start()
    try await host.startScan(ScanOptions(isActive: true, controllerFiltersDuplicates: false, hostFiltersDuplicates: false,
                                         scanResponseWait: .seconds(10)))
    controller.inject(scannableReport)
    #expect(eventually { host.queue.sync { host.scan?.merger.pendingCount == 1 } }, "the ADV_IND is held for its scan response")
    #expect(log.all.compactMap(\.discovered).isEmpty)
    try await host.startScan(ScanOptions(isActive: false, controllerFiltersDuplicates: false, hostFiltersDuplicates: false))
    let found = try #require(log.first(within: 5) { $0.discovered })
    #expect(found.peer == PeerAddress(try #require(BluetoothAddress("C0:00:00:00:00:42")), type: .random))
    #expect(found.advertisingData == [0x02, 0x01, 0x06])
}
