// Read RSSI through the CoreBluetooth API while the link's ATT bearer waits for a response that never comes.
@testable import CoreBluetooth
import Foundation
import Testing

extension LiveSuite {
    /// Peer control 08 stalls alpha's Read Requests on this connection: a readValue stays outstanding (the bearer's
    /// one transaction, Core v5.4 Vol 3 Part F §3.3.2), and readRSSI (HCI Read RSSI, Vol 4 Part E §7.5.4, a link
    /// command) is answered by the controller meanwhile. Closing the link then fails the read.
    @Test func readRSSIIsAnsweredWhileAnATTReadWaits() throws {
        let central = LiveCentral(transport: try LivePeer.transport(0))
        let alpha = try Self.connectAlphaTestService(central)
        let control = try #require(alpha.characteristic(alphaUUID("000E")))
        let writable = try #require(alpha.characteristic(alphaUUID("0004")))
        #expect(central.request("wrote ") { alpha.writeValue(Data([0x08]), for: control, type: .withResponse) } == "wrote \(control.uuid.uuidString)")

        let mark = central.recorder.log.count
        alpha.readValue(for: writable)   // never answered by the peer now
        let rssi = try #require(central.request("rssi ") { alpha.readRSSI() })
        #expect(!rssi.contains("error="), "\(rssi)")
        #expect(Int(rssi.dropFirst(5)).map { (-127...20).contains($0) } == true, "\(rssi)")
        // The read is still waiting: no value callback came before or with the RSSI.
        #expect(!central.entries(from: mark).contains { $0.hasPrefix("value ") })

        let endMark = central.recorder.log.count
        central.manager.cancelPeripheralConnection(alpha)
        let failed = central.wait(from: endMark) { $0.hasPrefix("value ") }
        #expect(failed?.contains("error=CB.") == true, "the pending read fails when the link closes: \(failed ?? "nothing")")
    }
}
