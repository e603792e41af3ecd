// An extended advertising chain left unfinished when a scan stops is dropped, never joined to the next scan's data.

import OCBCore
import Dispatch
import OCBHCI
import OCBHost
import Testing

@Test func unfinishedChainIsDroppedWhenTheScanStops() async throws {
    let controller = ScriptedController()
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller },
                                                               ownAddress: .randomStatic(BluetoothAddress("C3:00:00:00:00:01")!)))
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "ExtendedChainAcrossScansTests.events")) { log.append($0) }
    defer { host.stop() }
    _ = try await host.start()
    let advertiser = PeerAddress(BluetoothAddress("C1:E7:00:00:00:05")!, type: .random)
    let stale = [UInt8](repeating: 0xEE, count: 229)
    let whole = PeerAdvertising.ad(0xFF, [0xFF, 0xFF] + (0..<200).map { UInt8($0) })  // 204 bytes: 150 + 54

    try await host.startScan(ScanOptions(isActive: false))
    // Data_Status 0b01: 229 bytes, more to come — then the scan stops before the rest.
    controller.inject(ScriptedController.extendedReport(dataStatus: 0b01, data: stale))
    try await host.stopScan()
    try await host.startScan(ScanOptions(isActive: false))
    controller.inject(ScriptedController.extendedReport(dataStatus: 0b01, data: Array(whole.prefix(150))))
    controller.inject(ScriptedController.extendedReport(dataStatus: 0b00, data: Array(whole.dropFirst(150))))
    let device = try #require(log.first(within: 2) { $0.discovered.flatMap { $0.peer == advertiser ? $0 : nil } })
    try await host.stopScan()
    #expect(device.advertisingData == whole)
    #expect(device.rssi == -55 && device.txPower == nil && !device.isConnectable)
    #expect(controller.sentOpcodes.filter { $0 == 0x2042 }.count == 4)
    #expect(!controller.sentOpcodes.contains(0x200C))
}
