// One benchmark: a pass of work over a corpus, repeated and timed with ContinuousClock; the best pass is kept.

import Glibc

/// What one pass of a benchmark did: operations (packets, reports, PDUs), input bytes, and a checksum of the results
/// that is printed so the optimiser cannot drop the work.
struct Work {
    var operations = 0
    var bytes = 0
    var checksum = 0
}

/// A named pass over prepared input.
struct Benchmark {
    var name: String
    var pass: () -> Work

    /// The timing of a benchmark: the fastest pass and the number of passes.
    struct Result {
        var work: Work
        var bestPass: Duration
        var passes: Int
    }

    /// Runs exactly `fixedPasses` passes when given (no warm-up: for allocation counting under heaptrack);
    /// otherwise one warm-up pass, then passes until `minimumTime` has elapsed (at least `minimumPasses`).
    func run(fixedPasses: Int? = nil, minimumTime: Duration = .milliseconds(500), minimumPasses: Int = 5) -> Result {
        let clock = ContinuousClock()
        var work = fixedPasses == nil ? pass() : Work()
        var best = Duration.seconds(3600)
        var passes = 0
        let start = clock.now
        while fixedPasses.map({ passes < $0 }) ?? (passes < minimumPasses || clock.now - start < minimumTime) {
            let begin = clock.now
            work = pass()
            best = min(best, clock.now - begin)
            passes += 1
        }
        return Result(work: work, bestPass: best, passes: passes)
    }

    /// The process's peak resident set size in KiB (getrusage ru_maxrss).
    static func peakResidentKiB() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss
    }
}

extension Duration {
    /// The duration in nanoseconds, as a Double.
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}
