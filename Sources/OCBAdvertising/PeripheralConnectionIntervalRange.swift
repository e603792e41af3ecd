// The Peripheral Connection Interval Range AD type: preferred connection interval bounds.

/// The Peripheral Connection Interval Range AD structure (Core Specification Supplement Part A §1.9).
///
/// Layout: minimum (2 octets, little-endian), maximum (2 octets), each in units of 1.25 ms
/// (0x0006...0x0C80, 7.5 ms...4 s); 0xFFFF means "no specific value".
public struct PeripheralConnectionIntervalRange: Hashable, Sendable {
    /// The minimum as sent, 1.25 ms units; 0xFFFF for no specific minimum.
    public var minimum: UInt16
    /// The maximum as sent, 1.25 ms units; 0xFFFF for no specific maximum.
    public var maximum: UInt16

    /// Makes the value from the raw fields.
    public init(minimum: UInt16, maximum: UInt16) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The minimum interval, nil for 0xFFFF (no specific value).
    public var minimumInterval: Duration? { Self.duration(minimum) }
    /// The maximum interval, nil for 0xFFFF (no specific value).
    public var maximumInterval: Duration? { Self.duration(maximum) }

    static func duration(_ units: UInt16) -> Duration? {
        units == 0xFFFF ? nil : .microseconds(Int64(units) * 1250)
    }
}
