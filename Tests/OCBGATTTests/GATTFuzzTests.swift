// Seeded fuzz tests of the GATT procedures driven through GATTClient's raw wiring by a hostile, random server.

import Testing
import OCBCore
import OCBATT
@testable import OCBGATT
import FuzzSupport

/// A server that answers each request with a plausible, random response: entries of the right shape at random handles,
/// error responses, or random bytes.
struct HostileServer {
    var random: FuzzRandom
    /// Percent of responses that are random bytes or mutated; twice as many (plus 5 %) are Error Responses.
    var hostility = 5

    mutating func handle(near low: UInt16, _ high: UInt16) -> UInt16 {
        if random.chance(hostility) { return [0, 1, low &- 1, high, 0xFFFF][random.int(0...4)] }
        let top = Int(min(high, low &+ 40 < low ? 0xFFFF : low &+ 40))
        return UInt16(random.int(Int(low)...max(Int(low), top)))
    }

    mutating func le16(_ value: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }

    mutating func uuid() -> [UInt8] { random.chance(70) ? le16(UInt16(random.int(0x2800...0x2A40))) : random.bytes(16) }

    mutating func respond(to request: [UInt8]) -> [UInt8] {
        let opcode = request.first ?? 0
        if random.chance(hostility) { return random.bytes(random.int(0...30)) }
        if random.chance(5 + 2 * hostility) {
            let code: UInt8 = !random.chance(3 * hostility) ? 0x0A : [0x01, 0x05, 0x07, 0x0B, 0x0E, 0x80, random.byte()][random.int(0...6)]
            return [0x01, random.chance(90) ? opcode : random.byte()] + le16(handle(near: 1, 0xFFFF)) + [code]
        }
        guard let pdu = try? ATTPDU(bytes: request) else { return random.bytes(5) }
        var out: [UInt8] = []
        switch pdu {
        case .exchangeMTURequest:
            out = [0x03] + le16(UInt16(random.int(0...600)))
        case .readByGroupTypeRequest(let read):
            let long = random.chance(30)
            out = [0x11, long ? 20 : 6]
            var next = read.startingHandle.rawValue
            for _ in 0..<random.int(1...3) {
                let start = handle(near: next, read.endingHandle.rawValue)
                let end = !random.chance(2 * hostility) ? handle(near: start, read.endingHandle.rawValue) : handle(near: 0, 0xFFFF)
                out += le16(start) + le16(end) + (long ? random.bytes(16) : le16(UInt16(random.int(0x1800...0x1830))))
                next = end &+ 1
            }
        case .findByTypeValueRequest(let find):
            out = [0x07]
            for _ in 0..<random.int(1...4) {
                let start = handle(near: find.startingHandle.rawValue, find.endingHandle.rawValue)
                out += le16(start) + le16(handle(near: start, find.endingHandle.rawValue))
            }
        case .readByTypeRequest(let read):
            if read.attributeType == BluetoothUUID(0x2803) {
                let long = random.chance(30)
                out = [0x09, long ? 21 : 7]
                for _ in 0..<random.int(1...3) {
                    let declaration = handle(near: read.startingHandle.rawValue, read.endingHandle.rawValue)
                    let value = !random.chance(2 * hostility) ? declaration &+ 1 : handle(near: 0, 0xFFFF)
                    out += le16(declaration) + [random.byte()] + le16(value) + (long ? random.bytes(16) : le16(UInt16(random.int(0x2A00...0x2A40))))
                }
            } else if read.attributeType == BluetoothUUID(0x2802) {
                let withUUID = random.chance(50)
                out = [0x09, withUUID ? 8 : 6]
                for _ in 0..<random.int(1...2) {
                    let start = handle(near: 1, 0xFFFF)
                    out += le16(handle(near: read.startingHandle.rawValue, read.endingHandle.rawValue)) + le16(start) + le16(handle(near: start, 0xFFFF))
                    if withUUID { out += le16(UInt16(random.int(0x1800...0x1830))) }
                }
            } else {
                let length = random.int(2...12)
                out = [0x09, UInt8(length)]
                for _ in 0..<random.int(1...3) { out += le16(handle(near: read.startingHandle.rawValue, read.endingHandle.rawValue)) + random.bytes(length - 2) }
            }
        case .findInformationRequest(let find):
            let long = random.chance(20)
            out = [0x05, long ? 2 : 1]
            for _ in 0..<random.int(1...4) {
                out += le16(handle(near: find.startingHandle.rawValue, find.endingHandle.rawValue)) + (long ? random.bytes(16) : Array(uuid().prefix(2)))
            }
        case .readRequest, .readBlobRequest:
            out = [opcode == 0x0A ? 0x0B : 0x0D] + random.bytes(random.chance(50) ? 22 : random.int(0...30))
        case .readMultipleRequest:
            out = [0x0F] + random.bytes(random.int(0...22))
        case .readMultipleVariableRequest(let read):
            out = [0x21]
            for _ in 0..<random.int(1...(read.setOfHandles.count + 1)) {
                let value = random.bytes(random.int(0...8))
                out += le16(UInt16(random.chance(80) ? value.count : random.int(0...600))) + value
            }
        case .writeRequest:
            out = [0x13]
        case .prepareWriteRequest(let write):
            out = random.chance(85) ? [0x17] + Array(write.bytes.dropFirst()) : random.mutate([0x17] + Array(write.bytes.dropFirst()))
        case .executeWriteRequest:
            out = [0x19]
        default:
            out = random.bytes(3)
        }
        return random.chance(hostility) ? random.mutate(out) : out
    }
}

@Suite struct GATTFuzzTests {
    /// Runs a client against the hostile server until it goes quiet; checks every request and that it ends in time.
    static func drive(_ client: GATTClient, _ server: inout HostileServer, limit: Int = 4000) -> Int {
        var requests = 0
        while true {
            // Only requests get an answer: a confirmation of an indication the server's noise made needs none.
            let outgoing = pendingSent(client).filter { ATTOpcode(rawValue: $0.first ?? 0).kind == .request }
            if outgoing.isEmpty {
                // An answer the bearer could not take (an Error Response naming another request) leaves the request
                // pending: the 30 s transaction timeout ends it, as on a real link.
                if client.isBusy { _ = client.tick(now: Wiring.shared.now + .seconds(31)) }
                break
            }
            #expect(outgoing.count == 1)
            for request in outgoing {
                requests += 1
                #expect(request.count <= client.mtu)
                if let pdu = try? ATTPDU(bytes: request) {
                    // Range requests stay valid: Starting Handle not 0 and not above Ending Handle (Vol 3 Part F §3.4.3.1).
                    switch pdu {
                    case .readByGroupTypeRequest(let read): #expect(read.startingHandle.rawValue != 0 && read.startingHandle.rawValue <= read.endingHandle.rawValue)
                    case .readByTypeRequest(let read): #expect(read.startingHandle.rawValue != 0 && read.startingHandle.rawValue <= read.endingHandle.rawValue)
                    case .findInformationRequest(let find): #expect(find.startingHandle.rawValue != 0 && find.startingHandle.rawValue <= find.endingHandle.rawValue)
                    case .findByTypeValueRequest(let find): #expect(find.startingHandle.rawValue != 0 && find.startingHandle.rawValue <= find.endingHandle.rawValue)
                    default: break
                    }
                } else {
                    Issue.record("the client sent an undecodable PDU \(Hex.string(request))")
                }
                stash(client, pendingSent(client, runFirst: false) + Wiring.shared.run(client, feed: server.respond(to: request)))
            }
            if requests > limit {
                Issue.record("no end after \(limit) requests")
                break
            }
        }
        #expect(!client.isBusy)
        return requests
    }

    /// Services well formed; with `discovered`, characteristics inside the service the client found them in.
    static func checkCache(_ cache: GATTAttributeCache, discovered: Bool = true) {
        for service in cache.services {
            #expect(service.startHandle >= 1 && service.startHandle <= service.endHandle)
            for characteristic in cache.characteristics[service.startHandle] ?? [] {
                #expect(characteristic.declarationHandle < characteristic.valueHandle)
                if discovered { #expect(characteristic.valueHandle <= service.endHandle) }
                _ = characteristic.descriptorHandles
            }
        }
    }

    @Test(arguments: 0..<6)
    func databaseDiscoveryAlwaysEnds(seed: UInt64) {
        var server = HostileServer(random: FuzzRandom(seed: 0x6A70 + seed))
        var requests = 0
        var withCharacteristics = 0
        for _ in 0..<80 {
            let client = GATTClient.agreed(mtu: server.random.chance(50) ? 23 : 185)
            server.hostility = [0, 1, 3, 10][server.random.int(0...3)]
            var results = 0
            client.discoverDatabase { _ in results += 1 }
            requests += Self.drive(client, &server)
            if client.cache.characteristics.values.contains(where: { !$0.isEmpty }) { withCharacteristics += 1 }
            #expect(results == 1)
            Self.checkCache(client.cache)
            // A Service Changed indication for a random range, whatever the cache holds, rediscovers and ends.
            client.receiveValue(server.random.bytes(server.random.chance(80) ? 4 : server.random.int(0...6)),
                                handle: client.serviceChangedCharacteristic?.valueHandle ?? 0x0003)
            _ = Self.drive(client, &server)
            Self.checkCache(client.cache)
        }
        // The server is plausible enough to take discovery past services, into characteristics (a few runs of 80:
        // a handle out of order now ends discovery with an error instead of being skipped).
        #expect(requests > 400)
        #expect(withCharacteristics >= 3)
    }

    @Test(arguments: 0..<4)
    func everyProcedureEndsExactlyOnce(seed: UInt64) {
        var server = HostileServer(random: FuzzRandom(seed: 0x6B80 + seed))
        for round in 0..<60 {
            let client = GATTClient.agreed(mtu: [23, 64, 517][round % 3])
            var results = 0
            let count: (Any) -> Void = { _ in results += 1 }
            let handle = AttributeHandle(rawValue: UInt16(server.random.int(1...40)))
            let service = GATTService(uuid: BluetoothUUID(0x180F), isPrimary: true, startHandle: handle, endHandle: handle &+ UInt16(server.random.int(0...30)))
            let characteristic = GATTCharacteristic(declarationHandle: handle, valueHandle: handle &+ 1, endHandle: handle &+ UInt16(server.random.int(0...10)),
                                                    properties: GATTCharacteristicProperties(rawValue: 0x3A), uuid: BluetoothUUID(0x2A19))
            let handles = (0..<server.random.int(0...6)).map { _ in AttributeHandle(rawValue: UInt16(server.random.int(0...50))) }
            let value = server.random.bytes(server.random.int(0...600))
            client.exchangeMTU(completion: count)
            client.discoverAllPrimaryServices(completion: count)
            client.discoverPrimaryServices(uuid: BluetoothUUID(0x180D), completion: count)
            client.findIncludedServices(of: service, completion: count)
            client.discoverCharacteristics(of: service, completion: count)
            client.discoverDescriptors(of: characteristic, completion: count)
            client.read(handle, long: server.random.chance(50), completion: count)
            client.readUsingCharacteristicUUID(BluetoothUUID(0x2A19), completion: count)
            client.readMultiple(handles, completion: count)
            client.readMultipleVariable(handles, completion: count)
            client.write(Array(value.prefix(20)), to: handle, completion: count)
            client.writeLong(value, to: handle, completion: count)
            client.reliableWrite(handles.map { GATTHandleValue(handle: $0, value: Array(value.prefix(30))) }, completion: count)
            client.subscribe(to: characteristic, handler: { _ in }, completion: count)
            client.unsubscribe(from: characteristic, completion: count)
            _ = Self.drive(client, &server)
            #expect(results == 15)
            // Characteristics of the made-up service are filed under its start, which a discovered service may share.
            Self.checkCache(client.cache, discovered: false)
        }
    }
}
