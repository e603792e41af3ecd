// Joins a recording's ACL fragments into whole ATT PDUs, per connection handle, for the tolerant replay.

import OCBHCI
import OCBL2CAP

/// The ATT PDUs (L2CAP fixed channel 0x0004, Core v5.4 Vol 3 Part A §2.1) that ACL packets complete, by connection
/// handle, through ``L2CAPRecombiner`` (its bound: one PDU in progress per handle, 65,535 bytes). Malformed packets
/// and other channels give nothing.
struct ATTFrameJoiner: Sendable {
    private var recombiner = L2CAPRecombiner()

    /// The whole ATT PDUs `packet` completes, with their connection handle.
    mutating func join(_ packet: HCIPacket) -> [(handle: UInt16, pdu: [UInt8])] {
        guard packet.type == .acl, let acl = try? HCIACLDataPacket(bytes: packet.bytes) else { return [] }
        var out: [(handle: UInt16, pdu: [UInt8])] = []
        for output in recombiner.receive(acl) {
            guard case .frame(let frame) = output, frame.channelID.rawValue == 0x0004, !frame.payload.isEmpty else { continue }
            out.append((frame.handle.rawValue, frame.payload))
        }
        return out
    }
}
