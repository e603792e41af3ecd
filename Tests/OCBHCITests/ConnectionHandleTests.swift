// Connection_Handle as its own type: the 12 bits of the field, the flags above them dropped.

import OCBCore
import OCBHCI
import Testing

@Suite struct ConnectionHandleTests {
    /// Core v5.4 Vol 4 Part E §5.4.2: an ACL header's first field carries the handle in bits 0-11 and the
    /// Packet_Boundary and Broadcast flags in bits 12-15; 0x2040 is handle 0x0040 with PB 0b10.
    @Test func theFieldsFlagBitsAreNotPartOfTheHandle() throws {
        #expect(ConnectionHandle(field: 0x2040) == 0x0040)
        #expect(ConnectionHandle(field: 0xFFFF).rawValue == 0x0FFF)
        let packet = try HCIACLDataPacket(bytes: [0x40, 0x20, 0x01, 0x00, 0xAA])
        #expect(packet.handle == 0x0040 && packet.packetBoundary == .firstFlushable)
        #expect(packet.bytes == [0x40, 0x20, 0x01, 0x00, 0xAA])
    }

    /// Written little-endian with the high 4 bits zero; described as four hex digits.
    @Test func writtenAndDescribed() {
        var writer = ByteWriter()
        writer.write(ConnectionHandle(rawValue: 0x0E01))
        #expect(writer.bytes == [0x01, 0x0E])
        #expect(ConnectionHandle(rawValue: 0x0040).description == "0x0040")
        #expect(ConnectionHandle(rawValue: 0x0041).fieldBytes == [0x41, 0x00])
    }
}
