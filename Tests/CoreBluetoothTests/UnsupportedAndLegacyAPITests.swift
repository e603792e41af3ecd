// Apple API with no Linux counterpart yet (L2CAP channels, connection events) and the deprecated RSSI property.
import OCBCore
@testable import CoreBluetooth
import Foundation
import Testing

/// Collects `[CoreBluetooth] ...` console lines while installed, passing them on to the previous sink.
private final class ConsoleCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var captured: [String] = []
    private var token: Int?

    func install() {
        token = DiagnosticsTap.add { [self] line in
            lock.withLock { captured.append(line) }
            return false
        }
    }

    func remove() {
        if let token { DiagnosticsTap.remove(token) }
        token = nil
    }

    var lines: [String] { lock.withLock { captured } }
}

/// Reads the deprecated `rssi` through a protocol, so the test states what it checks without a deprecation warning.
private protocol LegacyRSSI { var rssi: NSNumber? { get } }
extension CBPeripheral: LegacyRSSI {}

@Test func openL2CAPChannelIsAnsweredNotSupportedAtOnce() throws {
    let h = Harness()
    let (peripheral, characteristics) = try #require(h.explored())
    let location = try #require(characteristics["2A38"])
    let console = ConsoleCapture()
    console.install()
    defer { console.remove() }
    peripheral.readValue(for: location)
    peripheral.openL2CAPChannel(0x0080)
    peripheral.readRSSI()
    h.flush()
    // The read and the RSSI read went to the backend; the channel request, answered locally, did not wait for them.
    #expect(h.backend.calls.suffix(2) == ["read 6", "readRSSI"])
    #expect(h.recorder.log.last == "l2cap nil error=CB.13")
    let error = try #require(h.recorder.errors.last as? CBError)
    #expect(error.code == .operationNotSupported && (error as NSError).domain == "CBErrorDomain")
    h.respond(to: "read 6", .value([0x02]))
    h.respond(to: "readRSSI", .rssi(-70))
    #expect(h.recorder.log.suffix(3) == ["l2cap nil error=CB.13", "value 2A38 [2]", "rssi -70"])
    #expect(h.recorder.offQueue == 0)
    #expect(console.lines.contains { $0.hasPrefix("[CoreBluetooth] WARNING: openL2CAPChannel(128) is not supported") })
}

@Test func openL2CAPChannelOnADisconnectedPeripheralIsNotConnected() throws {
    let h = Harness()
    let peripheral = try #require(h.discover())
    peripheral.delegate = h.recorder
    peripheral.openL2CAPChannel(0x0025)
    h.flush()
    #expect(h.recorder.log.last == "l2cap nil error=CB.3")
    #expect(h.recorder.offQueue == 0)
}

@Test func deprecatedRSSIPropertyFollowsReadRSSI() throws {
    let h = Harness()
    let peripheral = try #require(h.connected())
    let legacy: any LegacyRSSI = peripheral
    #expect(legacy.rssi == nil)
    peripheral.readRSSI()
    h.flush()
    h.respond(.rssi(-58))
    #expect(legacy.rssi == NSNumber(value: -58))
    #expect(h.recorder.log.last == "rssi -58")
    peripheral.readRSSI()
    h.flush()
    h.respond(.rssi(-61))
    #expect(legacy.rssi == NSNumber(value: -61))
    // A failed read keeps the last value (didReadRSSI gets 0 and the error).
    peripheral.readRSSI()
    h.flush()
    h.respond(.failure(.timeout))
    #expect(h.recorder.log.last == "rssi 0 error=CB.6")
    #expect(legacy.rssi == NSNumber(value: -61))
    // peripheralDidUpdateRSSI(_:error:) is iOS 5-7 only: as on iOS 8+, never called.
    #expect(!h.recorder.log.contains("didUpdateRSSI"))
}

@Test func connectionEventRegistrationIsLoggedAndNeverReported() throws {
    let h = Harness()
    let console = ConsoleCapture()
    console.install()
    defer { console.remove() }
    let before = h.recorder.log
    h.manager.registerForConnectionEvents(options: [.serviceUUIDs: [CBUUID(string: "180D")]])
    h.manager.registerForConnectionEvents(options: nil)
    h.flush()
    #expect(h.recorder.log == before)
    let warnings = console.lines.filter { $0.hasPrefix("[CoreBluetooth] WARNING: registerForConnectionEvents") }
    #expect(warnings.count == 1)
}
