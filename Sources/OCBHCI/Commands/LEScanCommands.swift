// Scanning commands: legacy and extended scan parameters and enable.

import OCBCore

/// HCI LE Set Scan Parameters (Core v5.4 Vol 4 Part E §7.8.10); returns Status only.
///
/// Layout: LE_Scan_Type (1), LE_Scan_Interval (2), LE_Scan_Window (2), Own_Address_Type (1),
/// Scanning_Filter_Policy (1). Interval and window are in 0.625 ms units, 0x0004...0x4000 (2.5 ms...10.24 s),
/// window ≤ interval.
public struct HCILESetScanParameters: HCICommand {
    /// 0x200B (OGF 0x08 LE Controller, OCF 0x000B).
    public static let opcode = HCIOpcode.leSetScanParameters
    /// Passive or active.
    public var scanType: LEScanType
    /// LE_Scan_Interval, 0.625 ms units.
    public var interval: UInt16
    /// LE_Scan_Window, 0.625 ms units.
    public var window: UInt16
    /// Own_Address_Type used in scan requests.
    public var ownAddressType: LEOwnAddressType
    /// Scanning_Filter_Policy: 0x00 accept all, 0x01 filter accept list only, 0x02/0x03 extended policies.
    public var filterPolicy: UInt8
    /// Makes the command (defaults: active, 60 ms every 60 ms, public, accept all).
    public init(scanType: LEScanType = .active, interval: UInt16 = 0x0060, window: UInt16 = 0x0060,
                ownAddressType: LEOwnAddressType = .public, filterPolicy: UInt8 = 0x00) {
        self.scanType = scanType
        self.interval = interval
        self.window = window
        self.ownAddressType = ownAddressType
        self.filterPolicy = filterPolicy
    }
    /// The 7 bytes in the order of the layout above, little-endian. Values are sent as given; the controller rejects
    /// out-of-range ones with 0x12 Invalid HCI Command Parameters.
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 7)
        writer.write(scanType.rawValue)
        writer.write(interval)
        writer.write(window)
        writer.write(ownAddressType.rawValue)
        writer.write(filterPolicy)
        return writer.bytes
    }
}

/// HCI LE Set Scan Enable (Core v5.4 Vol 4 Part E §7.8.11): LE_Scan_Enable (1), Filter_Duplicates (1); Status only.
public struct HCILESetScanEnable: HCICommand {
    /// 0x200C (OGF 0x08 LE Controller, OCF 0x000C).
    public static let opcode = HCIOpcode.leSetScanEnable
    /// Start (true) or stop scanning.
    public var enable: Bool
    /// Ask the controller to drop duplicate reports.
    public var filterDuplicates: Bool
    /// Makes the command.
    public init(enable: Bool, filterDuplicates: Bool = false) {
        self.enable = enable
        self.filterDuplicates = filterDuplicates
    }
    /// The 2 bytes: LE_Scan_Enable (0x00/0x01), Filter_Duplicates (0x00/0x01).
    public var parameters: [UInt8] { [enable ? 1 : 0, filterDuplicates ? 1 : 0] }
}

/// Per-PHY scan settings of LE Set Extended Scan Parameters (Core v5.4 Vol 4 Part E §7.8.64):
/// Scan_Type (1), Scan_Interval (2), Scan_Window (2); interval and window in 0.625 ms units (0x0004...0xFFFF).
public struct LEExtendedScanPHYParameters: Hashable, Sendable {
    /// Passive or active.
    public var scanType: LEScanType
    /// Scan_Interval, 0.625 ms units.
    public var interval: UInt16
    /// Scan_Window, 0.625 ms units.
    public var window: UInt16
    /// Makes the settings.
    public init(scanType: LEScanType = .active, interval: UInt16 = 0x0060, window: UInt16 = 0x0060) {
        self.scanType = scanType
        self.interval = interval
        self.window = window
    }
}

/// HCI LE Set Extended Scan Parameters (Core v5.4 Vol 4 Part E §7.8.64); returns Status only.
///
/// Layout: Own_Address_Type (1), Scanning_Filter_Policy (1), Scanning_PHYs (1: bit 0 LE 1M, bit 2 LE Coded),
/// then for each PHY set, 1M first: Scan_Type (1), Scan_Interval (2), Scan_Window (2).
public struct HCILESetExtendedScanParameters: HCICommand {
    /// 0x2041 (OGF 0x08 LE Controller, OCF 0x0041).
    public static let opcode = HCIOpcode.leSetExtendedScanParameters
    /// Own_Address_Type.
    public var ownAddressType: LEOwnAddressType
    /// Scanning_Filter_Policy (as in LE Set Scan Parameters).
    public var filterPolicy: UInt8
    /// Settings on the LE 1M primary channel, or nil not to scan on it.
    public var le1M: LEExtendedScanPHYParameters?
    /// Settings on the LE Coded primary channel, or nil not to scan on it.
    public var leCoded: LEExtendedScanPHYParameters?
    /// Makes the command.
    public init(ownAddressType: LEOwnAddressType = .public, filterPolicy: UInt8 = 0x00,
                le1M: LEExtendedScanPHYParameters? = LEExtendedScanPHYParameters(), leCoded: LEExtendedScanPHYParameters? = nil) {
        self.ownAddressType = ownAddressType
        self.filterPolicy = filterPolicy
        self.le1M = le1M
        self.leCoded = leCoded
    }
    /// 3 + 5 × (PHYs given) bytes, 3 to 13, in the order of the layout above; Scanning_PHYs has a bit for each
    /// non-nil PHY.
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 13)
        writer.write(ownAddressType.rawValue)
        writer.write(filterPolicy)
        var phys: LEPHYSet = []
        if le1M != nil { phys.insert(.le1M) }
        if leCoded != nil { phys.insert(.leCoded) }
        writer.write(phys.rawValue)
        for settings in [le1M, leCoded].compactMap({ $0 }) {
            writer.write(settings.scanType.rawValue)
            writer.write(settings.interval)
            writer.write(settings.window)
        }
        return writer.bytes
    }
}

/// HCI LE Set Extended Scan Enable (Core v5.4 Vol 4 Part E §7.8.65); returns Status only.
///
/// Layout: Enable (1), Filter_Duplicates (1: 0 off, 1 on, 2 on and reset each period), Duration (2, 10 ms units,
/// 0 = until disabled), Period (2, 1.28 s units, 0 = continuous).
public struct HCILESetExtendedScanEnable: HCICommand {
    /// 0x2042 (OGF 0x08 LE Controller, OCF 0x0042).
    public static let opcode = HCIOpcode.leSetExtendedScanEnable
    /// Start (true) or stop scanning.
    public var enable: Bool
    /// Filter_Duplicates: 0x00 disabled, 0x01 enabled, 0x02 enabled and reset each scan period.
    public var filterDuplicates: UInt8
    /// Duration, 10 ms units; 0 scans until disabled.
    public var duration: UInt16
    /// Period, 1.28 s units; 0 scans continuously.
    public var period: UInt16
    /// Makes the command.
    public init(enable: Bool, filterDuplicates: UInt8 = 0, duration: UInt16 = 0, period: UInt16 = 0) {
        self.enable = enable
        self.filterDuplicates = filterDuplicates
        self.duration = duration
        self.period = period
    }
    /// The 6 bytes: Enable, Filter_Duplicates, Duration, Period (little-endian).
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 6)
        writer.write(UInt8(enable ? 1 : 0))
        writer.write(filterDuplicates)
        writer.write(duration)
        writer.write(period)
        return writer.bytes
    }
}
