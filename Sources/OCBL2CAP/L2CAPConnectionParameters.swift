// The connection parameters a peripheral asks for in a Connection Parameter Update Request, and their bounds.

import OCBCore

/// Connection parameters as carried by L2CAP_CONNECTION_PARAMETER_UPDATE_REQ (Core v5.4 Vol 3 Part A §4.20)
/// and applied with HCI LE Connection Update (Vol 4 Part E §7.8.18).
///
/// Layout (8 bytes, little-endian): Interval Min (2), Interval Max (2), Latency (2), Timeout (2).
/// Units: intervals in 1.25 ms, latency in connection events, supervision timeout in 10 ms.
public struct L2CAPConnectionParameters: Hashable, Sendable, CustomStringConvertible {
    /// Minimum connection interval, in 1.25 ms units (valid 6...3200, i.e. 7.5 ms...4 s).
    public var intervalMin: UInt16
    /// Maximum connection interval, in 1.25 ms units (valid 6...3200, and at least ``intervalMin``).
    public var intervalMax: UInt16
    /// Peripheral latency, in connection events (valid 0...499).
    public var latency: UInt16
    /// Supervision timeout, in 10 ms units (valid 10...3200, i.e. 100 ms...32 s).
    public var timeout: UInt16

    /// Makes a parameter set (values in the units above).
    public init(intervalMin: UInt16, intervalMax: UInt16, latency: UInt16, timeout: UInt16) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.latency = latency
        self.timeout = timeout
    }

    /// Decodes the 8-byte data field of a Connection Parameter Update Request; nil unless exactly 8 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 8 else { return nil }
        var reader = ByteReader(bytes)
        guard let intervalMin = try? reader.readUInt16(), let intervalMax = try? reader.readUInt16(),
              let latency = try? reader.readUInt16(), let timeout = try? reader.readUInt16() else { return nil }
        self.init(intervalMin: intervalMin, intervalMax: intervalMax, latency: latency, timeout: timeout)
    }

    /// The 8-byte data field.
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 8)
        writer.write(intervalMin)
        writer.write(intervalMax)
        writer.write(latency)
        writer.write(timeout)
        return writer.bytes
    }

    /// True when the parameters are within the spec's bounds (Vol 3 Part A §4.20, Vol 4 Part E §7.8.18,
    /// Vol 6 Part B §4.5.2): intervals 6...3200 with min <= max, latency 0...499, timeout 10...3200,
    /// and the supervision timeout longer than (1 + latency) * Interval Max * 2 in milliseconds
    /// (timeout * 10 ms > (1 + latency) * intervalMax * 1.25 ms * 2, i.e. timeout * 4 > (1 + latency) * intervalMax).
    public var isValid: Bool {
        let intervals: ClosedRange<UInt16> = 6...3200
        guard intervals.contains(intervalMin), intervals.contains(intervalMax), intervalMin <= intervalMax,
              latency <= 499, (10...3200).contains(timeout) else { return false }
        return Int(timeout) * 4 > (1 + Int(latency)) * Int(intervalMax)
    }

    public var description: String {
        "interval \(intervalMin)...\(intervalMax) x 1.25 ms, latency \(latency), timeout \(timeout) x 10 ms"
    }
}
