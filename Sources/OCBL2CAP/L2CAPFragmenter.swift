// Splits an outgoing L2CAP basic frame into HCI ACL Data packets that fit the controller's buffers.

import OCBHCI

/// Fragments outgoing basic frames into HCI ACL Data packets of at most the controller's ACL data
/// length (Core v5.4 Vol 3 Part A §7.2; Vol 4 Part E §5.4.2).
///
/// The first packet carries Packet_Boundary 0b00 (first non-automatically-flushable, the value a host
/// uses towards the controller on LE), every further packet 0b01 (continuing). The buffer length comes
/// from LE Read Buffer Size (LE_ACL_Data_Packet_Length, bytes; at least 27 on a conforming controller).
public struct L2CAPFragmenter: Sendable {
    /// Largest data length per ACL packet, in bytes (at least 1).
    public let maximumDataLength: Int

    /// Makes a fragmenter for packets of at most `maximumDataLength` data bytes (values below 1 become 1).
    public init(maximumDataLength: Int) {
        self.maximumDataLength = max(1, maximumDataLength)
    }

    /// The ACL packets that carry `frame`, in sending order. Throws ``L2CAPFrameTooLongError`` when the
    /// payload exceeds 65535 bytes.
    public func fragments(of frame: L2CAPBasicFrame) throws(L2CAPFrameTooLongError) -> [HCIACLDataPacket] {
        let bytes = try frame.bytes()
        var packets: [HCIACLDataPacket] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + maximumDataLength)
            packets.append(HCIACLDataPacket(
                handle: frame.handle,
                packetBoundary: start == 0 ? .firstNonFlushable : .continuing,
                data: Array(bytes[start..<end])
            ))
            start = end
        }
        return packets
    }
}
