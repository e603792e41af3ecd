// Ctrl-C and SIGTERM as an event: the first ends a stream or scan cleanly, a second one exits at once.

import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into ``SessionEvent/interrupted`` (DispatchSource signal sources).
///
/// The first signal posts the event so the command unsubscribes, disconnects and prints its summary; a second
/// one exits with status 130 (128 + SIGINT) without cleaning up: what was not written yet (events still in the
/// ``EventInbox``, the at most ``OCBToolKit/OutputSink/heldLimit`` lines a scan holds) is not written.
final class InterruptSignal: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []
    private let lock = NSLock()
    private var count = 0

    /// Starts listening; keep the value alive for as long as the signals should be caught.
    init(inbox: EventInbox) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                let seen = self.lock.withLock { self.count += 1; return self.count }
                if seen > 1 { exit(130) }
                inbox.post(.interrupted)
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
