// Reads, writes, long and reliable writes, commands, subscriptions and closing, in scripted byte exchanges.
import Testing
import OCBCore
import OCBATT
@testable import OCBGATT

@Suite struct ReadWriteTests {
    /// `count` bytes 0x00, 0x01, ... (mod 256).
    func ramp(_ count: Int, from start: Int = 0) -> [UInt8] { (start..<(start + count)).map { UInt8(truncatingIfNeeded: $0) } }
    func spaced(_ bytes: [UInt8]) -> String { Hex.string(bytes, separator: " ") }

    @Test func readLongEndsOnAShortPart() {
        let client = GATTClient()
        let outcome = Outcome<[UInt8]>()
        client.read(0x0003, long: true, completion: outcome.completion)
        // ATT_MTU 23: a full part is 22 bytes; Read Blob offsets 22 (0x16) then 44 (0x2C); a 5-byte part ends it.
        exchange(client, "0a 03 00", "0b " + spaced(ramp(22)))
        exchange(client, "0c 03 00 16 00", "0d " + spaced(ramp(22, from: 22)))
        exchange(client, "0c 03 00 2c 00", "0d " + spaced(ramp(5, from: 44)))
        expectQuiet(client)
        #expect(outcome.value == ramp(49))
    }

    @Test func readLongEndsOnAttributeNotLongAndInvalidOffset() {
        for code in ["0b", "07"] {
            let client = GATTClient()
            let outcome = Outcome<[UInt8]>()
            client.read(0x0003, long: true, completion: outcome.completion)
            exchange(client, "0a 03 00", "0b " + spaced(ramp(22)))
            exchange(client, "0c 03 00 16 00", "01 0c 03 00 " + code)
            expectQuiet(client)
            #expect(outcome.value == ramp(22))
        }
    }

    @Test func readErrorIsTyped() {
        let client = GATTClient()
        let outcome = Outcome<[UInt8]>()
        client.read(0x0003, completion: outcome.completion)
        exchange(client, "0a 03 00", "01 0a 03 00 02")
        #expect(outcome.error == .att(.readNotPermitted, handle: 0x0003))
    }

    @Test func readUsingCharacteristicUUID() {
        let client = GATTClient()
        let outcome = Outcome<[GATTHandleValue]>()
        client.readUsingCharacteristicUUID(BluetoothUUID(0x2A19), completion: outcome.completion)
        exchange(client, "08 01 00 ff ff 19 2a", "09 03 03 00 64 09 00 32")
        #expect(outcome.value == [GATTHandleValue(handle: 0x0003, value: [0x64]), GATTHandleValue(handle: 0x0009, value: [0x32])])
    }

    @Test func readMultipleSplitsByMTU() {
        let client = GATTClient()
        let outcome = Outcome<[UInt8]>()
        // ATT_MTU 23 carries (23-1)/2 = 11 handles per Read Multiple Request; the 12th goes as a Read Request.
        client.readMultiple((1...12).map { AttributeHandle(rawValue: $0) }, completion: outcome.completion)
        exchange(client, "0e 01 00 02 00 03 00 04 00 05 00 06 00 07 00 08 00 09 00 0a 00 0b 00", "0f " + spaced(ramp(11)))
        exchange(client, "0a 0c 00", "0b 0b")
        expectQuiet(client)
        #expect(outcome.value == ramp(12))
    }

    @Test func readMultipleNeedsTwoHandles() {
        let client = GATTClient()
        let outcome = Outcome<[UInt8]>()
        client.readMultiple([3], completion: outcome.completion)
        expectQuiet(client)
        guard case .invalidRequest? = outcome.error else {
            Issue.record("expected invalidRequest, got \(String(describing: outcome.result))")
            return
        }
    }

    @Test func readMultipleVariableCompletesATruncatedValue() {
        let client = GATTClient()
        let outcome = Outcome<[GATTHandleValue]>()
        client.readMultipleVariable([0x0003, 0x0005], completion: outcome.completion)
        // Length 2 "aa bb", then a value of Length 25 of which 17 bytes fit: the rest is read with Read Blob at 17.
        exchange(client, "20 03 00 05 00", "21 02 00 aa bb 19 00 " + spaced(ramp(17)))
        exchange(client, "0c 05 00 11 00", "0d " + spaced(ramp(8, from: 17)))
        expectQuiet(client)
        #expect(outcome.value == [GATTHandleValue(handle: 0x0003, value: [0xAA, 0xBB]), GATTHandleValue(handle: 0x0005, value: ramp(25))])
    }

    @Test func writeAndItsLimit() {
        let client = GATTClient()
        let outcome = Outcome<Void>()
        client.write([0x01, 0x02], to: 0x0003, completion: outcome.completion)
        exchange(client, "12 03 00 01 02", "13")
        #expect(outcome.value != nil)
        let tooLong = Outcome<Void>()
        client.write(ramp(21), to: 0x0003, completion: tooLong.completion)
        expectQuiet(client)
        #expect(tooLong.error == .valueTooLong(length: 21, maximum: 20))
    }

    @Test func writeLongInPartsOfMTUMinusFive() {
        let client = GATTClient()
        let outcome = Outcome<Void>()
        let value = ramp(40)
        client.writeLong(value, to: 0x0003, completion: outcome.completion)
        // ATT_MTU 23: parts of 18 bytes at offsets 0, 18 (0x12), 36 (0x24); each echoed; then Execute Write 0x01.
        let parts = [(0, "00 00"), (18, "12 00"), (36, "24 00")]
        for (start, offset) in parts {
            let part = spaced(Array(value[start..<min(40, start + 18)]))
            exchange(client, "16 03 00 \(offset) \(part)", "17 03 00 \(offset) \(part)")
        }
        exchange(client, "18 01", "19")
        expectQuiet(client)
        #expect(outcome.value != nil)
    }

    @Test func reliableWriteCancelsOnAWrongEcho() {
        let client = GATTClient()
        let outcome = Outcome<Void>()
        client.reliableWrite([GATTHandleValue(handle: 0x0003, value: [1, 2]), GATTHandleValue(handle: 0x0005, value: [3])],
                             completion: outcome.completion)
        exchange(client, "16 03 00 00 00 01 02", "17 03 00 00 00 01 02")
        // The echo of the second value differs: Execute Write Request with Flags 0x00 cancels the queue.
        exchange(client, "16 05 00 00 00 03", "17 05 00 00 00 04")
        exchange(client, "18 00", "19")
        expectQuiet(client)
        #expect(outcome.error == .preparedValueMismatch(handle: 0x0005, offset: 0))
    }

    @Test func reliableWriteCommits() {
        let client = GATTClient()
        let outcome = Outcome<Void>()
        client.reliableWrite([GATTHandleValue(handle: 0x0003, value: [1, 2]), GATTHandleValue(handle: 0x0005, value: [3])],
                             completion: outcome.completion)
        exchange(client, "16 03 00 00 00 01 02", "17 03 00 00 00 01 02")
        exchange(client, "16 05 00 00 00 03", "17 05 00 00 00 03")
        exchange(client, "18 01", "19")
        #expect(outcome.value != nil)
    }

    @Test func prepareWriteErrorCancelsAndReportsIt() {
        let client = GATTClient()
        let outcome = Outcome<Void>()
        client.writeLong([1, 2, 3], to: 0x0003, completion: outcome.completion)
        exchange(client, "16 03 00 00 00 01 02 03", "01 16 03 00 09")
        exchange(client, "18 00", "19")
        #expect(outcome.error == .att(.prepareQueueFull, handle: 0x0003))
    }

    @Test func writeWithoutResponseAndSignedWrite() throws {
        let client = GATTClient()
        try client.writeWithoutResponse([0x01], to: 0x0003)
        #expect(pendingSent(client) == [hex("52 03 00 01")])
        // ATT_MTU 23: a Write Command carries at most 20 bytes (Vol 3 Part F §3.4.5.3); nothing goes out.
        #expect(throws: GATTError.valueTooLong(length: 21, maximum: 20)) { try client.writeWithoutResponse([UInt8](repeating: 0, count: 21), to: 0x0003) }
        #expect(pendingSent(client).isEmpty)
        #expect(throws: GATTError.needsBonding) { try client.signedWriteWithoutResponse([0x01], to: 0x0003) }
        client.signer = { _ in [1, 0, 0, 0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8] }
        try client.signedWriteWithoutResponse([0x01], to: 0x0003)
        #expect(pendingSent(client) == [hex("d2 03 00 01 01 00 00 00 a1 a2 a3 a4 a5 a6 a7 a8")])
    }

    @Test func subscriberGetsANotificationThatBeatsTheWriteResponseCaseG4() {
        let client = GATTClient()
        let characteristic = GATTCharacteristic(declarationHandle: 0x000D, valueHandle: 0x000E, endHandle: 0x000F,
                                                properties: [.notify], uuid: BluetoothUUID(0x2A19))
        var found = GATTAttributeCache()
        found.insert([GATTService(uuid: BluetoothUUID(0x180F), isPrimary: true, startHandle: 0x000C, endHandle: 0x000F)])
        found.setCharacteristics([characteristic], ofServiceAt: 0x000C)
        found.setDescriptors([GATTDescriptor(handle: 0x000F, uuid: BluetoothUUID(0x2902))], ofCharacteristicAt: 0x000D)
        client.merge(found)
        var received: [[UInt8]] = []
        let outcome = Outcome<Void>()
        client.subscribe(to: characteristic, handler: { received.append($0) }, completion: outcome.completion)
        #expect(pendingSent(client) == [hex("12 0f 00 01 00")])
        // The notification of 0x000E arrives before the Write Response.
        #expect(serverSends(client, hex("1b 0e 00 2a")))
        #expect(received == [[0x2A]])
        serverSends(client, hex("13"))
        #expect(outcome.value != nil)
        client.unsubscribe(from: characteristic) { _ in }
        exchange(client, "12 0f 00 00 00", "13")
        // Unsubscribed: the value is passed up, not delivered.
        #expect(!serverSends(client, hex("1b 0e 00 2b")))
        #expect(received == [[0x2A]])
    }

    @Test func subscribeWithoutCCCDIsNotFound() {
        let client = GATTClient()
        let characteristic = GATTCharacteristic(declarationHandle: 0x000D, valueHandle: 0x000E, endHandle: 0x000E,
                                                properties: [.notify], uuid: BluetoothUUID(0x2A19))
        let outcome = Outcome<Void>()
        client.subscribe(to: characteristic, handler: { _ in }, completion: outcome.completion)
        expectQuiet(client)
        guard case .notFound? = outcome.error else {
            Issue.record("expected notFound, got \(String(describing: outcome.result))")
            return
        }
    }

    @Test func closeFailsRunningAndQueuedProcedures() {
        let client = GATTClient()
        let first = Outcome<[UInt8]>()
        let second = Outcome<Void>()
        client.read(0x0003, completion: first.completion)
        client.write([1], to: 0x0005, completion: second.completion)
        // One procedure at a time: only the Read Request is out.
        #expect(pendingSent(client) == [hex("0a 03 00")])
        // The link ended: the bearer closes, and every procedure fails, also one asked for later.
        client.close(now: Wiring.shared.now)
        #expect(first.error == .disconnected)
        #expect(second.error == .disconnected)
        let late = Outcome<[UInt8]>()
        client.read(0x0003, completion: late.completion)
        #expect(late.error == .disconnected)
        expectQuiet(client)
    }

    @Test func proceduresRunInTurn() {
        let client = GATTClient()
        let first = Outcome<[UInt8]>()
        let second = Outcome<Void>()
        client.read(0x0003, completion: first.completion)
        client.write([1], to: 0x0005, completion: second.completion)
        exchange(client, "0a 03 00", "0b 07")
        exchange(client, "12 05 00 01", "13")
        #expect(first.value == [7])
        #expect(second.value != nil)
    }
}
