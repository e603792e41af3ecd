// The connection parameters shared by the create-connection and connection-update commands.

import OCBCore

/// Connection parameters (Core v5.4 Vol 4 Part E §7.8.12, §7.8.18, §7.8.31), written in this order:
/// Connection_Interval_Min (2), Connection_Interval_Max (2), Max_Latency (2), Supervision_Timeout (2),
/// Min_CE_Length (2), Max_CE_Length (2).
///
/// Intervals in 1.25 ms units (0x0006...0x0C80, 7.5 ms...4 s); latency in connection events (0...0x01F3);
/// supervision timeout in 10 ms units (0x000A...0x0C80, 100 ms...32 s), larger than
/// (1 + latency) × interval max × 2; CE lengths in 0.625 ms units.
public struct LEConnectionParameters: Hashable, Sendable {
    /// Connection_Interval_Min, 1.25 ms units.
    public var intervalMin: UInt16
    /// Connection_Interval_Max, 1.25 ms units.
    public var intervalMax: UInt16
    /// Max_Latency, connection events the peripheral may skip.
    public var maxLatency: UInt16
    /// Supervision_Timeout, 10 ms units.
    public var supervisionTimeout: UInt16
    /// Min_CE_Length, 0.625 ms units.
    public var minCELength: UInt16
    /// Max_CE_Length, 0.625 ms units.
    public var maxCELength: UInt16

    /// Makes the parameters (defaults: 30...50 ms interval, no latency, 4 s supervision timeout, CE 0).
    public init(intervalMin: UInt16 = 0x0018, intervalMax: UInt16 = 0x0028, maxLatency: UInt16 = 0,
                supervisionTimeout: UInt16 = 0x0190, minCELength: UInt16 = 0, maxCELength: UInt16 = 0) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.maxLatency = maxLatency
        self.supervisionTimeout = supervisionTimeout
        self.minCELength = minCELength
        self.maxCELength = maxCELength
    }

    func write(to writer: inout ByteWriter) {
        writer.write(intervalMin)
        writer.write(intervalMax)
        writer.write(maxLatency)
        writer.write(supervisionTimeout)
        writer.write(minCELength)
        writer.write(maxCELength)
    }
}
