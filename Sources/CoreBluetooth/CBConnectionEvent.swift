// Connection events and their matching options (Apple's iOS 13 connection-event API; never reported on Linux).
import Foundation

/// A connection event (Apple's `CBConnectionEvent`, iOS 13; raw values as in the SDK). Never reported on Linux.
public enum CBConnectionEvent: Int, Sendable {
    /// 0: a peer disconnected.
    case peerDisconnected = 0
    /// 1: a peer connected.
    case peerConnected = 1
}

/// A key of the options of `CBCentralManager.registerForConnectionEvents(options:)` (Apple's
/// `CBConnectionEventMatchingOption`, iOS 13, a string-backed typed key). Accepted and ignored on Linux: no
/// connection event is ever reported.
public struct CBConnectionEventMatchingOption: RawRepresentable, Hashable, Sendable {
    /// The key's text.
    public let rawValue: String

    /// Makes a key from its text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Makes a key from its text (the unlabelled form Swift gives string-backed typed keys).
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// `[CBUUID]`: match connected peers with any of these services (at most 4 on iOS).
    public static let serviceUUIDs = CBConnectionEventMatchingOption(rawValue: "kCBConnectionEventMatchingOptionServiceUUIDs")
    /// `[UUID]`: match connected peers with any of these peripheral identifiers.
    public static let peripheralUUIDs = CBConnectionEventMatchingOption(rawValue: "kCBConnectionEventMatchingOptionPeripheralUUIDs")
}
