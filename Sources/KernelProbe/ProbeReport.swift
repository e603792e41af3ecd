// PASS/FAIL lines of the kernel probe, one per check, and the exit status they add up to.

import Foundation

/// Collects the probe's check results and prints each as one line: `PASS <check>: <detail>` or `FAIL <check>: <detail>`.
/// scripts/vm/kernel-test greps these lines; the process exits 1 when any check failed.
final class ProbeReport: @unchecked Sendable {
    private let lock = NSLock()
    private var failures = 0

    /// Prints `PASS name: detail`.
    func pass(_ name: String, _ detail: String) {
        emit("PASS \(name): \(detail)")
    }

    /// Prints `FAIL name: detail` and counts the failure.
    func fail(_ name: String, _ detail: String) {
        lock.lock()
        failures += 1
        lock.unlock()
        emit("FAIL \(name): \(detail)")
    }

    /// Prints an informational line (`     name: detail`), not a result.
    func note(_ name: String, _ detail: String) {
        emit("     \(name): \(detail)")
    }

    /// PASS when `condition`, else FAIL, with the same detail.
    func check(_ name: String, _ condition: Bool, _ detail: String) {
        condition ? pass(name, detail) : fail(name, detail)
    }

    /// 0 when nothing failed, else 1.
    var exitStatus: Int32 {
        lock.lock()
        defer { lock.unlock() }
        return failures == 0 ? 0 : 1
    }

    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
