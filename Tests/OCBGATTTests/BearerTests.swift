// The GATT client run over the ATT module's bearer: requests, early notifications, indications, timeout.
import Testing
import OCBCore
import OCBATT
@testable import OCBGATT

@Suite struct BearerTests {
    let now = ContinuousClock.now

    /// The PDUs among `events` to send, as hex.
    func sent(_ events: [ATTBearerEvent]) -> [String] {
        events.compactMap { if case .send(let pdu) = $0 { Hex.string(pdu, separator: " ") } else { nil } }
    }

    func clientWithNotifyCharacteristic() -> (GATTClient, GATTCharacteristic) {
        let client = GATTClient()
        let characteristic = GATTCharacteristic(declarationHandle: 0x000D, valueHandle: 0x000E, endHandle: 0x000F,
                                                properties: [.notify, .indicate], uuid: BluetoothUUID(0x2A19))
        var found = GATTAttributeCache()
        found.insert([GATTService(uuid: BluetoothUUID(0x180F), isPrimary: true, startHandle: 0x000C, endHandle: 0x000F)])
        found.setCharacteristics([characteristic], ofServiceAt: 0x000C)
        found.setDescriptors([GATTDescriptor(handle: 0x000F, uuid: BluetoothUUID(0x2902))], ofCharacteristicAt: 0x000D)
        client.merge(found)
        return (client, characteristic)
    }

    @Test func notificationBeforeWriteResponseAndIndicationConfirmed() {
        let (client, characteristic) = clientWithNotifyCharacteristic()
        var received: [[UInt8]] = []
        let outcome = Outcome<Void>()
        client.subscribe(to: characteristic, handler: { received.append($0) }, completion: outcome.completion)
        // Field case G4: the CCCD write goes out with the handler already in place in the client.
        #expect(sent(client.run(now: now)) == ["12 0f 00 01 00"])
        #expect(sent(client.receive(hex("1b 0e 00 2a"), now: now)).isEmpty)
        #expect(received == [[0x2A]])
        _ = client.receive(hex("13"), now: now)
        #expect(outcome.value != nil)
        // Field case G5: an indication is handed on, then confirmed once.
        #expect(sent(client.receive(hex("1d 0e 00 01 02"), now: now)) == ["1e"])
        #expect(received == [[0x2A], [0x01, 0x02]])
    }

    @Test func discoveryOverTheBearer() {
        let client = GATTClient()
        let outcome = Outcome<[GATTService]>()
        client.discoverAllPrimaryServices(completion: outcome.completion)
        #expect(sent(client.run(now: now)) == ["10 01 00 ff ff 00 28"])
        #expect(sent(client.receive(hex("11 06 01 00 05 00 00 18"), now: now)) == ["10 06 00 ff ff 00 28"])
        _ = client.receive(hex("01 10 06 00 0a"), now: now)
        #expect(outcome.value == [GATTService(uuid: BluetoothUUID(0x1800), isPrimary: true, startHandle: 0x0001, endHandle: 0x0005)])
    }

    @Test func transactionTimeoutFailsEveryProcedure() {
        let client = GATTClient()
        let first = Outcome<[UInt8]>()
        let second = Outcome<[UInt8]>()
        client.read(0x0003, completion: first.completion)
        client.read(0x0005, completion: second.completion)
        #expect(sent(client.run(now: now)) == ["0a 03 00"])
        _ = client.tick(now: now + .seconds(30))
        #expect(first.error == .timeout)
        #expect(second.error == .timeout)
    }
}
