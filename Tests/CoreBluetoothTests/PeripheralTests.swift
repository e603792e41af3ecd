// CBPeripheral requests over a fake backend: discovery, reads, writes, notifications, errors and ordering.
import OCBATT
import OCBHCI
import OCBCore
import OCBGATT
@testable import CoreBluetooth
import Foundation
import Testing

@Test func discoveryBuildsTheAttributeTree() throws {
    let h = Harness()
    let (peripheral, characteristics) = try #require(h.explored())
    #expect(h.backend.calls.contains("discoverServices nil"))
    #expect(h.backend.calls.contains("discoverCharacteristics 1...8 nil"))
    #expect(h.backend.calls.contains("discoverCharacteristics 9...11 nil"))
    #expect(h.recorder.log.suffix(3) == ["services [\"180D\", \"180F\"]", "characteristics 180D [\"2A37\", \"2A38\", \"2A39\"]",
                                         "characteristics 180F [\"2A19\"]"])
    let heartRate = try #require(peripheral.services?.first)
    #expect(heartRate.isPrimary && heartRate.peripheral === peripheral)
    let measurement = try #require(characteristics["2A37"])
    #expect(measurement.service === heartRate && measurement.properties == [.notify])
    peripheral.discoverDescriptors(for: measurement)
    h.flush()
    #expect(h.backend.calls.last == "discoverDescriptors 4...4")
    h.respond(.descriptors([GATTDescriptor(handle: 4, uuid: BluetoothUUID(0x2902))]))
    #expect(h.recorder.log.last == "descriptors 2A37 [\"2902\"]")
    let cccd = try #require(measurement.descriptors?.first)
    #expect(cccd.characteristic === measurement)
    // A characteristic with no room for descriptors answers at once, without a request.
    let location = try #require(characteristics["2A38"])
    peripheral.discoverDescriptors(for: location)
    h.flush()
    #expect(h.recorder.log.last == "descriptors 2A38 []")
    // Included services and a filtered re-discovery keep the objects.
    peripheral.discoverIncludedServices(nil, for: heartRate)
    h.flush()
    #expect(h.backend.calls.last == "discoverIncluded 1...8")
    h.respond(.includedServices([GATTIncludedService(declarationHandle: 2, uuid: BluetoothUUID(0x180F), startHandle: 9, endHandle: 11)]))
    #expect(h.recorder.log.last == "included 180D [\"180F\"]")
    #expect(heartRate.includedServices?.first === peripheral.services?.last)
    // The include declaration, with its handle, is the GATT client's value: the CBService is a view of it.
    #expect(heartRate.includeDeclarations?.map(\.declarationHandle) == [2])
    peripheral.discoverServices([CBUUID(string: "180D")])
    h.flush()
    #expect(h.backend.calls.last == "discoverServices [180D]")
    h.respond(.services([Harness.heartRate]))
    #expect(peripheral.services?.first === heartRate && peripheral.services?.count == 2)
    #expect(h.recorder.offQueue == 0)
}

@Test func readWriteAndDescriptorValues() throws {
    let h = Harness()
    let (peripheral, characteristics) = try #require(h.explored())
    let location = try #require(characteristics["2A38"])
    peripheral.readValue(for: location)
    h.flush()
    #expect(h.backend.calls.last == "read 6")
    h.respond(.value([0x01]))
    #expect(location.value == Data([0x01]))
    #expect(h.recorder.log.last == "value 2A38 [1]")
    let control = try #require(characteristics["2A39"])
    peripheral.writeValue(Data([0x01]), for: control, type: .withResponse)
    h.flush()
    #expect(h.backend.calls.last == "write 8 01 req")
    h.respond(.written)
    #expect(h.recorder.log.last == "wrote 2A39")
    // ATT error → CBATTError with the code on air.
    peripheral.writeValue(Data([0x02]), for: control, type: .withResponse)
    h.flush()
    h.respond(.failure(.att(ATTError(rawValue: 0x80))))
    #expect(h.recorder.log.last == "wrote 2A39 error=ATT.128")
    // Descriptors.
    let measurement = try #require(characteristics["2A37"])
    peripheral.discoverDescriptors(for: measurement)
    h.flush()
    h.respond(.descriptors([GATTDescriptor(handle: 4, uuid: BluetoothUUID(0x2902))]))
    let cccd = try #require(measurement.descriptors?.first)
    peripheral.readValue(for: cccd)
    h.flush()
    #expect(h.backend.calls.last == "read 4")
    h.respond(.value([0x01, 0x00]))
    #expect((cccd.value as? NSNumber)?.intValue == 1)
    peripheral.writeValue(Data([1, 0]), for: cccd)
    h.flush()
    #expect(h.recorder.log.last == "wroteDescriptor 2902 error=CB.8", "the CCCD is written only by setNotifyValue")
}

@Test func propertyChecksGiveTheErrorsIOSGives() throws {
    let h = Harness()
    let (peripheral, characteristics) = try #require(h.explored())
    let measurement = try #require(characteristics["2A37"])  // notify only
    let location = try #require(characteristics["2A38"])     // read only
    let before = h.backend.calls.count
    peripheral.readValue(for: measurement)
    peripheral.writeValue(Data([1]), for: location, type: .withResponse)
    peripheral.setNotifyValue(true, for: location)
    peripheral.writeValue(Data([1]), for: location, type: .withoutResponse)
    peripheral.writeValue(Data(count: 600), for: characteristics["2A39"]!, type: .withResponse)
    h.flush()
    #expect(h.backend.calls.count == before, "nothing reaches the backend")
    #expect(h.recorder.log.suffix(4) == ["value 2A37 nil error=ATT.2", "wrote 2A38 error=ATT.3",
                                         "notifying 2A38 false error=ATT.6", "wrote 2A39 error=ATT.13"])
}

@Test func notificationsFlowAfterTheCCCDWrite() throws {
    let h = Harness()
    let (peripheral, characteristics) = try #require(h.explored())
    let measurement = try #require(characteristics["2A37"])
    peripheral.setNotifyValue(true, for: measurement)
    h.flush()
    #expect(h.backend.calls.last == "cccd 3...4 at ? = 1")
    #expect(!measurement.isNotifying)
    h.respond(.written)
    #expect(measurement.isNotifying)
    #expect(h.recorder.log.last == "notifying 2A37 true")
    h.emit(.valueNotified(Harness.peer, handle: 3, value: [0x06, 0x48], isIndication: false))
    h.emit(.valueNotified(Harness.peer, handle: 3, value: [0x06, 0x49], isIndication: false))
    h.emit(.valueNotified(Harness.peer, handle: 99, value: [0x00], isIndication: false))
    #expect(h.recorder.log.suffix(2) == ["value 2A37 [6, 72]", "value 2A37 [6, 73]"])
    // Indicate-only characteristic gets 0x0002.
    let battery = try #require(characteristics["2A19"])
    peripheral.setNotifyValue(true, for: battery)
    h.flush()
    #expect(h.backend.calls.last == "cccd 11...11 at ? = 2")
    h.respond(.failure(.att(ATTError(rawValue: 0x0A))))
    #expect(h.recorder.log.last == "notifying 2A19 false error=ATT.10")
    peripheral.setNotifyValue(false, for: measurement)
    h.flush()
    #expect(h.backend.calls.last == "cccd 3...4 at ? = 0")
    h.respond(.written)
    #expect(!measurement.isNotifying)
}

@Test func requestsGoToTheLinkAtOnceAndReadRSSIDoesNotWaitBehindARead() throws {
    let h = Harness()
    let (peripheral, characteristics) = try #require(h.explored())
    let location = try #require(characteristics["2A38"])
    let measurement = try #require(characteristics["2A37"])
    peripheral.readValue(for: location)           // goes to the backend: the link's bearer orders ATT requests
    peripheral.readValue(for: measurement)        // fails locally (not readable), answered at once
    peripheral.readRSSI()                         // a link command: goes to the backend at once too
    h.flush()
    #expect(h.backend.calls.suffix(2) == ["read 6", "readRSSI"], "no queue in the facade")
    #expect(h.recorder.log.last == "value 2A37 nil error=ATT.2", "a local error does not wait for earlier requests")
    // The controller answers Read RSSI while the ATT read is still outstanding.
    h.respond(to: "readRSSI", .rssi(-61))
    #expect(h.recorder.log.last == "rssi -61")
    h.respond(to: "read 6", .value([0x02]))
    #expect(h.recorder.log.suffix(3) == ["value 2A37 nil error=ATT.2", "rssi -61", "value 2A38 [2]"])
}

@Test func disconnectMidRequestFailsEveryRequestThenReports() throws {
    let h = Harness()
    let (peripheral, characteristics) = try #require(h.explored())
    let location = try #require(characteristics["2A38"])
    peripheral.readValue(for: location)
    peripheral.readRSSI()
    h.flush()
    h.emit(.disconnected(Harness.peer, reason: HCIErrorCode(rawValue: 0x13)))
    #expect(h.recorder.log.suffix(3) == ["value 2A38 nil error=CB.7", "rssi 0 error=CB.7", "disconnect error=CB.7"])
    #expect(!location.isValid && peripheral.services == nil)
    // Requests after the disconnect: notConnected.
    peripheral.readValue(for: location)
    h.flush()
    #expect(h.recorder.log.last == "value 2A38 nil error=CB.3")
    // Reconnected: the old objects are invalid.
    h.manager.connect(peripheral)
    h.flush()
    h.backend.mtu = 23; h.emit(.connected(Harness.peer, mtu: h.backend.linkMTU))
    peripheral.readValue(for: location)
    h.flush()
    #expect(h.recorder.log.last == "value 2A38 nil error=CB.2")
    // A late response to a request of the old link is ignored.
    h.emit(.response(Harness.peer, RequestID(rawValue: 9999), .value([1])))
    #expect(h.recorder.log.last == "value 2A38 nil error=CB.2")
}

@Test func writeWithoutResponseFlowControl() throws {
    let h = Harness()
    let (peripheral, characteristics) = try #require(h.explored())
    let control = try #require(characteristics["2A39"])
    #expect(peripheral.canSendWriteWithoutResponse)
    peripheral.writeValue(Data([0xAA]), for: control, type: .withoutResponse)
    h.flush()
    #expect(h.backend.calls.last == "write 8 aa cmd")
    h.emit(.writeWithoutResponseAvailability(Harness.peer, canSend: false))
    #expect(!peripheral.canSendWriteWithoutResponse)
    h.emit(.writeWithoutResponseAvailability(Harness.peer, canSend: true))
    #expect(peripheral.canSendWriteWithoutResponse)
    #expect(h.recorder.log.last == "ready")
    // Longer than the maximum attribute value length (512, Vol 3 Part F §3.2.9): dropped by the facade. A value
    // longer than ATT_MTU-3 goes on: the link's GATT client, which holds ATT_MTU, refuses it (GATT's ReadWriteTests).
    let before = h.backend.calls.count
    peripheral.writeValue(Data(count: 513), for: control, type: .withoutResponse)
    h.flush()
    #expect(h.backend.calls.count == before)
    h.backend.mtu = 247
    #expect(peripheral.maximumWriteValueLength(for: .withoutResponse) == 244)
}

@Test func applesWriteLoopSendsAWindowAtOnceAndGoesOnWhenReady() throws {
    let h = Harness()
    let (peripheral, characteristics) = try #require(h.explored())
    let control = try #require(characteristics["2A39"])
    let before = h.backend.calls.count
    // Apple's loop: write while canSendWriteWithoutResponse. It stops after the window, and every write reached the
    // backend while the loop ran (no flush of the delegate queue in between).
    var written = 0
    while peripheral.canSendWriteWithoutResponse, written < 10_000 {
        peripheral.writeValue(Data([UInt8(written)]), for: control, type: .withoutResponse)
        written += 1
    }
    #expect(written == CBPeripheral.writeWithoutResponseWindow)
    #expect(h.backend.calls.count - before == written)
    #expect(h.backend.calls.last == "write 8 07 cmd")
    // The backend reports each write gone, with room left: the first report makes canSend true again (once).
    for _ in 0..<written { h.emit(.writeWithoutResponseSent(Harness.peer, canSend: true)) }
    #expect(peripheral.canSendWriteWithoutResponse)
    #expect(h.recorder.log.filter { $0 == "ready" }.count == 1)
    // Reported sent but the host's ACL queue is full: not ready until the host says it drained.
    peripheral.writeValue(Data([0xAA]), for: control, type: .withoutResponse)
    h.emit(.writeWithoutResponseSent(Harness.peer, canSend: false))
    #expect(!peripheral.canSendWriteWithoutResponse)
    h.emit(.writeWithoutResponseAvailability(Harness.peer, canSend: true))
    #expect(peripheral.canSendWriteWithoutResponse && h.recorder.log.filter { $0 == "ready" }.count == 2)
}

@Test func writesPastTheInFlightLimitAreDroppedNotQueued() throws {
    let h = Harness()
    let (peripheral, characteristics) = try #require(h.explored())
    let control = try #require(characteristics["2A39"])
    let before = h.backend.calls.count
    // An app that ignores canSendWriteWithoutResponse: 20,000 writes with none reported sent.
    for index in 0..<20_000 { peripheral.writeValue(Data([UInt8(index & 0xFF)]), for: control, type: .withoutResponse) }
    #expect(h.backend.calls.count - before == CBPeripheral.writeWithoutResponseInFlightLimit)
    #expect(!peripheral.canSendWriteWithoutResponse)
}

@Test func serviceChangedNameAndRSSIErrors() throws {
    let h = Harness()
    let (peripheral, characteristics) = try #require(h.explored())
    let battery = try #require(peripheral.services?.last)
    h.emit(.servicesChanged(Harness.peer, range: 10...0xFFFF))
    #expect(h.recorder.log.last == "modified [\"180F\"]")
    #expect(peripheral.services?.count == 1 && !battery.isValid && !(characteristics["2A19"]?.isValid ?? true))
    h.emit(.nameChanged(Harness.peer, name: "Renamed"))
    #expect(peripheral.name == "Renamed" && h.recorder.log.last == "name Renamed")
    peripheral.readRSSI()
    h.flush()
    h.respond(.failure(.timeout))
    #expect(h.recorder.log.last == "rssi 0 error=CB.6")
}
