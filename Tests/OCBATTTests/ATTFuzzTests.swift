// Seeded fuzz tests of ATT decoding and of the bearer fed hostile PDUs while requests are pending.

import Foundation
import Testing
import OCBCore
import OCBHCI
import OCBL2CAP
@testable import OCBATT
import FuzzSupport

@Suite struct ATTFuzzTests {
    /// The distinct ATT PDUs (channel 0x0004 payloads) of the fixture captures, recombined from their ACL packets.
    static let corpus: [[UInt8]] = {
        var seen: Set<[UInt8]> = []
        var result: [[UInt8]] = []
        for name in CaptureFixtures.names {
            guard let capture = try? CaptureFixtures.read(name) else { continue }
            var recombiners: [CaptureDirection: L2CAPRecombiner] = [.sent: L2CAPRecombiner(), .received: L2CAPRecombiner()]
            for record in capture.records {
                guard let packet = record.packet, packet.type == .acl, let acl = try? HCIACLDataPacket(bytes: packet.bytes) else { continue }
                for case .frame(let frame) in recombiners[record.direction]?.receive(acl) ?? []
                where frame.channelID == .attributeProtocol && !seen.contains(frame.payload) {
                    seen.insert(frame.payload)
                    result.append(frame.payload)
                }
            }
        }
        return result
    }()

    /// Decodes one PDU: a decoded PDU keeps its opcode and survives a re-encode; an error points inside the bytes.
    static func checkPDU(_ bytes: [UInt8]) {
        do {
            let pdu = try ATTPDU(bytes: bytes)
            #expect(pdu.opcode.rawValue == bytes.first)
            let again = try? ATTPDU(bytes: pdu.bytes)
            #expect(again == pdu, "re-encoding \(Hex.string(bytes)) gave \(Hex.string(pdu.bytes))")
        } catch {
            #expect(error.offset >= 0 && error.offset <= bytes.count)
            if let first = bytes.first { #expect(error.opcode.rawValue == first) }
        }
    }

    @Test func corpusHasEveryDiscoveryResponse() {
        let opcodes = Set(Self.corpus.compactMap(\.first))
        #expect(opcodes.isSuperset(of: [0x01, 0x05, 0x09, 0x0B, 0x11, 0x1B]))
    }

    @Test(arguments: 0..<2)
    func randomBodiesForEveryOpcode(seed: UInt64) {
        var random = FuzzRandom(seed: 0xA770 + seed)
        for opcode in 0...255 {
            for _ in 0..<40 {
                // Bodies around the sizes the PDUs use: 0-8, entry-sized lists, up to an MTU of 64.
                let body = random.bytes(random.chance(60) ? random.int(0...8) : random.int(9...64))
                var bytes = [UInt8(opcode)] + body
                // A plausible Length or Format octet for the list responses.
                if bytes.count > 1, random.chance(50) { bytes[1] = [1, 2, 4, 6, 7, 18, 20, 21][random.int(0...7)] }
                Self.checkPDU(bytes)
            }
        }
        Self.checkPDU([])
    }

    @Test(arguments: 0..<4)
    func mutatedCapturePDUs(seed: UInt64) {
        var random = FuzzRandom(seed: 0xA780 + seed)
        let corpus = Self.corpus
        for pdu in corpus { Self.checkPDU(pdu) }
        for _ in 0..<4000 { Self.checkPDU(random.mutate(corpus[random.int(0...(corpus.count - 1))])) }
    }

    /// A random client request of the kinds the GATT client sends.
    static func request(_ random: inout FuzzRandom, now: ContinuousClock.Instant, on bearer: inout ATTBearer) -> ATTRequestID {
        let handle = AttributeHandle(rawValue: UInt16(random.int(0...0x30)))
        switch random.int(0...6) {
        case 0: return bearer.enqueue(ATTReadRequest(attributeHandle: handle), now: now)
        case 1: return bearer.enqueue(ATTReadBlobRequest(attributeHandle: handle, valueOffset: UInt16(random.int(0...600))), now: now)
        case 2: return bearer.enqueue(ATTFindInformationRequest(startingHandle: handle, endingHandle: 0xFFFF), now: now)
        case 3: return bearer.enqueue(ATTWriteRequest(attributeHandle: handle, attributeValue: random.bytes(random.int(0...60))), now: now)
        case 4: return bearer.enqueue(ATTReadByTypeRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeType: BluetoothUUID(0x2803)), now: now)
        case 5: return bearer.enqueue(ATTPrepareWriteRequest(attributeHandle: handle, valueOffset: 0, partAttributeValue: random.bytes(random.int(0...40))), now: now)
        default: return bearer.exchangeMTU(now: now)
        }
    }

    @Test(arguments: 0..<4)
    func bearerUnderHostilePDUs(seed: UInt64) {
        var random = FuzzRandom(seed: 0xBEA0 + seed)
        let corpus = Self.corpus
        var now = ContinuousClock.now
        var bearer = ATTBearer(receiveMTU: UInt16(random.int(23...517)))
        var open: Set<ATTRequestID> = []
        var completed: Set<ATTRequestID> = []
        var inFlight: ATTOpcode?

        func absorb(_ events: [ATTBearerEvent], mtuBefore: Int, bearer: ATTBearer) {
            for event in events {
                switch event {
                case .send(let bytes):
                    // Nothing goes out above the MTU in force (the peer may lower it mid-batch).
                    #expect(!bytes.isEmpty && bytes.count <= max(mtuBefore, bearer.mtu))
                    let opcode = ATTOpcode(rawValue: bytes[0])
                    if opcode.kind == .request {
                        #expect(inFlight == nil, "a second request went out while one was pending")
                        inFlight = opcode
                    }
                case .requestCompleted(let id, let result):
                    #expect(open.contains(id) && !completed.contains(id), "request \(id) completed twice or was never made")
                    completed.insert(id)
                    if case .success(let pdu) = result { #expect(pdu.opcode == inFlight?.responseOpcode) }
                    switch result {
                    case .failure(.exceedsMTU), .failure(.mtuAlreadyExchanged): break  // never sent
                    default: inFlight = nil
                    }
                case .closed:
                    inFlight = nil
                default:
                    break
                }
            }
        }

        for step in 0..<3000 {
            let mtuBefore = bearer.mtu
            if random.chance(30) {
                open.insert(Self.request(&random, now: now, on: &bearer))
            } else if random.chance(2) {
                now = now.advanced(by: .seconds(31))
                bearer.tick(now: now)
            } else {
                var pdu: [UInt8]
                switch random.int(0...3) {
                case 0: pdu = random.mutate(corpus[random.int(0...(corpus.count - 1))])
                case 1: pdu = corpus[random.int(0...(corpus.count - 1))]
                case 2:
                    // The response the pending request waits for, with a random body.
                    pdu = [inFlight?.responseOpcode?.rawValue ?? 0x01] + random.bytes(random.int(0...30))
                    if pdu[0] == 0x03, pdu.count >= 3 { pdu = [0x03, random.edgeByte(), random.edgeByte()] }
                default: pdu = random.bytes(random.int(0...600))
                }
                now = now.advanced(by: .milliseconds(random.int(0...50)))
                bearer.receive(pdu, now: now)
            }
            absorb(bearer.takeEvents(), mtuBefore: mtuBefore, bearer: bearer)
            #expect(bearer.mtu >= ATTBearer.minimumMTU && bearer.mtu <= bearer.receiveMTU)
            if bearer.isClosed || step % 700 == 699 {
                bearer.close()
                absorb(bearer.takeEvents(), mtuBefore: bearer.mtu, bearer: bearer)
                // Every request made on this bearer completed exactly once.
                #expect(completed == open)
                bearer = ATTBearer(receiveMTU: UInt16(random.int(23...517)))
                open = []
                completed = []
                inFlight = nil
            }
        }
    }
}
