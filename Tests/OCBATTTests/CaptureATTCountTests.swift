// Every ACL packet of the eight captures recombines, and per direction our count of each ATT opcode equals tshark's
// (Fixtures/expected/att/<capture>.json, written by scripts/fixtures/att_expectations.py).

import OCBATT
import OCBHCI
import OCBL2CAP
import Testing

/// tshark's ATT PDU counts per direction, opcode as two lower-case hex digits: all of them ("sent", "received"),
/// those on the LE ATT fixed channel (CID 0x0004), and the rest by handle, channel and direction.
struct ATTExpectation: Decodable {
    struct Channel: Decodable {
        var handle: UInt16
        var cid: UInt16
        var direction: String
        var opcodes: [String: Int]
    }

    var sent: [String: Int]
    var received: [String: Int]
    var leFixedChannel: [String: [String: Int]]
    var otherChannels: [Channel]
    var aclContinuationFragments: [String: Int]
}

/// One L2CAP channel in one direction.
struct ChannelKey: Hashable, CustomStringConvertible {
    var handle: ConnectionHandle
    var cid: UInt16
    var direction: CaptureDirection
    var description: String { "handle \(handle.rawValue) CID \(cid) \(direction)" }
}

/// What one capture gives when its ACL packets are recombined per direction and its ATT PDUs decoded.
struct ATTCaptureResult {
    var counts: [CaptureDirection: [String: Int]] = [.sent: [:], .received: [:]]
    /// First-byte counts of the frames on every other channel, whatever they carry (SMP, signaling, ATT over BR/EDR...).
    var otherChannels: [ChannelKey: [String: Int]] = [:]
    /// Handles announced by a successful BR/EDR Connection Complete event (0x03, Vol 4 Part E §7.7.3).
    var brEdrHandles: Set<UInt16> = []
    /// Recombination drops, with the frame (1-based) and direction of the packet that caused them.
    var drops: [(frame: Int, direction: CaptureDirection, error: L2CAPRecombinationError)] = []
    /// ATT PDUs that ATTPDU(bytes:) refused, with their frame and the error.
    var undecodable: [(frame: Int, error: ATTDecodingError)] = []
    /// Continuation fragments (Packet_Boundary 0b01) fed to the recombiners, per direction.
    var continuationFragments: [CaptureDirection: Int] = [.sent: 0, .received: 0]
    /// Incomplete PDUs left per direction at the end of the capture.
    var leftInProgress: [CaptureDirection: Set<ConnectionHandle>] = [:]

    init(_ capture: CaptureFile) {
        var recombiners: [CaptureDirection: L2CAPRecombiner] = [.sent: L2CAPRecombiner(), .received: L2CAPRecombiner()]
        for (index, record) in capture.records.enumerated() {
            guard let packet = record.packet else { continue }
            if packet.type == .event, case .unknown(code: 0x03, let parameters) = try? HCIEvent(packet: packet),
               parameters.count >= 3, parameters[0] == 0x00 {
                brEdrHandles.insert(UInt16(parameters[1]) | UInt16(parameters[2] & 0x0F) << 8)  // Status, Connection_Handle
            }
            guard packet.type == .acl else { continue }
            let acl: HCIACLDataPacket
            do { acl = try HCIACLDataPacket(bytes: packet.bytes) } catch {
                Issue.record("frame \(index + 1): ACL header: \(error)"); continue
            }
            if acl.packetBoundary == .continuing { continuationFragments[record.direction, default: 0] += 1 }
            for output in recombiners[record.direction, default: L2CAPRecombiner()].receive(acl) {
                switch output {
                case .dropped(let error): drops.append((index + 1, record.direction, error))
                case .frame(let frame) where frame.channelID == .attributeProtocol:
                    guard let opcode = frame.payload.first else { Issue.record("frame \(index + 1): empty ATT PDU"); continue }
                    counts[record.direction, default: [:]][Self.hex(opcode), default: 0] += 1
                    do { _ = try ATTPDU(bytes: frame.payload) } catch { undecodable.append((index + 1, error)) }
                case .frame(let frame):
                    guard let first = frame.payload.first else { continue }
                    let key = ChannelKey(handle: frame.handle, cid: frame.channelID.rawValue, direction: record.direction)
                    otherChannels[key, default: [:]][Self.hex(first), default: 0] += 1
                }
            }
        }
        for (direction, recombiner) in recombiners where !recombiner.handlesInProgress.isEmpty {
            leftInProgress[direction] = recombiner.handlesInProgress
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return byte < 0x10 ? "0" + digits : digits
    }
}

@Suite struct CaptureATTCountTests {
    @Test(arguments: CaptureFixtures.names)
    func attOpcodeCountsPerDirectionEqualTsharks(name: String) throws {
        let expected = try CaptureFixtures.expected(ATTExpectation.self, folder: "att", capture: name)
        let result = ATTCaptureResult(try CaptureFixtures.read(name))
        // The LE ATT fixed channel, the one an LE central uses.
        #expect(result.counts[.sent] == expected.leFixedChannel["sent"])
        #expect(result.counts[.received] == expected.leFixedChannel["received"])
        // ATT on other channels: only ATT over BR/EDR (scooter: PSM 0x001F on handle 0x0033, dynamic CIDs 0x0040 and
        // 0x004E; tshark follows the BR/EDR signaling, an LE central never sees it). The same recombiners give the same
        // counts on those channels, so together with CID 0x0004 our counts equal tshark's totals.
        var totals = result.counts
        for channel in expected.otherChannels {
            let direction: CaptureDirection = channel.direction == "sent" ? .sent : .received
            let key = ChannelKey(handle: ConnectionHandle(rawValue: channel.handle), cid: channel.cid, direction: direction)
            #expect(result.brEdrHandles.contains(channel.handle), "\(key) is not a BR/EDR connection")
            #expect(result.otherChannels[key] == channel.opcodes, "\(key)")
            totals[direction, default: [:]].merge(result.otherChannels[key] ?? [:], uniquingKeysWith: +)
        }
        #expect(totals[.sent] == expected.sent)
        #expect(totals[.received] == expected.received)
        #expect(expected.otherChannels.isEmpty == !name.hasPrefix("scooter"))
        // tshark reports no malformed L2CAP PDU and no unfinished reassembly in any capture, so we may drop nothing;
        // the continuation fragments (escooter 15, wristband 27, all received) were joined, not dropped.
        #expect(result.continuationFragments[.sent] == expected.aclContinuationFragments["sent"])
        #expect(result.continuationFragments[.received] == expected.aclContinuationFragments["received"])
        #expect(result.drops.isEmpty, "\(result.drops)")
        #expect(result.leftInProgress.isEmpty, "\(result.leftInProgress)")
        #expect(result.undecodable.isEmpty, "\(result.undecodable)")
    }
}
