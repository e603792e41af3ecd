// Find Included Services, characteristic and descriptor discovery in scripted byte exchanges.
import Testing
import OCBCore
import OCBATT
@testable import OCBGATT

@Suite struct DiscoverCharacteristicsTests {
    let service = GATTService(uuid: BluetoothUUID(0x180F), isPrimary: true, startHandle: 0x0001, endHandle: 0x000A)

    @Test func includedServicesWith16And128BitUUIDs() {
        let client = GATTClient()
        let outcome = Outcome<[GATTIncludedService]>()
        let service = GATTService(uuid: BluetoothUUID(0x1800), isPrimary: true, startHandle: 0x0001, endHandle: 0x0010)
        client.findIncludedServices(of: service, completion: outcome.completion)
        // Read By Type Request 0x0001-0x0010 «Include»; a 6-byte include value: 0x0020-0x0025, UUID 0x180F.
        exchange(client, "08 01 00 10 00 02 28", "09 08 02 00 20 00 25 00 0f 18")
        // A 4-byte include value: the 128-bit UUID is read from the included service's declaration at 0x0030.
        exchange(client, "08 03 00 10 00 02 28", "09 06 03 00 30 00 35 00")
        exchange(client, "0a 30 00", "0b 88 77 66 55 44 33 22 11 f0 de bc 9a 78 56 34 12")
        exchange(client, "08 04 00 10 00 02 28", "01 08 04 00 0a")
        expectQuiet(client)
        #expect(outcome.value == [
            GATTIncludedService(declarationHandle: 0x0002, uuid: BluetoothUUID(0x180F), startHandle: 0x0020, endHandle: 0x0025),
            GATTIncludedService(declarationHandle: 0x0003, uuid: BluetoothUUID("12345678-9ABC-DEF0-1122-334455667788")!,
                                startHandle: 0x0030, endHandle: 0x0035),
        ])
        // Included services not known before enter the cache as secondary services.
        #expect(client.cache.service(startingAt: 0x0030)?.isPrimary == false)
    }

    @Test func allCharacteristicsWithEndHandles() {
        let client = GATTClient()
        let outcome = Outcome<[GATTCharacteristic]>()
        client.discoverCharacteristics(of: service, completion: outcome.completion)
        // Two 7-byte entries: decl 0x0002 (Read|Notify, value 0x0003, 2A00), decl 0x0004 (Read, value 0x0005, 2A01).
        exchange(client, "08 01 00 0a 00 03 28", "09 07 02 00 12 03 00 00 2a 04 00 02 05 00 01 2a")
        exchange(client, "08 05 00 0a 00 03 28", "09 07 07 00 08 08 00 19 2a")
        exchange(client, "08 08 00 0a 00 03 28", "01 08 08 00 0a")
        expectQuiet(client)
        #expect(outcome.value == [
            GATTCharacteristic(declarationHandle: 0x0002, valueHandle: 0x0003, endHandle: 0x0003, properties: [.read, .notify], uuid: BluetoothUUID(0x2A00)),
            GATTCharacteristic(declarationHandle: 0x0004, valueHandle: 0x0005, endHandle: 0x0006, properties: [.read], uuid: BluetoothUUID(0x2A01)),
            GATTCharacteristic(declarationHandle: 0x0007, valueHandle: 0x0008, endHandle: 0x000A, properties: [.write], uuid: BluetoothUUID(0x2A19)),
        ])
    }

    @Test func characteristicsEndAtTheServiceEndWithoutAnotherRequest() {
        let client = GATTClient()
        let outcome = Outcome<[GATTCharacteristic]>()
        let short = GATTService(uuid: BluetoothUUID(0x180F), isPrimary: true, startHandle: 0x0001, endHandle: 0x0003)
        client.discoverCharacteristics(of: short, completion: outcome.completion)
        // The value handle is the service end: no declaration can follow, so no second request.
        exchange(client, "08 01 00 03 00 03 28", "09 07 02 00 02 03 00 19 2a")
        expectQuiet(client)
        #expect(outcome.value?.map(\.endHandle) == [0x0003])
    }

    @Test func characteristicsByUUIDFilterButKeepEnds() {
        let client = GATTClient()
        let outcome = Outcome<[GATTCharacteristic]>()
        client.discoverCharacteristics(of: service, uuid: BluetoothUUID(0x2A00), completion: outcome.completion)
        exchange(client, "08 01 00 0a 00 03 28", "09 07 02 00 12 03 00 00 2a 04 00 02 05 00 01 2a")
        exchange(client, "08 05 00 0a 00 03 28", "01 08 05 00 0a")
        expectQuiet(client)
        // 2A00 ends before the next declaration (0x0004), which by-UUID discovery still had to see.
        #expect(outcome.value == [GATTCharacteristic(declarationHandle: 0x0002, valueHandle: 0x0003, endHandle: 0x0003,
                                                     properties: [.read, .notify], uuid: BluetoothUUID(0x2A00))])
        #expect(client.cache.characteristics[0x0001]?.count == 2)
    }

    @Test func characteristicValueHandleBeforeDeclarationIsMalformed() {
        let client = GATTClient()
        let outcome = Outcome<[GATTCharacteristic]>()
        client.discoverCharacteristics(of: service, completion: outcome.completion)
        exchange(client, "08 01 00 0a 00 03 28", "09 07 02 00 02 03 00 00 2a")
        exchange(client, "08 03 00 0a 00 03 28", "09 07 05 00 02 04 00 01 2a")
        guard case .malformed? = outcome.error else {
            Issue.record("expected malformed, got \(String(describing: outcome.result))")
            return
        }
        // What came before the malformed entry is kept.
        #expect(client.cache.characteristics[0x0001]?.map(\.valueHandle) == [0x0003])
    }

    @Test func declarationAtOrBelowThePreviousValueHandleIsMalformed() {
        // Found by the gatt-client fuzz target: decl 0x0002 names value 0x0003, and the next declaration is at 0x0003,
        // so the first characteristic (ending at 0x0002) would hold no value; the part kept is consistent.
        let client = GATTClient()
        let outcome = Outcome<[GATTCharacteristic]>()
        client.discoverCharacteristics(of: service, completion: outcome.completion)
        exchange(client, "08 01 00 0a 00 03 28", "09 07 02 00 0a 03 00 00 2a 03 00 02 04 00 01 2a")
        guard case .malformed? = outcome.error else {
            Issue.record("expected malformed, got \(String(describing: outcome.result))")
            return
        }
        #expect(client.cache.characteristics[0x0001] == [
            GATTCharacteristic(declarationHandle: 0x0002, valueHandle: 0x0003, endHandle: 0x000A, properties: [.read, .write],
                               uuid: BluetoothUUID(0x2A00)),
        ])
        // Across responses too: the fuzz input's value 0xF500 of decl 0x0200, then a declaration at 0x0801.
        let whole = GATTService(uuid: BluetoothUUID(0xFE59), isPrimary: true, startHandle: 0x0001, endHandle: 0xFFFF)
        let again = GATTClient()
        let second = Outcome<[GATTCharacteristic]>()
        again.discoverCharacteristics(of: whole, completion: second.completion)
        exchange(again, "08 01 00 ff ff 03 28", "09 07 00 02 18 00 f5 ff 05")
        exchange(again, "08 01 02 ff ff 03 28", "09 07 01 08 18 00 0a 06 05")
        guard case .malformed? = second.error else {
            Issue.record("expected malformed, got \(String(describing: second.result))")
            return
        }
        #expect(again.cache.characteristics[0x0001]?.allSatisfy { $0.valueHandle <= $0.endHandle } == true)
    }

    @Test func descriptorsInsideTheCharacteristicOnly() {
        let client = GATTClient()
        let outcome = Outcome<[GATTDescriptor]>()
        let characteristic = GATTCharacteristic(declarationHandle: 0x0007, valueHandle: 0x0008, endHandle: 0x000A,
                                                properties: [.notify], uuid: BluetoothUUID(0x2A19))
        client.discoverDescriptors(of: characteristic, completion: outcome.completion)
        // Find Information Request 0x0009-0x000A; format 1: 0x0009 CCCD, 0x000A user description, 0x000B beyond the end.
        exchange(client, "04 09 00 0a 00", "05 01 09 00 02 29 0a 00 01 29 0b 00 03 28")
        expectQuiet(client)
        #expect(outcome.value == [GATTDescriptor(handle: 0x0009, uuid: BluetoothUUID(0x2902)),
                                  GATTDescriptor(handle: 0x000A, uuid: BluetoothUUID(0x2901))])
    }

    @Test func descriptorSearchStopsAtADeclaration() {
        let client = GATTClient()
        let outcome = Outcome<[GATTDescriptor]>()
        let characteristic = GATTCharacteristic(declarationHandle: 0x0007, valueHandle: 0x0008, endHandle: 0x0010,
                                                properties: [.notify], uuid: BluetoothUUID(0x2A19))
        client.discoverDescriptors(of: characteristic, completion: outcome.completion)
        exchange(client, "04 09 00 10 00", "05 01 09 00 02 29 0a 00 03 28")
        expectQuiet(client)
        #expect(outcome.value == [GATTDescriptor(handle: 0x0009, uuid: BluetoothUUID(0x2902))])
    }

    @Test func descriptorWith128BitUUIDFieldCaseG3() {
        let client = GATTClient()
        let outcome = Outcome<[GATTDescriptor]>()
        let characteristic = GATTCharacteristic(declarationHandle: 0x000C, valueHandle: 0x000D, endHandle: 0x000E,
                                                properties: [.read], uuid: BluetoothUUID(0x2A19))
        client.discoverDescriptors(of: characteristic, completion: outcome.completion)
        exchange(client, "04 0e 00 0e 00", "05 02 0e 00 ab 89 67 45 23 01 ef 9d bc 4a 34 12 ef be 00 00")
        expectQuiet(client)
        #expect(outcome.value == [GATTDescriptor(handle: 0x000E, uuid: BluetoothUUID("0000BEEF-1234-4ABC-9DEF-0123456789AB")!)])
    }

    @Test func descriptorFormatThreeIsMalformedAndKeepsEarlierOnes() {
        let client = GATTClient()
        let outcome = Outcome<[GATTDescriptor]>()
        let characteristic = GATTCharacteristic(declarationHandle: 0x0007, valueHandle: 0x0008, endHandle: 0x0010,
                                                properties: [.notify], uuid: BluetoothUUID(0x2A19))
        client.discoverDescriptors(of: characteristic, completion: outcome.completion)
        exchange(client, "04 09 00 10 00", "05 01 09 00 02 29")
        exchange(client, "04 0a 00 10 00", "05 03 0a 00 01 29")
        expectQuiet(client)
        guard case .malformed? = outcome.error else {
            Issue.record("expected malformed, got \(String(describing: outcome.result))")
            return
        }
        #expect(client.cache.descriptors[0x0007] == [GATTDescriptor(handle: 0x0009, uuid: BluetoothUUID(0x2902))])
    }

    @Test func noRoomForDescriptorsSendsNothing() {
        let client = GATTClient()
        let outcome = Outcome<[GATTDescriptor]>()
        let characteristic = GATTCharacteristic(declarationHandle: 0x0002, valueHandle: 0x0003, endHandle: 0x0003,
                                                properties: [.read], uuid: BluetoothUUID(0x2A00))
        client.discoverDescriptors(of: characteristic, completion: outcome.completion)
        expectQuiet(client)
        #expect(outcome.value == [])
    }
}
