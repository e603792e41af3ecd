// The line buffer cbtool's output is written into: appends across growth, reuse after removeAll, clamped writers, hex.
import Foundation
import OCBCore
@testable import OCBToolKit
import Testing

@Suite struct LineBufferTests {
    /// Every kind of append, past several doublings of the storage, gives the bytes appended in order; after
    /// `removeAll()` the buffer is empty and writes from the start again.
    @Test func appendsKeepTheirOrderAcrossGrowthAndReuse() {
        var buffer = LineBuffer()
        var expected: [UInt8] = []
        for round in 0..<300 {
            buffer.append(UInt8(round % 200))
            expected.append(UInt8(round % 200))
            buffer.append("key")
            expected += Array("key".utf8)
            buffer.append(contentsOf: "é\(round)")
            expected += Array("é\(round)".utf8)
            [UInt8](repeating: 0x41, count: round % 7).withUnsafeBytes { buffer.append($0) }
            expected += [UInt8](repeating: 0x41, count: round % 7)
        }
        #expect(buffer.count == expected.count)
        #expect(buffer.withBytes { Array($0) } == expected)
        buffer.removeAll()
        #expect(buffer.isEmpty && buffer.text == "")
        buffer.append("again")
        #expect(buffer.text == "again")
    }

    /// Literals typed as `StaticString` (what an unlabelled literal is) and strings (`append(contentsOf:)`) give their
    /// UTF-8; one append far larger than the storage grows it whole.
    @Test func literalsStringsAndOneLargeAppend() {
        var buffer = LineBuffer()
        let key: StaticString = "key", comma: StaticString = ",", accented: StaticString = "é"
        buffer.append(key)
        buffer.append(comma)
        buffer.append(accented)
        buffer.append(contentsOf: "naïve 🙂")
        #expect(buffer.text == "key,énaïve 🙂")
        var large = LineBuffer()
        large.append("x")
        large.append(atMost: 1_000) { room in
            for index in room.indices { room[index] = UInt8(truncatingIfNeeded: index % 251) }
            return room.count
        }
        #expect(large.count == 1_001)
        #expect(large.withBytes { Array($0) } == [UInt8(ascii: "x")] + (0..<1_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let bytes = (0..<1_650).map { UInt8(truncatingIfNeeded: $0 &* 37) }  // an extended advertisement's most
        var hex = LineBuffer()
        hex.appendHex(bytes, separator: " ")
        #expect(hex.text == bytes.map { String(format: "%02x", $0) }.joined(separator: " "))
    }

    /// A writer's count is clamped to the room it was given: a negative count writes nothing, a count past the room
    /// keeps only the room.
    @Test func aWritersCountIsClampedToItsRoom() {
        var buffer = LineBuffer()
        buffer.append("a")
        buffer.append(atMost: 4) { room in
            for index in room.indices { room[index] = UInt8(ascii: "x") }
            return -3
        }
        #expect(buffer.text == "a")
        buffer.append(atMost: 2) { room in
            room[0] = UInt8(ascii: "b")
            room[1] = UInt8(ascii: "c")
            return 9
        }
        #expect(buffer.text == "abc")
    }

    /// Hex is `Hex.string`'s, with and without a separator, and empty for no bytes.
    @Test func hexIsTheSameAsHexString() {
        var buffer = LineBuffer()
        buffer.appendHex([0x0A, 0xFF, 0x00, 0x4C])
        buffer.append("|")
        buffer.appendHex([0x01, 0xAB], separator: " ")
        buffer.append("|")
        buffer.appendHex([])
        #expect(buffer.text == "0aff004c|01 ab|")
    }
}
