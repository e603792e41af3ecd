// How to connect: scan timing while initiating, requested link parameters and a timeout.

/// Settings for ``CentralHost/connect(to:options:)``.
///
/// Units (Core v5.4 Vol 4 Part E §7.8.12 and §7.8.66): scan interval and window 0.625 ms, connection interval
/// 1.25 ms (0x0006...0x0C80), latency in connection events, supervision timeout 10 ms (0x000A...0x0C80; it must
/// exceed (1 + latency) × interval_max × 2, Vol 6 Part B §4.5.2).
public struct ConnectOptions: Sendable, Hashable {
    /// LE_Scan_Interval while initiating, 0.625 ms units; default 0x0060 (60 ms).
    public var scanInterval: UInt16
    /// LE_Scan_Window while initiating, 0.625 ms units; default 0x0060 (60 ms, continuous).
    public var scanWindow: UInt16
    /// Connection_Interval_Min, 1.25 ms units; default 0x0018 (30 ms).
    public var intervalMin: UInt16
    /// Connection_Interval_Max, 1.25 ms units; default 0x0028 (50 ms).
    public var intervalMax: UInt16
    /// Max_Latency in connection events; default 0.
    public var latency: UInt16
    /// Supervision_Timeout in 10 ms units; default 0x01F4 (5 s).
    public var supervisionTimeout: UInt16
    /// The attempt ends with ``HostError/connectTimeout(_:)`` after this; nil waits until cancelled (as CoreBluetooth does).
    public var timeout: Duration?
    /// After connecting, ask for the largest data length (LE Set Data Length) when the controller supports it.
    public var requestDataLength: Bool
    /// After connecting, prefer LE 2M PHY (LE Set PHY) when the controller supports it.
    public var requestTwoMegabitPHY: Bool

    /// Makes the options with the defaults above and a 10 s timeout.
    public init(scanInterval: UInt16 = 0x0060, scanWindow: UInt16 = 0x0060, intervalMin: UInt16 = 0x0018,
                intervalMax: UInt16 = 0x0028, latency: UInt16 = 0, supervisionTimeout: UInt16 = 0x01F4,
                timeout: Duration? = .seconds(10), requestDataLength: Bool = true, requestTwoMegabitPHY: Bool = false) {
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
        self.timeout = timeout
        self.requestDataLength = requestDataLength
        self.requestTwoMegabitPHY = requestTwoMegabitPHY
    }
}
