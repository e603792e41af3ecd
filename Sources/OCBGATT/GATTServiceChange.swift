// What a Service Changed indication changed: the range, the services that went away and the new ones.
import OCBATT

/// The outcome of handling a Service Changed indication (Core v5.4 Vol 3 Part G §7.1): the cached services
/// overlapping `range` were dropped and the range rediscovered.
///
/// `removed` are services cached before that are not there any more (same UUID, kind and handles counts as
/// the same service), `added` the ones found that were not cached. `invalidated` is every cached service the
/// range touched: its characteristics and descriptors were rediscovered and must be looked up again.
public struct GATTServiceChange: Hashable, Sendable {
    /// The Affected Attribute Handle range the server indicated (Start, End; two 16-bit little-endian fields).
    public var range: ClosedRange<AttributeHandle>
    /// Every cached service that overlapped the range.
    public var invalidated: [GATTService]
    /// Services that went away.
    public var removed: [GATTService]
    /// Services that are new.
    public var added: [GATTService]
    /// The error that cut rediscovery short, if any (what was found before it is cached).
    public var error: GATTError?

    /// Makes a change record.
    public init(range: ClosedRange<AttributeHandle>, invalidated: [GATTService], removed: [GATTService], added: [GATTService], error: GATTError?) {
        self.range = range
        self.invalidated = invalidated
        self.removed = removed
        self.added = added
        self.error = error
    }
}
