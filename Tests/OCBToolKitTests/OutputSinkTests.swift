// A sink that holds lines writes them together, in order, at a flush, at its limit, or when released.

import OCBCore
import OCBToolKit
import Testing

@Suite struct OutputSinkTests {
    @Test func heldLinesAreWrittenTogetherInOrder() {
        var single: [String] = []
        var batches: [[String]] = []
        let sink = OutputSink(mode: .text, write: { single.append($0) }, writeLines: { batches.append($0) })
        sink.emit("one", json: "x")
        #expect(single == ["one"] && batches.isEmpty, "not held: written at once")
        sink.hold()
        sink.emit("two", json: "x")
        sink.note("three")
        #expect(single == ["one"] && batches.isEmpty)
        sink.flush()
        #expect(batches == [["two", "three"]])
        for n in 0..<OutputSink.heldLimit { sink.emit("line \(n)", json: "x") }
        #expect(batches.count == 2 && batches[1].count == OutputSink.heldLimit, "the limit writes without a flush")
        sink.emit("last", json: "x")
        sink.release()
        #expect(batches.last == ["last"])
        sink.emit("after", json: "x")
        #expect(single == ["one", "after"], "released: written at once again")
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
