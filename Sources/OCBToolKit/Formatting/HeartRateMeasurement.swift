// The Heart Rate Measurement characteristic value (0x2A37) decoded.

import OCBCore

/// A Heart Rate Measurement value (Heart Rate Service v1.0 §3.1; GATT Specification Supplement §3.113).
///
/// Layout: Flags (1): bit 0 value format (0 = UINT8, 1 = UINT16), bits 1-2 sensor contact status (0b10 supported but
/// not detected, 0b11 detected, 0b0x not supported), bit 3 Energy Expended present, bit 4 RR-Interval present;
/// Heart Rate (1 or 2, bpm); Energy Expended (2, kJ) if flagged; RR-Intervals (2 each, 1/1024 s) to the end if flagged.
public struct HeartRateMeasurement: Hashable, Sendable {
    /// Sensor contact as the flags report it.
    public enum SensorContact: Hashable, Sendable {
        /// Bits 1-2 = 0b00 or 0b01.
        case notSupported
        /// 0b10.
        case notDetected
        /// 0b11.
        case detected
    }

    /// Beats per minute.
    public var beatsPerMinute: UInt16
    /// Sensor contact.
    public var sensorContact: SensorContact
    /// Energy expended since the last reset, kJ, if present.
    public var energyExpended: UInt16?
    /// RR intervals in 1/1024 s units, oldest first.
    public var rrIntervals: [UInt16]

    /// Decodes a value; nil when it is shorter than its flags require (a trailing odd RR octet is ignored).
    public init?(bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        guard let flags = try? reader.readUInt8() else { return nil }
        if flags & 0x01 != 0 {
            guard let value = try? reader.readUInt16() else { return nil }
            beatsPerMinute = value
        } else {
            guard let value = try? reader.readUInt8() else { return nil }
            beatsPerMinute = UInt16(value)
        }
        switch (flags >> 1) & 0x03 {
        case 0b10: sensorContact = .notDetected
        case 0b11: sensorContact = .detected
        default: sensorContact = .notSupported
        }
        if flags & 0x08 != 0 {
            guard let energy = try? reader.readUInt16() else { return nil }
            energyExpended = energy
        } else {
            energyExpended = nil
        }
        var intervals: [UInt16] = []
        if flags & 0x10 != 0 {
            while reader.remaining >= 2, let interval = try? reader.readUInt16() { intervals.append(interval) }
        }
        rrIntervals = intervals
    }

    /// RR intervals in seconds.
    public var rrIntervalSeconds: [Double] { rrIntervals.map { Double($0) / 1024 } }

    /// "72 bpm, contact detected, energy 12 kJ, RR 0.801 s 0.798 s".
    public var summary: String {
        var parts = ["\(beatsPerMinute) bpm"]
        switch sensorContact {
        case .detected: parts.append("contact detected")
        case .notDetected: parts.append("no contact")
        case .notSupported: break
        }
        if let energyExpended { parts.append("energy \(energyExpended) kJ") }
        if !rrIntervals.isEmpty {
            parts.append("RR " + rrIntervals.map { Self.seconds($0) + " s" }.joined(separator: " "))
        }
        return parts.joined(separator: ", ")
    }

    /// 1/1024 s units as seconds with 3 decimals, rounded half up: 820 → "0.801".
    static func seconds(_ units: UInt16) -> String {
        let millis = (UInt32(units) * 1000 + 512) / 1024
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
