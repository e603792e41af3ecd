// Discover All Primary Services and Discover Primary Service by Service UUID in scripted byte exchanges.
import Testing
import OCBCore
import OCBATT
@testable import OCBGATT

@Suite struct DiscoverServicesTests {
    @Test func allPrimaryServicesEndAtFFFF() {
        let client = GATTClient()
        let outcome = Outcome<[GATTService]>()
        client.discoverAllPrimaryServices(completion: outcome.completion)
        // Read By Group Type Request 0x0001-0xFFFF «Primary Service» (Vol 3 Part F §3.4.4.9); three 16-bit services back.
        exchange(client, "10 01 00 ff ff 00 28", "11 06 01 00 05 00 00 18 06 00 09 00 01 18 0a 00 0f 00 0f 18")
        // The next request starts one past the last End Group Handle; a 128-bit service ends at 0xFFFF.
        exchange(client, "10 10 00 ff ff 00 28",
                 "11 14 10 00 ff ff fb 34 9b 5f 80 00 00 80 00 10 00 00 0d 18 00 00")
        expectQuiet(client)
        #expect(outcome.value == [
            GATTService(uuid: BluetoothUUID(0x1800), isPrimary: true, startHandle: 0x0001, endHandle: 0x0005),
            GATTService(uuid: BluetoothUUID(0x1801), isPrimary: true, startHandle: 0x0006, endHandle: 0x0009),
            GATTService(uuid: BluetoothUUID(0x180F), isPrimary: true, startHandle: 0x000A, endHandle: 0x000F),
            GATTService(uuid: BluetoothUUID("0000180D-0000-1000-8000-00805F9B34FB")!, isPrimary: true, startHandle: 0x0010, endHandle: 0xFFFF),
        ])
        #expect(client.cache.services.count == 4)
    }

    @Test func allPrimaryServicesEndOnAttributeNotFound() {
        let client = GATTClient()
        let outcome = Outcome<[GATTService]>()
        client.discoverAllPrimaryServices(completion: outcome.completion)
        exchange(client, "10 01 00 ff ff 00 28", "11 06 01 00 05 00 00 18")
        // Error Response: request 0x10, handle 0x0006, Attribute Not Found (0x0A).
        exchange(client, "10 06 00 ff ff 00 28", "01 10 06 00 0a")
        expectQuiet(client)
        #expect(outcome.value?.map(\.startHandle) == [0x0001])
    }

    @Test func serverThatRepeatsItselfFailsDiscoveryAndKeepsWhatWasFound() {
        let client = GATTClient()
        let outcome = Outcome<[GATTService]>()
        client.discoverAllPrimaryServices(completion: outcome.completion)
        exchange(client, "10 01 00 ff ff 00 28", "11 06 01 00 05 00 00 18")
        // The server answers the request from 0x0006 with the service at 0x0001 again: a handle below the requested
        // Starting Handle (Vol 3 Part F §3.4.4.10) is a malformed response, not the end of the database.
        exchange(client, "10 06 00 ff ff 00 28", "11 06 01 00 05 00 00 18")
        expectQuiet(client)
        #expect(outcome.error == .malformed(GATTMalformedResponse(
            response: "Read By Group Type Response",
            reason: "handle 0x0001 lies below 0x0006, the requested start or one past the previous entry (handles must increase)")))
        #expect(client.cache.services.map(\.startHandle) == [0x0001])
    }

    @Test func entriesOutOfOrderInOneResponseFailDiscovery() {
        let client = GATTClient()
        let outcome = Outcome<[GATTService]>()
        client.discoverAllPrimaryServices(completion: outcome.completion)
        // Two groups, the second (0x0003-0x0004) inside the first (0x0001-0x0005): handles do not increase.
        exchange(client, "10 01 00 ff ff 00 28", "11 06 01 00 05 00 00 18 03 00 04 00 01 18")
        expectQuiet(client)
        #expect(outcome.error == .malformed(GATTMalformedResponse(
            response: "Read By Group Type Response",
            reason: "handle 0x0003 lies below 0x0006, the requested start or one past the previous entry (handles must increase)")))
    }

    @Test func malformedResponseKeepsWhatWasFound() {
        let client = GATTClient()
        let outcome = Outcome<[GATTService]>()
        client.discoverAllPrimaryServices(completion: outcome.completion)
        exchange(client, "10 01 00 ff ff 00 28", "11 06 01 00 05 00 00 18")
        // Length 7: a 3-byte service UUID, which no service declaration has.
        exchange(client, "10 06 00 ff ff 00 28", "11 07 06 00 09 00 01 18 aa")
        expectQuiet(client)
        guard case .malformed? = outcome.error else {
            Issue.record("expected malformed, got \(String(describing: outcome.result))")
            return
        }
        #expect(client.cache.services.map(\.uuid) == [BluetoothUUID(0x1800)])
    }

    @Test func undecodableResponseIsMalformed() {
        let client = GATTClient()
        let outcome = Outcome<[GATTService]>()
        client.discoverAllPrimaryServices(completion: outcome.completion)
        // 5 body bytes are not whole 6-byte entries.
        exchange(client, "10 01 00 ff ff 00 28", "11 06 01 00 05 00 00")
        expectQuiet(client)
        guard case .malformed? = outcome.error else {
            Issue.record("expected malformed, got \(String(describing: outcome.result))")
            return
        }
    }

    @Test func groupEndBeforeStartIsMalformed() {
        let client = GATTClient()
        let outcome = Outcome<[GATTService]>()
        client.discoverAllPrimaryServices(completion: outcome.completion)
        exchange(client, "10 01 00 ff ff 00 28", "11 06 05 00 04 00 00 18")
        guard case .malformed? = outcome.error else {
            Issue.record("expected malformed, got \(String(describing: outcome.result))")
            return
        }
    }

    @Test func primaryServiceByUUID() {
        let client = GATTClient()
        let outcome = Outcome<[GATTService]>()
        client.discoverPrimaryServices(uuid: BluetoothUUID(0x180F), completion: outcome.completion)
        // Find By Type Value Request: 0x0001-0xFFFF, type 0x2800, value 0F 18 (Vol 3 Part F §3.4.3.3).
        exchange(client, "06 01 00 ff ff 00 28 0f 18", "07 0a 00 0f 00")
        exchange(client, "06 10 00 ff ff 00 28 0f 18", "01 06 10 00 0a")
        expectQuiet(client)
        #expect(outcome.value == [GATTService(uuid: BluetoothUUID(0x180F), isPrimary: true, startHandle: 0x000A, endHandle: 0x000F)])
    }

    @Test func primaryServiceBy128BitUUIDEndsAtFFFF() {
        let client = GATTClient()
        let outcome = Outcome<[GATTService]>()
        let uuid = BluetoothUUID("12345678-9ABC-DEF0-1122-334455667788")!
        client.discoverPrimaryServices(uuid: uuid, completion: outcome.completion)
        exchange(client, "06 01 00 ff ff 00 28 88 77 66 55 44 33 22 11 f0 de bc 9a 78 56 34 12", "07 20 00 ff ff")
        expectQuiet(client)
        #expect(outcome.value?.first?.startHandle == 0x0020)
    }

    @Test func exchangeMTUSetsTheSmallerMTU() {
        let client = GATTClient()
        let outcome = Outcome<Int>()
        client.exchangeMTU(clientRxMTU: 517, completion: outcome.completion)
        // Exchange MTU Request 517 (0x0205), server 103 (0x0067): ATT_MTU 103 (field case G1).
        exchange(client, "02 05 02", "03 67 00")
        #expect(outcome.value == 103)
        #expect(client.mtu == 103)
    }
}
