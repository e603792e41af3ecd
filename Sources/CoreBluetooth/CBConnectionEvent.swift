// Connection events and their matching options (Apple's iOS 13 connection-event API).
import Foundation

/// A connection event (Apple's `CBConnectionEvent`).
public enum CBConnectionEvent: Int, Sendable {
    /// 0: a peer disconnected.
    case peerDisconnected = 0
    /// 1: a peer connected.
    case peerConnected = 1
}

/// Option for `registerForConnectionEvents(options:)`: an array of `CBUUID` services to match.
public let CBConnectionEventMatchingOptionServiceUUIDs: String = "kCBConnectionEventMatchingOptionServiceUUIDs"
/// Option for `registerForConnectionEvents(options:)`: an array of `UUID` peripheral identifiers to match.
public let CBConnectionEventMatchingOptionPeripheralUUIDs: String = "kCBConnectionEventMatchingOptionPeripheralUUIDs"
