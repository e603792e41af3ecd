// The Channel Map Update Indication AD type: a new channel map and the instant it takes effect.

/// The Channel Map Update Indication AD structure (Core Specification Supplement Part A §1.20).
///
/// Layout: ChM (5 octets, bit n = data channel n used, 37 bits) then Instant (2 octets, little-endian,
/// a connection event counter value).
public struct ChannelMapUpdateIndication: Hashable, Sendable {
    /// The 5-octet channel map as sent.
    public var channelMap: [UInt8]
    /// The instant (connection event counter) at which the map applies.
    public var instant: UInt16

    /// Makes the value.
    public init(channelMap: [UInt8], instant: UInt16) {
        self.channelMap = channelMap
        self.instant = instant
    }
}
