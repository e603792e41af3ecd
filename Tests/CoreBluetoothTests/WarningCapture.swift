// Captures the `[CoreBluetooth]` lines a test expects, through the process's one diagnostics sink.
@testable import CoreBluetooth
import Foundation

/// Collects the `[CoreBluetooth]` lines that contain `marker` (other tests log through the same global sink, and
/// their lines pass through).
final class WarningCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var captured: [String] = []
    private var previous: (@Sendable (String) -> Void)?
    private let marker: String

    init(marker: String) {
        self.marker = marker
        previous = Diagnostics.setSink { [self] line in
            // Kept out of the test log; every other line goes on to the previous sink.
            if line.contains(marker) { lock.withLock { captured.append(line) } } else { previous?(line) }
        }
    }

    func remove() {
        if let previous { Diagnostics.setSink(previous) }
    }

    var lines: [String] { lock.withLock { captured } }
}
