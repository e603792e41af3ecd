// A hook that notes when the host hands each HCI command to its transport and takes each event from it, for benchmarks that split a procedure's time (off by default).

import Synchronization

/// When the host hands each HCI command to its transport and takes each event (other than an advertising report read
/// in place) from it: a benchmark splits a connect's time at the moments LE Create Connection (Core v5.4 Vol 4 Part E
/// §7.8.12) left the host and LE Connection Complete (§7.7.65.1) reached it, so the host's part is told apart from the
/// socket's and the controller's. Off by default; while off, a command or an event costs one relaxed atomic load more.
package enum HostTimeline {
    /// Calls `handler` with each command's opcode (the 16-bit OGF/OCF field, §5.4.1) right after the transport took
    /// it, on the host's queue; nil turns the hook off. For benchmarks: the handler must be quick.
    package static func observeCommands(_ handler: (@Sendable (UInt16) -> Void)?) {
        commandHook.withLock { $0 = handler }
        commandsOn.store(handler != nil, ordering: .releasing)
    }

    /// Calls `handler` with each event's code and its first parameter octet (an LE Meta event's subevent code,
    /// §7.7.65; nil when it has none) as the host takes it, before it acts on it, on the host's queue; nil turns the
    /// hook off. Advertising reports read in place are not included. For benchmarks: the handler must be quick.
    package static func observeEvents(_ handler: (@Sendable (UInt8, UInt8?) -> Void)?) {
        eventHook.withLock { $0 = handler }
        eventsOn.store(handler != nil, ordering: .releasing)
    }

    /// Notes that the command with `opcode` was handed to the transport (the host's queue).
    static func commandWritten(_ opcode: UInt16) {
        guard commandsOn.load(ordering: .relaxed) else { return }
        commandHook.withLock { $0 }?(opcode)
    }

    /// Notes that the event `bytes` (code, length, parameters) was taken (the host's queue).
    static func eventRead(_ bytes: ArraySlice<UInt8>) {
        guard eventsOn.load(ordering: .relaxed), let code = bytes.first else { return }
        let first = bytes.count > 2 ? bytes[bytes.startIndex + 2] : nil
        eventHook.withLock { $0 }?(code, first)
    }

    private static let commandHook = Mutex<(@Sendable (UInt16) -> Void)?>(nil)
    private static let commandsOn = Atomic<Bool>(false)
    private static let eventHook = Mutex<(@Sendable (UInt8, UInt8?) -> Void)?>(nil)
    private static let eventsOn = Atomic<Bool>(false)
}
