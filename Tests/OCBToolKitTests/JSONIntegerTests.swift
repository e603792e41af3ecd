// The JSON line's integers, written as digits without a String: the same text as Swift's own decimal description.
@testable import OCBToolKit
import Testing

@Suite struct JSONIntegerTests {
    /// The edges (zero, one digit and the next, the sign, Int64's least and greatest) and 1,000 seeded values of every
    /// width: each written as `String(value)` spells it.
    @Test func integersAreWrittenAsTheirDecimalDescription() {
        var values: [Int64] = [0, 9, 10, -1, -9, -10, 99, 100, Int64.min, Int64.max, Int64.min + 1, -128, 127]
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<1_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Int64(bitPattern: seed) >> (seed % 63))
        }
        for value in values {
            var line = LineBuffer()
            line.append(0x7B)
            appendDecimal(value, to: &line)
            #expect(line.text == "{" + String(value))
        }
    }
}
