// Whole-database discovery over a scripted server, its request count, and Service Changed handling.
import Testing
import OCBCore
import OCBATT
@testable import OCBGATT

@Suite struct DatabaseDiscoveryTests {
    let uuid128 = BluetoothUUID("12345678-9ABC-DEF0-1122-334455667788")!

    /// GAP 0x0001-0x0005, GATT 0x0006-0x0009 with Service Changed and its CCCD, Battery 0x000A-0x0011 including
    /// the secondary service 0x0020 (128-bit) and with a notify characteristic (CCCD, user description).
    func makeServer() -> ScriptedATTServer {
        let server = ScriptedATTServer()
        server.addService(BluetoothUUID(0x1800), at: 0x0001, characteristics: [(0x02, BluetoothUUID(0x2A00), []), (0x02, BluetoothUUID(0x2A01), [])])
        server.addService(BluetoothUUID(0x1801), at: 0x0006, characteristics: [(0x20, BluetoothUUID(0x2A05), [BluetoothUUID(0x2902)])])
        server.addService(BluetoothUUID(0x180F), at: 0x000A, includes: [(0x0020, 0x0022, nil)],
                          characteristics: [(0x12, BluetoothUUID(0x2A19), [BluetoothUUID(0x2902), BluetoothUUID(0x2901)]),
                                            (0x0A, uuid128, [])])
        server.addService(uuid128, primary: false, at: 0x0020, characteristics: [(0x02, BluetoothUUID(0x2A29), [])])
        return server
    }

    @Test func wholeDatabaseWithRequestCount() {
        let server = makeServer()
        let client = GATTClient()
        client.subscribesToServiceChanged = false
        let outcome = Outcome<GATTAttributeCache>()
        client.discoverDatabase(completion: outcome.completion)
        server.serve(client)
        guard let cache = outcome.value else {
            Issue.record("discovery failed: \(String(describing: outcome.result))")
            return
        }
        #expect(cache.services == [
            GATTService(uuid: BluetoothUUID(0x1800), isPrimary: true, startHandle: 0x0001, endHandle: 0x0005),
            GATTService(uuid: BluetoothUUID(0x1801), isPrimary: true, startHandle: 0x0006, endHandle: 0x0009),
            GATTService(uuid: BluetoothUUID(0x180F), isPrimary: true, startHandle: 0x000A, endHandle: 0x0011),
            GATTService(uuid: uuid128, isPrimary: false, startHandle: 0x0020, endHandle: 0x0022),
        ])
        #expect(cache.includedServices[0x000A] == [GATTIncludedService(declarationHandle: 0x000B, uuid: uuid128, startHandle: 0x0020, endHandle: 0x0022)])
        #expect(cache.characteristics[0x000A] == [
            GATTCharacteristic(declarationHandle: 0x000C, valueHandle: 0x000D, endHandle: 0x000F, properties: [.read, .notify], uuid: BluetoothUUID(0x2A19)),
            GATTCharacteristic(declarationHandle: 0x0010, valueHandle: 0x0011, endHandle: 0x0011, properties: [.read, .write], uuid: uuid128),
        ])
        #expect(cache.descriptors[0x000C] == [GATTDescriptor(handle: 0x000E, uuid: BluetoothUUID(0x2902)),
                                              GATTDescriptor(handle: 0x000F, uuid: BluetoothUUID(0x2901))])
        #expect(cache.descriptors[0x0007] == [GATTDescriptor(handle: 0x0009, uuid: BluetoothUUID(0x2902))])
        #expect(client.serviceChangedCharacteristic?.valueHandle == 0x0008)
        // ATT_MTU 23. Counted from the spec's procedures:
        //  2 Read By Group Type (1800, 1801, 180F fit one response; then Attribute Not Found: 0x0020 is secondary);
        //  GAP: includes 1 (not found), characteristics 1 (value 0x0005 is the service end), no descriptor room;
        //  GATT: includes 1, characteristics 2, Find Information 1 (0x0009 is the characteristic end);
        //  Battery: includes 2 + 1 Read of the 128-bit included UUID, characteristics 2 (a 19-byte declaration
        //  cannot share a response with 7-byte ones; the second's value is the service end), Find Information 1;
        //  secondary: includes 1, characteristics 1. Total 16; more is a regression.
        #expect(server.requestCount == 16)
    }

    @Test func serviceChangedRediscoversAndReportsTheDifference() {
        let server = makeServer()
        let client = GATTClient()
        client.discoverDatabase { _ in }
        server.serve(client)
        // Service Changed indications were enabled: CCCD 0x0009 holds 02 00.
        #expect(server.attributes.first { $0.handle == 0x0009 }?.value == [0x02, 0x00])
        // The server drops Battery and its secondary, and adds Heart Rate at 0x000A.
        server.attributes.removeAll { $0.handle >= 0x000A }
        server.addService(BluetoothUUID(0x180D), at: 0x000A, characteristics: [(0x10, BluetoothUUID(0x2A37), [BluetoothUUID(0x2902)])])
        var changes: [GATTServiceChange] = []
        client.serviceChangeHandler = { changes.append($0) }
        // Handle Value Indication of 0x0008: affected range 0x000A-0xFFFF.
        #expect(serverSends(client, hex("1d 08 00 0a 00 ff ff")))
        server.serve(client)
        #expect(changes.count == 1)
        #expect(changes.first?.removed.map(\.uuid) == [BluetoothUUID(0x180F), uuid128])
        #expect(changes.first?.added == [GATTService(uuid: BluetoothUUID(0x180D), isPrimary: true, startHandle: 0x000A, endHandle: 0x000D)])
        #expect(changes.first?.error == nil)
        #expect(client.cache.services.map(\.uuid) == [BluetoothUUID(0x1800), BluetoothUUID(0x1801), BluetoothUUID(0x180D)])
        #expect(client.cache.characteristics[0x000A]?.first?.uuid == BluetoothUUID(0x2A37))
    }

    @Test(arguments: [
        // Start Handle 0x0000 (no attribute handle, Core v5.4 Vol 3 Part F §3.2.2), End 0xFFFF.
        ([0x1d, 0x08, 0x00, 0x00, 0x00, 0xff, 0xff] as [UInt8], "Service Changed with Affected Attribute Handle Range 0x0000-0xFFFF ignored: Start Handle 0x0000 is no attribute handle"),
        // Start 0x0010 above End 0x000A.
        ([0x1d, 0x08, 0x00, 0x10, 0x00, 0x0a, 0x00] as [UInt8], "Service Changed with Affected Attribute Handle Range 0x0010-0x000A ignored: Start Handle above End Handle"),
    ])
    func serviceChangedWithNoHandleRangeIsIgnoredAndLogged(indication: [UInt8], line: String) {
        let server = makeServer()
        let client = GATTClient()
        client.discoverDatabase { _ in }
        server.serve(client)
        let before = client.cache
        let requests = server.requestCount
        var changes: [GATTServiceChange] = []
        var lines: [String] = []
        client.serviceChangeHandler = { changes.append($0) }
        client.diagnosticHandler = { lines.append($0) }
        #expect(serverSends(client, indication))
        server.serve(client)
        #expect(changes.isEmpty && lines == [line])
        #expect(client.cache == before && server.requestCount == requests)
    }

    @Test func aMalformedResponseFailsOneServicesCharacteristicsAndDiscoveryGoesOn() {
        let server = makeServer()
        // Read By Type Requests for «Characteristic» (0x2803) inside Battery (0x000A-0x0011) get ATT_READ_BY_TYPE_RSP
        // with Length 0, which no entry can have (Core v5.4 Vol 3 Part F §3.4.4.2): malformed.
        server.misbehave = { pdu in
            guard pdu.count == 7, pdu[0] == 0x08, pdu[5] == 0x03, pdu[6] == 0x28 else { return nil }
            let start = UInt16(pdu[1]) | UInt16(pdu[2]) << 8
            return (0x000A...0x0011).contains(start) ? [0x09, 0x00] : nil
        }
        let client = GATTClient()
        client.subscribesToServiceChanged = false
        let outcome = Outcome<GATTAttributeCache>()
        client.discoverDatabase(completion: outcome.completion)
        server.serve(client)
        guard let cache = outcome.value else {
            Issue.record("whole-database discovery failed: \(String(describing: outcome.result))")
            return
        }
        // Every service, the other services' characteristics, Battery's include; Battery's characteristics marked failed.
        #expect(cache.services.map(\.startHandle) == [0x0001, 0x0006, 0x000A, 0x0020])
        #expect(cache.characteristics[0x0020]?.map(\.uuid) == [BluetoothUUID(0x2A29)])
        #expect(cache.characteristics[0x0006]?.map(\.uuid) == [BluetoothUUID(0x2A05)])
        #expect(cache.includedServices[0x000A]?.map(\.startHandle) == [0x0020])
        #expect(cache.characteristics[0x000A] == [])
        let battery = GATTService(uuid: BluetoothUUID(0x180F), isPrimary: true, startHandle: 0x000A, endHandle: 0x0011)
        #expect(cache.discoveryFailures == [GATTDiscoveryFailure(
            service: battery, part: .characteristics,
            error: .malformed(GATTMalformedResponse(response: "ATT_READ_BY_TYPE_RSP", reason: "Length at offset 1: invalid entry length 0")))])
        #expect(cache.discoveryFailures.first?.description.hasPrefix("characteristics of service 0x000A-0x0011 180F") == true)
    }
}
