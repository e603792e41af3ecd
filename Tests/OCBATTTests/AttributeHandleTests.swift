// The attribute handle as its own type: its range, its neighbours and its bytes.

import OCBATT
import OCBCore
import Testing

@Suite struct AttributeHandleTests {
    /// Core v5.4 Vol 3 Part F §3.2.2: handles run 0x0001...0xFFFF; there is no handle after 0xFFFF.
    @Test func neighboursStopAtTheLastHandle() {
        #expect(AttributeHandle.first == 0x0001 && AttributeHandle.last == 0xFFFF)
        #expect(AttributeHandle(rawValue: 0x0003).next == 0x0004)
        #expect(AttributeHandle.last.next == nil)
        #expect(AttributeHandle(rawValue: 0xFFFF) &+ 1 == 0x0000)
        #expect(AttributeHandle(rawValue: 0x0010) - 1 == 0x000F)
    }

    /// Little-endian on the wire (§3.3.1): the Read Request of handle 0x0003 is 0A 03 00.
    @Test func readAndWrittenLittleEndian() throws {
        var writer = ByteWriter()
        writer.write(AttributeHandle(rawValue: 0x0203))
        #expect(writer.bytes == [0x03, 0x02])
        var reader = ByteReader([0x03, 0x02])
        #expect(try reader.readAttributeHandle() == 0x0203)
        #expect(ATTReadRequest(attributeHandle: 0x0003).bytes == [0x0A, 0x03, 0x00])
        #expect(try ATTReadRequest(bytes: [0x0A, 0x03, 0x00]).attributeHandle == 0x0003)
        #expect(AttributeHandle(rawValue: 0x002A).description == "0x002A")
    }
}
