// The power and authorization states a CBManager reports, with Apple's raw values.
import Foundation

/// The state of a Core Bluetooth manager (Apple's `CBManagerState`, iOS 10+; raw values as in the SDK).
///
/// On Linux the state comes from the transport: controller up and reset → `.poweredOn`; no Bluetooth in the
/// kernel or no such controller → `.unsupported`; missing capabilities (CAP_NET_ADMIN/CAP_NET_RAW) → `.unauthorized`;
/// controller powered off or unplugged → `.poweredOff`; HCI reset in progress → `.resetting`.
public enum CBManagerState: Int, Sendable, CustomStringConvertible {
    /// 0: the state is not known yet; an update follows.
    case unknown = 0
    /// 1: the connection with the controller was lost and is being set up again.
    case resetting = 1
    /// 2: the platform has no Bluetooth Low Energy central role.
    case unsupported = 2
    /// 3: the process is not allowed to use Bluetooth.
    case unauthorized = 3
    /// 4: Bluetooth is off.
    case poweredOff = 4
    /// 5: Bluetooth is on and ready.
    case poweredOn = 5

    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .resetting: "resetting"
        case .unsupported: "unsupported"
        case .unauthorized: "unauthorized"
        case .poweredOff: "poweredOff"
        case .poweredOn: "poweredOn"
        }
    }
}

/// Whether the app may use Bluetooth (Apple's `CBManagerAuthorization`, iOS 13+; raw values as in the SDK).
///
/// Linux has no per-app permission prompt: `CBManager.authorization` is always `.allowedAlways`; missing
/// capabilities (CAP_NET_ADMIN/CAP_NET_RAW) show as the manager state `.unauthorized` instead. The deprecated
/// instance property (iOS 13.0) reads `.denied` while the state is `.unauthorized`.
public enum CBManagerAuthorization: Int, Sendable {
    /// 0: the user has not chosen yet.
    case notDetermined = 0
    /// 1: restricted by policy.
    case restricted = 1
    /// 2: refused.
    case denied = 2
    /// 3: allowed at any time.
    case allowedAlways = 3
}
