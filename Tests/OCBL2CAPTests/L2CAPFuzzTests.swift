// Seeded fuzz tests of ACL packets, L2CAP recombination, LE signaling and the fixed-channel router on hostile input.

import Foundation
import Testing
import OCBCore
import OCBHCI
@testable import OCBL2CAP
import FuzzSupport

@Suite struct L2CAPFuzzTests {
    /// The ACL packets of three fixture captures, in capture order.
    static let captureACL: [HCIACLDataPacket] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return ["wristband-read-blob-acl-fragments-smp.btsnoop", "escooter-ext-adv-nonlegacy-acl-fragments.btsnoop",
                "toycar-acl-only-read-write.btsnoop"].flatMap { name -> [HCIACLDataPacket] in
            let path = root.appendingPathComponent("Fixtures/captures").appendingPathComponent(name).path
            let records = (try? CaptureFile.read(path: path))?.records ?? []
            return records.compactMap { record in
                guard let packet = record.packet, packet.type == .acl else { return nil }
                return try? HCIACLDataPacket(bytes: packet.bytes)
            }
        }
    }()

    @Test func corpusHasFragmentedACL() {
        #expect(Self.captureACL.count > 500)
        #expect(Self.captureACL.contains { $0.packetBoundary == .continuing })
    }

    @Test(arguments: 0..<4)
    func aclPacketDecodingRoundTrips(seed: UInt64) {
        var random = FuzzRandom(seed: 0xAC10 + seed)
        let real = Self.captureACL.map(\.bytes)
        for _ in 0..<4000 {
            var bytes = random.chance(50) ? random.bytes(random.int(0...40)) : random.mutate(real[random.int(0...(real.count - 1))])
            if bytes.count >= 4, random.chance(50) {
                bytes[2] = UInt8(truncatingIfNeeded: bytes.count - 4)
                bytes[3] = UInt8(truncatingIfNeeded: (bytes.count - 4) >> 8)
            }
            do {
                let packet = try HCIACLDataPacket(bytes: bytes)
                // Header and data as received: re-encoding gives back the bytes the Data_Total_Length covered.
                let length = Int(bytes[2]) | Int(bytes[3]) << 8
                #expect(packet.data.count == length)
                #expect(packet.bytes == Array(bytes.prefix(4 + length)))
            } catch {
                #expect(error.offset <= bytes.count)
                #expect(error.available < error.needed)
            }
        }
    }

    @Test(arguments: 0..<4)
    func interleavedFragmentsComeBackWholeBesideGarbage(seed: UInt64) throws {
        var random = FuzzRandom(seed: 0x12C0 + seed)
        var recombiner = L2CAPRecombiner(maximumPayloadLength: 2000)
        // Clean handles carry whole frames fragmented at random sizes; handles 0x0F00... carry garbage.
        var expected: [ConnectionHandle: [L2CAPBasicFrame]] = [:]
        var lanes: [ConnectionHandle: [HCIACLDataPacket]] = [:]
        for handle: ConnectionHandle in [0x0040, 0x0041, 0x0042] {
            for _ in 0..<60 {
                let frame = L2CAPBasicFrame(handle: handle, channelID: L2CAPChannelID(rawValue: UInt16(random.int(1...0x80))),
                                            payload: random.bytes(random.chance(80) ? random.int(0...60) : random.int(61...1800)))
                expected[handle, default: []].append(frame)
                lanes[handle, default: []] += try L2CAPFragmenter(maximumDataLength: random.int(1...251)).fragments(of: frame)
            }
        }
        for handle: ConnectionHandle in [0x0F00, 0x0F01] {
            lanes[handle] = (0..<400).map { _ in
                let boundary = HCIACLDataPacket.PacketBoundary(rawValue: UInt8(random.int(0...3))) ?? .continuing
                var data = random.bytes(random.int(0...12))
                if boundary != .continuing, data.count >= 2, random.chance(70) { data[1] = 0 }  // small announced lengths
                return HCIACLDataPacket(handle: handle, packetBoundary: boundary, data: data)
            }
        }
        var received: [ConnectionHandle: [L2CAPBasicFrame]] = [:]
        var tracked: [ConnectionHandle: [UInt8]] = [:]
        while let handle = lanes.filter({ !$0.value.isEmpty }).keys.sorted().randomElement(using: &random) {
            guard let packet = lanes[handle]?.removeFirst() else { break }
            if packet.packetBoundary == .continuing {
                tracked[handle]?.append(contentsOf: packet.data)
            } else {
                tracked[handle] = packet.data
            }
            for output in recombiner.receive(packet) {
                switch output {
                case .frame(let frame):
                    #expect(frame.handle == handle)
                    // The payload is exactly the announced length, taken from the fragments of this handle.
                    let bytes = tracked[handle] ?? []
                    #expect(bytes.count == 4 + frame.payload.count)
                    #expect(bytes.count >= 4 && Int(bytes[0]) | Int(bytes[1]) << 8 == frame.payload.count)
                    #expect(Array(bytes.dropFirst(4)) == frame.payload)
                    received[handle, default: []].append(frame)
                case .dropped(let error):
                    #expect(error.handle == handle)
                    #expect(handle >= 0x0F00, "clean handle 0x\(String(handle.rawValue, radix: 16)) lost data: \(error)")
                }
            }
            if !recombiner.handlesInProgress.contains(handle) { tracked[handle] = nil }
        }
        for handle: ConnectionHandle in [0x0040, 0x0041, 0x0042] { #expect(received[handle] == expected[handle]) }
    }

    /// Signaling codes the channel knows, and a few it does not.
    static let codes: [UInt8] = [0x01, 0x06, 0x07, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x02, 0x0A, 0x20, 0xFF]

    @Test(arguments: 0..<4)
    func signalingAnswersOnlyRequestsWithinTheSignalingMTU(seed: UInt64) {
        var random = FuzzRandom(seed: 0x5160 + seed)
        var channel = L2CAPLESignalingChannel()
        for _ in 0..<4000 {
            if random.chance(10) { _ = channel.makeRequest(code: .connectionParameterUpdateRequest, data: random.bytes(8)) }
            let outstanding = channel.outstandingRequests.count
            var payload: [UInt8]
            if random.chance(70) {
                let data = random.bytes(random.chance(50) ? [0, 2, 4, 8, 10, 12, 18][random.int(0...6)] : random.int(0...24))
                let length = random.chance(90) ? data.count : random.int(0...30)
                payload = [Self.codes[random.int(0...(Self.codes.count - 1))], random.chance(90) ? UInt8(random.int(0...8)) : random.byte(),
                           UInt8(truncatingIfNeeded: length), UInt8(truncatingIfNeeded: length >> 8)] + data
            } else {
                payload = random.bytes(random.int(0...10))
            }
            let events = channel.receive(payload)
            #expect(channel.outstandingRequests.count <= outstanding)
            let received = try? L2CAPSignalingCommand(bytes: payload)
            for case .send(let command) in events {
                // Only requests are answered, with their identifier, never identifier 0, and within MTUsig 23 (Vol 3 Part A §4).
                #expect(command.bytes.count <= 23)
                #expect(payload.count >= 2 && command.identifier == payload[1] && command.identifier != 0)
                #expect(!L2CAPSignalingCode(rawValue: payload[0]).isResponse)
                #expect(command.code == .commandReject || command.code.isResponse)
                if let received { #expect(!received.code.isResponse) }
            }
        }
    }

    @Test(arguments: 0..<2)
    func routerSendsOnlyOnItsOwnHandle(seed: UInt64) {
        var random = FuzzRandom(seed: 0x2070 + seed)
        var router = L2CAPConnectionRouter(handle: 0x0040)
        for _ in 0..<3000 {
            let channel = L2CAPChannelID(rawValue: random.chance(80) ? UInt16(random.int(3...7)) : UInt16(truncatingIfNeeded: random.next()))
            let payload = random.bytes(random.int(0...30))
            let frame = L2CAPBasicFrame(handle: random.chance(95) ? 0x0040 : 0x0041, channelID: channel, payload: payload)
            for event in router.receive(frame) {
                switch event {
                case .send(let sent):
                    #expect(frame.handle == 0x0040 && sent.handle == 0x0040)
                    #expect(sent.payload.count <= 23)
                case .attributeProtocol(let pdu):
                    #expect(channel == .attributeProtocol && pdu == payload)
                default:
                    break
                }
            }
        }
    }
}
