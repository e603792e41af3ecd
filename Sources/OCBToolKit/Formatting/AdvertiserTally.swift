// The distinct advertisers a scan heard and how many of them were connectable, for its summary: bounded.

/// Counts the distinct advertiser addresses of a scan (the last connectability seen of each) for `cbtool scan`'s
/// summary line. Fed from the air, so bounded: at most ``limit`` addresses are remembered (about 4 MB at worst);
/// past that, new ones are not counted and ``isCapped`` says the count is a lower bound ("at least").
public struct AdvertiserTally: Sendable {
    /// The most distinct addresses remembered.
    public static let limit = 65_536

    private var connectable: [String: Bool] = [:]
    /// True once an address beyond ``limit`` was heard: ``count`` is then "at least".
    public private(set) var isCapped = false

    /// An empty tally.
    public init() {}

    /// Notes one report of `address` (its text form) and whether that PDU was connectable.
    public mutating func note(_ address: String, isConnectable: Bool) {
        if connectable[address] != nil || connectable.count < Self.limit {
            connectable[address] = isConnectable
        } else {
            isCapped = true
        }
    }

    /// Distinct advertisers counted (at most ``limit``).
    public var count: Int { connectable.count }
    /// Of those, the ones whose last report was connectable.
    public var connectableCount: Int { connectable.values.lazy.filter { $0 }.count }
}
