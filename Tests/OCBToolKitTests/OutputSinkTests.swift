// A sink that holds lines writes them together, in order, at a flush, at its limit, or when released.

import OCBCore
import OCBToolKit
import Testing

@Suite struct OutputSinkTests {
    @Test func heldLinesAreWrittenTogetherInOrder() {
        var single: [String] = []
        var batches: [String] = []
        let sink = OutputSink(mode: .text, write: { single.append($0) },
                              writeBytes: { batches.append(String(decoding: $0, as: UTF8.self)) })
        sink.emit("one", json: "x")
        #expect(single == ["one"] && batches.isEmpty, "not held: written at once")
        sink.hold()
        sink.emit("two", json: "x")
        sink.note("three")
        #expect(single == ["one"] && batches.isEmpty)
        sink.flush()
        #expect(batches == ["two\nthree\n"])
        sink.flush()
        #expect(batches.count == 1, "nothing held: nothing written")
        for n in 0..<OutputSink.heldLimit { sink.emit("line \(n)", json: "x") }
        #expect(batches.count == 2, "the limit writes without a flush")
        #expect(batches[1] == (0..<OutputSink.heldLimit).map { "line \($0)\n" }.joined())
        sink.emit("last", json: "x")
        sink.release()
        #expect(batches.last == "last\n")
        sink.emit("after", json: "x")
        #expect(single == ["one", "after"], "released: written at once again")
    }

    /// A scan's JSON lines are written straight into the held batch, between lines of other shapes, in order; a sink
    /// without a byte writer gets the batch line by line.
    @Test func jsonLinesWrittenIntoTheBatchKeepTheirPlace() {
        var lines: [String] = []
        let sink = OutputSink(mode: .jsonLines) { lines.append($0) }
        sink.emit("x") { $0.append("{\"n\":0}") }
        #expect(lines == [#"{"n":0}"#], "not held: written at once")
        sink.hold()
        sink.emit("x") { $0.append("{\"n\":1}") }
        sink.emit("x", json: ["n": 2])
        sink.emit("x") { $0.append("{\"n\":3}") }
        #expect(lines.count == 1)
        sink.release()
        #expect(lines == [#"{"n":0}"#, #"{"n":1}"#, #"{"n":2}"#, #"{"n":3}"#])
    }

    @Test func onlyTheModesFormIsBuilt() {
        var built = 0
        func text() -> String { built += 1; return "text" }
        var lines: [String] = []
        OutputSink(mode: .jsonLines) { lines.append($0) }.emit(text(), json: .int(1))
        #expect(lines == ["1"] && built == 0)
    }
}

@Suite struct AdvertiserTallyTests {
    @Test func distinctAdvertisersAreCountedUpToTheBoundThenSaidToBeALowerBound() {
        var tally = AdvertiserTally()
        tally.note("C0:00:00:00:00:01", isConnectable: false)
        tally.note("C0:00:00:00:00:01", isConnectable: true)  // the last report counts
        tally.note("C0:00:00:00:00:02", isConnectable: false)
        #expect(tally.count == 2 && tally.connectableCount == 1 && !tally.isCapped)
        // Addresses (kept as their 48 bits) and other names (a peripheral identifier's text) share the bound.
        tally.note("6C1B2F1E-8C55-4A4E-9D5B-0F6A2B9E3C01", isConnectable: true)
        #expect(tally.count == 3 && tally.connectableCount == 2)
        for n in 0..<AdvertiserTally.limit {
            tally.note(BluetoothAddress(value: 0xD000_0000_0000 + UInt64(n)).description, isConnectable: false)
        }
        #expect(tally.count == AdvertiserTally.limit && tally.isCapped)
        tally.note("C0:00:00:00:00:02", isConnectable: true)  // one already counted is still updated
        tally.note("6C1B2F1E-8C55-4A4E-9D5B-0F6A2B9E3C01", isConnectable: false)
        tally.note("6C1B2F1E-8C55-4A4E-9D5B-0F6A2B9E3C02", isConnectable: true)  // a new one past the bound is not
        #expect(tally.count == AdvertiserTally.limit && tally.connectableCount == 2)
    }

    @Test func anAddressIsOneAdvertiserWhateverTheCaseOfItsText() {
        var tally = AdvertiserTally()
        tally.note("c0:00:00:00:00:0a", isConnectable: false)
        tally.note("C0:00:00:00:00:0A", isConnectable: true)
        #expect(tally.count == 1 && tally.connectableCount == 1)
    }
}
