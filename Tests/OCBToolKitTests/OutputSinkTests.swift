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
        // The JSON line's writer: not called in text mode; the text not built in JSON mode, held or not.
        var written = 0
        let textSink = OutputSink(mode: .text) { lines.append($0) }
        textSink.emit("plain") { _ in written += 1 }
        #expect(lines.last == "plain" && written == 0)
        let jsonSink = OutputSink(mode: .jsonLines) { lines.append($0) }
        jsonSink.hold()
        jsonSink.emit(text()) { $0.append("2") }
        jsonSink.release()
        #expect(lines.last == "2" && built == 0)
    }

    /// Held lines reach a sink without a byte writer one by one, empty ones included (a text heading's blank lines).
    @Test func blankHeldLinesKeepTheirPlace() {
        var lines: [String] = []
        let sink = OutputSink(mode: .text) { lines.append($0) }
        sink.hold()
        sink.note("")
        sink.note("")
        sink.note("heading")
        sink.note("")
        sink.release()
        #expect(lines == ["", "", "heading", ""])
    }

    /// JSON lines written into the batch reach the byte writer at the limit without a flush, whole.
    @Test func jsonLinesReachTheLimitWithoutAFlush() {
        var batches: [String] = []
        let sink = OutputSink(mode: .jsonLines, write: { _ in }, writeBytes: { batches.append(String(decoding: $0, as: UTF8.self)) })
        sink.hold()
        for n in 0..<(OutputSink.heldLimit + 1) { sink.emit("x") { $0.append(contentsOf: "{\"n\":\(n)}") } }
        #expect(batches.count == 1)
        #expect(batches.first == (0..<OutputSink.heldLimit).map { "{\"n\":\($0)}\n" }.joined())
        sink.release()
        #expect(batches.last == "{\"n\":\(OutputSink.heldLimit)}\n")
    }

    /// A byte writer that emits into the sink again (a log line about the write) does not trap: its line joins the
    /// next batch.
    @Test func aWriterEmittingIntoTheSinkStartsTheNextBatch() {
        var batches: [String] = []
        var sink: OutputSink?
        sink = OutputSink(mode: .text, write: { _ in }, writeBytes: { bytes in
            batches.append(String(decoding: bytes, as: UTF8.self))
            if batches.count == 1 { sink?.emit("written", json: "x") }
        })
        sink?.hold()
        sink?.emit("first", json: "x")
        sink?.flush()
        #expect(batches == ["first\n"])
        sink?.flush()
        #expect(batches == ["first\n", "written\n"])
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
