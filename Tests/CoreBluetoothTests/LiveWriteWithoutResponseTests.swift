// Apple's Write Without Response loop against the virtual peer: a window at a time, peripheralIsReady to go on.
@testable import CoreBluetooth
import Foundation
import Testing

extension LiveSuite {
    @Test func applesWriteWithoutResponseLoopRunsAtTheLinksPaceAndEveryWriteArrives() throws {
        let central = LiveCentral(transport: try LivePeer.transport(0))
        let alpha = try Self.connectAlphaTestService(central)
        defer { central.manager.cancelPeripheralConnection(alpha) }
        // 0CB10004 at 0x0031: read, write without response, write; the value written is read back (Tests/Peer/README.md).
        let writable = try #require(alpha.characteristic(alphaUUID("0004")))
        #expect(writable.properties.contains(.writeWithoutResponse))

        // 2,000 Write Commands (Vol 3 Part G §4.9.1) of their sequence number, as Apple's sample writes them.
        let total = 2000
        var sent = 0
        var waits = 0
        while sent < total {
            let mark = central.recorder.log.count
            while alpha.canSendWriteWithoutResponse, sent < total {
                alpha.writeValue(Data([UInt8(sent & 0xFF), UInt8(sent >> 8)]), for: writable, type: .withoutResponse)
                sent += 1
            }
            guard sent < total else { break }
            // The window is full: peripheralIsReady(toSendWriteWithoutResponse:) says when to go on.
            try #require(central.wait(from: mark, within: 5) { $0 == "ready" } != nil, "ready after \(sent) writes")
            waits += 1
        }
        // Flow control engaged: the loop had to wait for the link many times, never holding more than the window.
        #expect(waits > total / (4 * CBPeripheral.writeWithoutResponseWindow))
        // Writes are commands, the read is a request on the same bearer after them: it sees the last value, 1999.
        #expect(central.request("value ") { alpha.readValue(for: writable) } == "value \(writable.uuid.uuidString) [207, 7]")
    }
}
