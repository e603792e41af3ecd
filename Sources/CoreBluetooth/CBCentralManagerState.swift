// CBCentralManagerState: the central manager's state type of iOS 5-9, kept deprecated as Apple's SDK keeps it.

/// The state of a central manager before iOS 10 (Apple's `CBCentralManagerState`; raw values equal to
/// ``CBManagerState``'s). `CBCentralManager.state` is a `CBManagerState` here as on iOS 10+; convert with
/// `CBCentralManagerState(rawValue: central.state.rawValue)`.
@available(*, deprecated, message: "Use CBManagerState instead")
public enum CBCentralManagerState: Int, Sendable {
    /// 0: the state is not known yet.
    case unknown = 0
    /// 1: the connection with the system service was lost.
    case resetting = 1
    /// 2: the platform has no Bluetooth Low Energy central role.
    case unsupported = 2
    /// 3: the app is not allowed to use Bluetooth Low Energy.
    case unauthorized = 3
    /// 4: Bluetooth is off.
    case poweredOff = 4
    /// 5: Bluetooth is on and ready.
    case poweredOn = 5
}
