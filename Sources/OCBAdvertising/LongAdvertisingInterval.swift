// The Advertising Interval - long AD type: a 3- or 4-octet advertising interval.

/// The Advertising Interval - long AD structure (Core Specification Supplement Part A §1.15).
///
/// Layout: the interval in units of 0.625 ms, little-endian, in 3 or 4 octets (the sender chooses).
public struct LongAdvertisingInterval: Hashable, Sendable {
    /// The interval in 0.625 ms units.
    public var value: UInt32
    /// How many octets it is sent in: 3 or 4.
    public var octets: Int

    /// Makes the value; `octets` is 3 or 4 (3 requires `value` < 2^24; other counts are written as 4).
    public init(value: UInt32, octets: Int = 4) {
        self.value = value
        self.octets = octets == 3 && value <= 0xFF_FFFF ? 3 : 4
    }

    /// The interval as a duration.
    public var interval: Duration { .microseconds(Int64(value) * 625) }
}
