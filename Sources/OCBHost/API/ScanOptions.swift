// How to scan: active or passive, interval and window, duplicate filters, service filter, scan-response wait.

import OCBCore

/// Scan settings for ``CentralHost/startScan(_:completion:)``.
///
/// Interval and window are in 0.625 ms units (0x0004...0x4000, 2.5 ms...10.24 s; window ≤ interval),
/// Core v5.4 Vol 4 Part E §7.8.10 (legacy) and §7.8.64 (extended, where the same units apply per PHY).
public struct ScanOptions: Sendable, Hashable {
    /// True sends scan requests and collects scan responses; false only listens.
    public var isActive: Bool
    /// LE_Scan_Interval in 0.625 ms units; default 0x0060 (60 ms).
    public var interval: UInt16
    /// LE_Scan_Window in 0.625 ms units; default 0x0030 (30 ms).
    public var window: UInt16
    /// Ask the controller to filter duplicates (Filter_Duplicates = 0x01).
    public var controllerFiltersDuplicates: Bool
    /// Report a device again only when its data changed (host-side).
    public var hostFiltersDuplicates: Bool
    /// Report a device once, and once more when a scan response completes it, as CoreBluetooth does without
    /// AllowDuplicates (host-side, ``ScanResultMerger/Configuration/coalesces``; overrides ``hostFiltersDuplicates``):
    /// the reports in between cost no parse above the host.
    public var coalescesDiscoveries: Bool = false
    /// Only devices advertising at least one of these service UUIDs; empty means every device.
    public var services: Set<BluetoothUUID>
    /// Longest wait for a scan response before a scannable advertisement is reported without it.
    public var scanResponseWait: Duration

    /// Makes the options; defaults: active, 60 ms interval, 30 ms window, no duplicate filtering, all services, 500 ms wait.
    public init(isActive: Bool = true, interval: UInt16 = 0x0060, window: UInt16 = 0x0030,
                controllerFiltersDuplicates: Bool = false, hostFiltersDuplicates: Bool = false,
                services: Set<BluetoothUUID> = [], scanResponseWait: Duration = .milliseconds(500)) {
        self.isActive = isActive
        self.interval = interval
        self.window = window
        self.controllerFiltersDuplicates = controllerFiltersDuplicates
        self.hostFiltersDuplicates = hostFiltersDuplicates
        self.services = services
        self.scanResponseWait = scanResponseWait
    }
}
