// Benchmarks: throughput of the protocol layers over the fixture captures, printed as a table.
//
// Run: swift run -c release Benchmarks [--only TEXT] [--passes N] [captures directory]
//   --only TEXT   runs the benchmarks whose name contains TEXT (case-insensitive; "none" runs none)
//   --passes N    runs exactly N passes each, no warm-up (for allocation counts under heaptrack)
//   directory     default: Fixtures/captures of this package
//      or: swift run -c release Benchmarks --peer [--notifications N]
//   --peer        against the virtual peer (scripts/setup's venv): CPU per notification and discovery round trips
//      or: swift run -c release Benchmarks --write-ad-corpus FILE [captures directory] | --ad-corpus FILE [--passes N]
//   the AD benchmark's Swift side (scripts/bench-ad): the captures' advertising payloads, or the typed parse's time
//      or: swift run -c release Benchmarks --scan-path [--reports N] [--passes N] [--scan-case changing|counter|repeating,true|false] [--scan-wiring memory|tcp] [captures directory]
//   LE Advertising Reports over H4 (in memory by default, or loopback TCP) through Host and CoreBluetooth to didDiscover, reports per second
//      or: swift run -c release Benchmarks --notification-path [--notifications N] [--passes N]
//   Handle Value Notifications over H4 (loopback TCP) through every layer to didUpdateValueFor, CPU per notification
//      or: swift run -c release Benchmarks --backlog N [--passes N]
//   a connect's LE Connection Complete behind N buffered advertising reports (loopback TCP): how soon the host takes it
//      or: swift run -c release Benchmarks --flood N
//   N distinct advertisers from the virtual peer through CBCentralManager: connect time with and without, memory

import OCBAdvertising
import OCBATT
import Foundation
import OCBHCI
import OCBHost
import OCBL2CAP

let defaultDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/captures").path
var only: String?
var fixedPasses: Int?
var directory = defaultDirectory
var arguments = CommandLine.arguments.dropFirst()
var peer = false
var notificationCount = 20_000
var writeADCorpus: String?
var adCorpus: String?
var scanPath = false
var scanReports = 1_000_000
var scanCases: Set<String> = []
var scanWiring = ScanPathBenchmark.Wiring.memory
var scanAdvertisers = 1_000
var floodCount: Int?
var backlogCount: Int?
var notificationPath = false
/// Ends the run with `problem` on stderr (exit 2): a bad argument.
func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("Benchmarks: \(problem)\n".utf8))
    exit(2)
}

while let argument = arguments.popFirst() {
    switch argument {
    case "--peer": peer = true
    case "--notification-path": notificationPath = true
    case "--notifications": notificationCount = arguments.popFirst().flatMap { Int($0) } ?? notificationCount
    case "--only": only = arguments.popFirst()?.lowercased()
    case "--write-ad-corpus": writeADCorpus = arguments.popFirst()
    case "--ad-corpus": adCorpus = arguments.popFirst()
    case "--scan-path": scanPath = true
    case "--advertisers": scanAdvertisers = arguments.popFirst().flatMap { Int($0) }.map { max(1, $0) } ?? scanAdvertisers
    case "--flood": floodCount = arguments.popFirst().flatMap { Int($0) }.map { max(1, $0) } ?? 100_000
    case "--backlog":
        // A count of at least 1,000 (fewer make the per-report figure noise); 100,000 when none follows.
        if let next = arguments.first, !next.hasPrefix("--") {
            arguments.removeFirst()
            guard let count = Int(next), count >= 1_000 else { usage("--backlog takes a count of reports of at least 1000, not \"\(next)\"") }
            backlogCount = count
        } else {
            backlogCount = 100_000
        }
    case "--scan-case":
        let names = (arguments.popFirst() ?? "").split(separator: ",").map(String.init)
        let known = Set(ScanPathBenchmark.DataKind.allCases.map(\.rawValue) + ["true", "false"])
        guard !names.isEmpty, names.allSatisfy(known.contains) else {
            FileHandle.standardError.write(Data("Benchmarks: --scan-case takes changing, counter, repeating, true, false (comma-separated), not \"\(names.joined(separator: ","))\"\n".utf8))
            exit(2)
        }
        scanCases.formUnion(names)
    case "--scan-wiring":
        let name = arguments.popFirst() ?? ""
        guard let wiring = ScanPathBenchmark.Wiring(rawValue: name) else {
            FileHandle.standardError.write(Data("Benchmarks: --scan-wiring takes memory or tcp, not \"\(name)\"\n".utf8))
            exit(2)
        }
        scanWiring = wiring
    case "--reports": scanReports = arguments.popFirst().flatMap { Int($0) }.map { max(1, $0) } ?? scanReports
    case "--passes":
        let next = arguments.popFirst() ?? ""
        guard let count = Int(next), count >= 1 else { usage("--passes takes a count of at least 1, not \"\(next)\"") }
        fixedPasses = count
    case "--help", "-h":
        print(usageText)
        exit(0)
    default:
        guard !argument.hasPrefix("-") else { usage("unknown option \"\(argument)\" (Benchmarks --help lists them)") }
        directory = argument
    }
}

if notificationPath {
    exit(NotificationPathBenchmark.run(notifications: notificationCount, passes: fixedPasses ?? 2) ? 0 : 1)
}
if peer { exit(runPeerBenchmarks(notifications: notificationCount) ? 0 : 1) }
if let floodCount { exit(runFloodBenchmark(count: floodCount) ? 0 : 1) }
if let path = adCorpus {
    guard let payloads = ADCorpusBenchmark.read(path) else {
        FileHandle.standardError.write(Data("Benchmarks: \(path) is not an ADC1 corpus\n".utf8))
        exit(1)
    }
    ADCorpusBenchmark.run(payloads, passes: fixedPasses ?? 5)
    exit(0)
}

let corpus: Corpus
do {
    corpus = try Corpus(directory: directory)
} catch {
    FileHandle.standardError.write(Data("Benchmarks: cannot read the captures in \(directory): \(error)\n".utf8))
    exit(1)
}
if let path = writeADCorpus { exit(ADCorpusBenchmark.write(corpus, to: path) ? 0 : 1) }
if let backlogCount {
    exit(BacklogBenchmark.run(payloads: corpus.advertisingData, backlog: backlogCount, rounds: fixedPasses ?? 7) ? 0 : 1)
}
if scanPath {
    exit(ScanPathBenchmark.run(payloads: corpus.advertisingData, reports: scanReports, advertisers: scanAdvertisers,
                               passes: fixedPasses ?? 2, cases: scanCases, wiring: scanWiring) ? 0 : 1)
}

let benchmarks = [
    Benchmark(name: "AdvertisingData, all reports") {
        var work = Work()
        for data in corpus.advertisingData {
            let parsed = AdvertisingData(bytes: data)
            work.operations += 1
            work.bytes += data.count
            work.checksum &+= parsed.structures.count &+ parsed.diagnostics.count
        }
        return work
    },
    Benchmark(name: "H4Decoder, biggest capture") {
        var work = Work()
        var decoder = H4Decoder()
        var offset = 0
        let stream = corpus.biggestH4Stream
        while offset < stream.count {
            let end = min(offset + 4096, stream.count)  // reads as a UART transport would hand them over
            decoder.push(stream[offset..<end])
            offset = end
            while let packet = try? decoder.next() {
                work.operations += 1
                work.checksum &+= packet.bytes.count
            }
        }
        work.bytes = stream.count
        return work
    },
    Benchmark(name: "HCIEvent, all events") {
        var work = Work()
        for packet in corpus.events {
            work.operations += 1
            work.bytes += packet.bytes.count
            if let event = try? HCIEvent(packet: packet), case .leMeta = event { work.checksum &+= 1 }
        }
        return work
    },
    Benchmark(name: "Advertising reports to merger") {
        // The host's per-report work on its own queue, without the threads: decode, observation, merge.
        var work = Work()
        var merger = ScanResultMerger(configuration: .init(isActive: false, filterDuplicates: false))
        let now = ContinuousClock.now
        for packet in corpus.events {
            guard let event = try? HCIEvent(packet: packet), case .leMeta(.advertisingReport(let reports)) = event else { continue }
            for report in reports.reports {
                work.operations += 1
                work.bytes += report.data.count
                work.checksum &+= merger.receive(AdvertisingObservation(HCIAdvertisingReport(report)), now: now).count
            }
        }
        return work
    },
    Benchmark(name: "L2CAPRecombiner, all ACL") {
        var work = Work()
        for capture in corpus.acl {
            var sent = L2CAPRecombiner()
            var received = L2CAPRecombiner()
            for (direction, packet) in capture {
                let outputs = direction == .sent ? sent.receive(packet) : received.receive(packet)
                work.operations += 1
                work.bytes += packet.data.count
                work.checksum &+= outputs.count
            }
        }
        return work
    },
    Benchmark(name: "ATTPDU, all ATT PDUs") {
        var work = Work()
        for pdu in corpus.attPDUs {
            work.operations += 1
            work.bytes += pdu.count
            if let decoded = try? ATTPDU(bytes: pdu) { work.checksum &+= Int(decoded.opcode.rawValue) }
        }
        return work
    },
    Benchmark(name: "CaptureFile.read, biggest capture") {
        // From bytes already in memory: the parsing, not the disk.
        guard let capture = try? CaptureFile.read(bytes: corpus.biggestFile) else { return Work() }
        return Work(operations: capture.records.count, bytes: corpus.biggestFile.count, checksum: capture.records.count)
    },
]

/// Right-aligns `text` in `width` columns.
func column(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

print("Captures: \(directory) (biggest: \(corpus.biggestName), \(corpus.biggestFile.count) bytes)")
print("ns/op and MB/s (input bytes) from the fastest pass.\n")
print("benchmark                         " + column("ops/pass", 9) + column("bytes/pass", 12) + column("ns/op", 9)
      + column("MB/s", 9) + column("passes", 8))
var checksum = 0
for benchmark in benchmarks where only.map({ benchmark.name.lowercased().contains($0) }) ?? true {
    let result = benchmark.run(fixedPasses: fixedPasses)
    let nanoseconds = result.bestPass.nanoseconds
    let perOperation = result.work.operations > 0 ? nanoseconds / Double(result.work.operations) : 0
    let megabytesPerSecond = nanoseconds > 0 ? Double(result.work.bytes) / nanoseconds * 1e3 : 0
    checksum &+= result.work.checksum
    print(benchmark.name.padding(toLength: 34, withPad: " ", startingAt: 0)
          + column("\(result.work.operations)", 9) + column("\(result.work.bytes)", 12)
          + column(String(format: "%.1f", perOperation), 9) + column(String(format: "%.1f", megabytesPerSecond), 9)
          + column("\(result.passes)", 8))
}
print("\npeak resident set \(Benchmark.peakResidentKiB()) KiB (captures included); checksum \(checksum)")
