// A hook that notes when the host hands each HCI command to its transport, for benchmarks that split a procedure's time (off by default).

import Synchronization

/// When the host hands each HCI command to its transport: a benchmark splits a connect's time at the moment LE
/// Create Connection (Core v5.4 Vol 4 Part E §7.8.12) left the host, so the host's part is told apart from the
/// socket's and the controller's. Off by default; while off, a command costs one relaxed atomic load more.
package enum HostTimeline {
    /// Calls `handler` with each command's opcode (the 16-bit OGF/OCF field, §5.4.1) right after the transport took
    /// it, on the host's queue; nil turns the hook off. For benchmarks: the handler must be quick.
    package static func observeCommands(_ handler: (@Sendable (UInt16) -> Void)?) {
        hook.withLock { $0 = handler }
        isOn.store(handler != nil, ordering: .releasing)
    }

    /// Notes that the command with `opcode` was handed to the transport (the host's queue).
    static func commandWritten(_ opcode: UInt16) {
        guard isOn.load(ordering: .relaxed) else { return }
        hook.withLock { $0 }?(opcode)
    }

    private static let hook = Mutex<(@Sendable (UInt16) -> Void)?>(nil)
    private static let isOn = Atomic<Bool>(false)
}
