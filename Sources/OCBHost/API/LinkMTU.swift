// ATT_MTU of one link as its ATT bearer settled it, published for reading from any thread without a queue hop.

import Synchronization

/// The ATT_MTU of one connection in bytes (23...517; 23 until an MTU exchange, Core v5.4 Vol 3 Part F §3.2.8,
/// §3.4.2). The connection's ATT bearer owns the value; its link publishes each change here (on the host's queue),
/// and readers on other threads (the CoreBluetooth facade's `maximumWriteValueLength`) load it without a hop onto that
/// queue, so they can read it while holding their own locks. Nobody else writes it.
public final class LinkMTU: Sendable, Equatable {
    private let storage: Atomic<Int>

    /// Makes the published value of a new link, `value` bytes (23 by default).
    public init(_ value: Int = 23) {
        storage = Atomic(value)
    }

    /// ATT_MTU in bytes, as last published.
    public var value: Int { storage.load(ordering: .acquiring) }

    /// Publishes the bearer's ATT_MTU (the link's, or a test double's, only).
    package func publish(_ value: Int) {
        storage.store(value, ordering: .releasing)
    }

    /// Identity: two readers are equal when they read the same link.
    public static func == (lhs: LinkMTU, rhs: LinkMTU) -> Bool { lhs === rhs }
}
