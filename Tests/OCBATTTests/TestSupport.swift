// Helpers for the ATT tests: hex vectors, H4 ACL vectors through L2CAP into a bearer, and back out.

import OCBATT
import OCBCore
import OCBHCI
import OCBL2CAP

/// Bytes from a hex vector.
func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }

/// A bearer wired to the L2CAP recombiner and fragmenter as the Host will do it, fed with H4 vectors.
struct ScriptedLink {
    var bearer: ATTBearer
    var recombiner = L2CAPRecombiner()
    let fragmenter = L2CAPFragmenter(maximumDataLength: 27)
    let handle: ConnectionHandle = 0x0040

    init(bearer: ATTBearer = ATTBearer()) { self.bearer = bearer }

    /// Feeds an H4 ACL vector ("02 40 20 ...") from the peer.
    mutating func receive(h4 text: String, now: ContinuousClock.Instant) throws {
        let packet = try HCIACLDataPacket(bytes: Array(hex(text).dropFirst()))
        for output in recombiner.receive(packet) {
            if case .frame(let frame) = output, frame.channelID == .attributeProtocol { bearer.receive(frame.payload, now: now) }
        }
    }

    /// The H4 bytes of every PDU the bearer wants sent, as the Host would frame them.
    static func h4(_ events: [ATTBearerEvent], handle: ConnectionHandle = 0x0040) throws -> [[UInt8]] {
        var packets: [[UInt8]] = []
        for case .send(let pdu) in events {
            let frame = L2CAPBasicFrame(handle: handle, channelID: .attributeProtocol, payload: pdu)
            for packet in try L2CAPFragmenter(maximumDataLength: 27).fragments(of: frame) { packets.append([0x02] + packet.bytes) }
        }
        return packets
    }
}

/// The PDUs a list of events sends.
func sent(_ events: [ATTBearerEvent]) -> [[UInt8]] {
    events.compactMap { if case .send(let bytes) = $0 { bytes } else { nil } }
}

/// The request results in a list of events.
func results(_ events: [ATTBearerEvent]) -> [ATTRequestID: Result<ATTPDU, ATTBearerError>] {
    var map: [ATTRequestID: Result<ATTPDU, ATTBearerError>] = [:]
    for case .requestCompleted(let id, let result) in events { map[id] = result }
    return map
}
