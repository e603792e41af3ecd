// The connection states of a peripheral, with Apple's raw values.

/// The connection state of a `CBPeripheral` (Apple's `CBPeripheralState`; raw values as in the SDK).
public enum CBPeripheralState: Int, Sendable, CustomStringConvertible {
    /// 0: not connected.
    case disconnected = 0
    /// 1: `connect(_:options:)` was called; the connection is pending (it never times out by itself).
    case connecting = 1
    /// 2: connected.
    case connected = 2
    /// 3: `cancelPeripheralConnection(_:)` was called; the link is being closed.
    case disconnecting = 3

    public var description: String {
        switch self {
        case .disconnected: "disconnected"
        case .connecting: "connecting"
        case .connected: "connected"
        case .disconnecting: "disconnecting"
        }
    }
}
