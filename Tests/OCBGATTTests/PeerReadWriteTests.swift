// Reads, writes and ATT errors against the virtual peer, with the exact values alpha serves (Tests/Peer/README.md).

import OCBCore
import OCBATT
import OCBGATT
import OCBHost
import Testing

extension PeerGATTTests {
    @Test func everyReadableValueAndDescriptorReadsAsServed() throws {
        let fixture = try PeerGATT.shared.get()
        _ = try fixture.peer.send("restore")
        try fixture.withAlpha { handle in
            // Values of at most ATT_MTU − 1 = 22 bytes fit one Read Response (Vol 3 Part F §3.4.4.4).
            let short: [(AttributeHandle, [UInt8])] = [
                (0x0003, utf8("OCB Alpha")), (0x0005, [0x40, 0x03]), (0x000C, utf8("OpenCoreBluetooth")),
                (0x000E, utf8("Peer-A")), (0x0010, utf8("0CB-0001")), (0x0012, utf8("1.0.0")), (0x0014, utf8("1.0")),
                (0x0017, [0x64]), (0x001E, [0x01]), (0x0023, utf8("secondary")), (0x0026, [0xF8]),
                (0x0031, [0x00]), (0x0034, utf8("reliable")), (0x0038, [0x01, 0x02, 0x03, 0x04]), (0x0048, utf8("read-only")),
                // Descriptors (Read Characteristic Descriptors, Vol 3 Part G §4.12.1).
                (0x0009, [0x00, 0x00]), (0x0018, [0x00, 0x00]), (0x001C, [0x00, 0x00]), (0x002C, utf8("Static read value")),
                (0x002D, [0x19, 0x00, 0x00, 0x27, 0x01, 0x00, 0x00]), (0x0032, utf8("Writable value")), (0x0035, [0x03, 0x00]),
                (0x0036, utf8("Reliable write target")), (0x0039, [0x03, 0x00]), (0x003A, [0x00, 0x00]),
                (0x003B, utf8("All properties")), (0x003C, [0x00, 0x00]), (0x003F, [0x00, 0x00]), (0x0042, [0x00, 0x00]),
            ]
            for (attribute, expected) in short {
                let read = fixture.gatt(handle) { client, done in client.read(attribute) { done($0) } }
                #expect(read == .success(expected), "handle \(attribute)")
            }
            // Longer values by Read Long Characteristic Values (§4.8.3): Read, then Read Blob until a short part.
            let hello = fixture.gatt(handle) { client, done in client.read(0x002B, long: true) { done($0) } }
            #expect(hello == .success(utf8("Hello, OpenCoreBluetooth")))
            let long = fixture.gatt(handle) { client, done in client.read(0x002F, long: true) { done($0) } }
            #expect(long == .success((0..<512).map { UInt8($0 & 0xFF) }))
        }
    }

    @Test func readUsingUUIDReadMultipleAndReadMultipleVariable() throws {
        let fixture = try PeerGATT.shared.get()
        _ = try fixture.peer.send("restore")
        try fixture.withAlpha { handle in
            // Read Using Characteristic UUID (§4.8.2): every Model Number String / Battery Level value with its handle.
            let model = fixture.gatt(handle) { client, done in client.readUsingCharacteristicUUID(BluetoothUUID(0x2A24)) { done($0) } }
            #expect(model == .success([GATTHandleValue(handle: 0x000E, value: utf8("Peer-A"))]))
            let battery = fixture.gatt(handle) { client, done in client.readUsingCharacteristicUUID(BluetoothUUID(0x2A19)) { done($0) } }
            #expect(battery == .success([GATTHandleValue(handle: 0x0017, value: [0x64])]))
            // Read Multiple (§4.8.4): the values concatenated — Appearance, Battery Level, Body Sensor Location.
            let multiple = fixture.gatt(handle) { client, done in client.readMultiple([0x0005, 0x0017, 0x001E]) { done($0) } }
            #expect(multiple == .success([0x40, 0x03, 0x64, 0x01]))
            // Read Multiple Variable Length (§4.8.5): each value with its own length.
            let variable = fixture.gatt(handle) { client, done in client.readMultipleVariable([0x0003, 0x0017, 0x0038]) { done($0) } }
            #expect(variable == .success([GATTHandleValue(handle: 0x0003, value: utf8("OCB Alpha")),
                                          GATTHandleValue(handle: 0x0017, value: [0x64]),
                                          GATTHandleValue(handle: 0x0038, value: [0x01, 0x02, 0x03, 0x04])]))
        }
    }

    @Test func writesReadBackLongReliableDescriptorAndWithoutResponse() throws {
        let fixture = try PeerGATT.shared.get()
        _ = try fixture.peer.send("restore")
        defer { _ = try? fixture.peer.send("restore") }
        try fixture.withAlpha { handle in
            // Write Characteristic Value (§4.9.3), read back.
            let written = fixture.gatt(handle) { client, done in
                client.write([0xA5, 0x5A], to: 0x0031) { result in client.read(0x0031) { done((result.map { true }, $0)) } }
            }
            #expect(written?.0 == .success(true))
            #expect(written?.1 == .success([0xA5, 0x5A]))

            // Write Long Characteristic Values (§4.9.4): 100 bytes in Prepare Write parts of ATT_MTU − 5 = 18, then Execute.
            let value = (0..<100).map { UInt8(0xFF - $0) }
            let long = fixture.gatt(handle) { client, done in
                client.writeLong(value, to: 0x0031) { result in client.read(0x0031, long: true) { done((result.map { true }, $0)) } }
            }
            #expect(long?.0 == .success(true))
            #expect(long?.1 == .success(value))

            // Reliable Writes (§4.9.5): two characteristics, both applied by one Execute Write.
            let reliable = fixture.gatt(handle) { client, done in
                client.reliableWrite([GATTHandleValue(handle: 0x0034, value: utf8("RELIABLE")), GATTHandleValue(handle: 0x0031, value: [0x42])]) { result in
                    client.readMultipleVariable([0x0034, 0x0031]) { done((result.map { true }, $0)) }
                }
            }
            #expect(reliable?.0 == .success(true))
            #expect(reliable?.1 == .success([GATTHandleValue(handle: 0x0034, value: utf8("RELIABLE")), GATTHandleValue(handle: 0x0031, value: [0x42])]))

            // Write Characteristic Descriptors (§4.12.3): the writable User Description and the Server Characteristic
            // Configuration (broadcast bit, Vol 3 Part G §3.3.3.4).
            let descriptors = fixture.gatt(handle) { client, done in
                client.write(utf8("Renamed"), to: 0x0036) { _ in
                    client.write([0x01, 0x00], to: 0x003A) { _ in client.readMultipleVariable([0x0036, 0x003A]) { done($0) } }
                }
            }
            #expect(descriptors == .success([GATTHandleValue(handle: 0x0036, value: utf8("Renamed")), GATTHandleValue(handle: 0x003A, value: [0x01, 0x00])]))

            // Write Without Response (§4.9.1) to the every-property characteristic; the Read after it is answered after
            // the command was applied (ATT is in order on the bearer).
            #expect(fixture.host.canSendWriteWithoutResponse(handle))
            let command = fixture.gatt(handle) { (client, done: @escaping @Sendable (Result<[UInt8], GATTError>) -> Void) in
                do throws(GATTError) { try client.writeWithoutResponse([0x09, 0x08, 0x07], to: 0x0038) } catch { return done(.failure(error)) }
                client.read(0x0038) { done($0) }
            }
            #expect(command == .success([0x09, 0x08, 0x07]))
        }
    }

    @Test func peerErrorsSurfaceAsTypedATTErrors() throws {
        let fixture = try PeerGATT.shared.get()
        try fixture.withAlpha { handle in
            // Vol 3 Part F §3.4.1.1 error codes, with the handle the peer named.
            let notReadable = fixture.gatt(handle) { client, done in client.read(0x0046) { done($0) } }
            #expect(notReadable == .failure(.att(.readNotPermitted, handle: 0x0046)))
            let serviceChanged = fixture.gatt(handle) { client, done in client.read(0x0008) { done($0) } }
            #expect(serviceChanged == .failure(.att(.readNotPermitted, handle: 0x0008)))
            let notWritable = fixture.gatt(handle) { client, done in client.write([0x01], to: 0x0048) { done($0.map { true }) } }
            #expect(notWritable == .failure(.att(.writeNotPermitted, handle: 0x0048)))
            let readAuthentication = fixture.gatt(handle) { client, done in client.read(0x004A) { done($0) } }
            #expect(readAuthentication == .failure(.att(.insufficientAuthentication, handle: 0x004A)))
            let writeAuthentication = fixture.gatt(handle) { client, done in client.write([0x01], to: 0x004A) { done($0.map { true }) } }
            #expect(writeAuthentication == .failure(.att(.insufficientAuthentication, handle: 0x004A)))
            let application = fixture.gatt(handle) { client, done in client.read(0x004C) { done($0) } }
            #expect(application == .failure(.att(.application(0x80), handle: 0x004C)))
            let controlPoint = fixture.gatt(handle) { client, done in client.write([0x02], to: 0x0020) { done($0.map { true }) } }
            #expect(controlPoint == .failure(.att(.application(0x80), handle: 0x0020)))
            // The bearer keeps working after errors.
            let name = fixture.gatt(handle) { client, done in client.read(0x0003) { done($0) } }
            #expect(name == .success(utf8("OCB Alpha")))
        }
    }
}
