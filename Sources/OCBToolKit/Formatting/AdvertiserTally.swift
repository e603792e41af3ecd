// The distinct advertisers a scan heard and how many of them were connectable, for its summary: bounded.

import OCBCore

/// Counts the distinct advertisers of a scan (the last connectability seen of each) for `cbtool scan`'s summary
/// line. Fed from the air, so bounded: at most ``limit`` advertisers are remembered; past that, new ones are not
/// counted and ``isCapped`` says the count is a lower bound ("at least").
///
/// An advertiser named by its address (`AA:BB:CC:DD:EE:FF`, the text of ``OCBCore/BluetoothAddress``) is kept as
/// the address's 48 bits, 9 bytes of table a bucket (about 1.2 MB at the bound); any other name (a peripheral
/// identifier's UUID) as its text.
public struct AdvertiserTally: Sendable {
    /// The most distinct advertisers remembered.
    public static let limit = 65_536

    private var byAddress: [UInt64: Bool] = [:]
    private var byName: [String: Bool] = [:]
    /// True once an advertiser beyond ``limit`` was heard: ``count`` is then "at least".
    public private(set) var isCapped = false

    /// An empty tally.
    public init() {}

    /// Notes one report of the advertiser named `address` (its address's text form, or another name) and whether
    /// that PDU was connectable.
    public mutating func note(_ address: String, isConnectable: Bool) {
        let hasRoom = count < Self.limit
        if let bits = BluetoothAddress(address)?.value {
            if hasRoom || byAddress[bits] != nil { byAddress[bits] = isConnectable } else { isCapped = true }
        } else {
            if hasRoom || byName[address] != nil { byName[address] = isConnectable } else { isCapped = true }
        }
    }

    /// Distinct advertisers counted (at most ``limit``).
    public var count: Int { byAddress.count + byName.count }
    /// Of those, the ones whose last report was connectable.
    public var connectableCount: Int {
        byAddress.values.lazy.filter { $0 }.count + byName.values.lazy.filter { $0 }.count
    }
}
