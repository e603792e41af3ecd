// The strict replay: every packet the stack sends must be the recording's next host packet, byte for byte.

import OCBHCI

/// Plays a recording of this stack's own session back to it (sans-I/O: packets in, packets out).
///
/// The controller's packets before the first host packet are played at once (``opening()``); then each packet the
/// stack sends (``receive(_:)``) must equal the recording's next host-to-controller packet, after which the
/// controller's packets up to the following host packet are played. The first difference throws a
/// ``ReplayMismatch`` naming the packet, the record and the byte; the replay is then over (every later call throws the
/// same). Order is the recording's: a change in what the stack sends, or when, fails at the first packet it changes.
public struct StrictReplay: Sendable {
    private let records: [ReplayRecord]
    private var cursor = 0
    private var sent = 0
    private var failure: ReplayMismatch?

    /// A replay of `records` (``ReplayRecord/records(of:)``).
    public init(records: [ReplayRecord]) {
        self.records = records
    }

    /// The controller's packets the recording has before the host's first one.
    public mutating func opening() -> [ReplayRecord] {
        takeReceived()
    }

    /// The controller's packets that answer `packet`, or the mismatch (Throws ``ReplayMismatch``).
    public mutating func receive(_ packet: HCIPacket) throws(ReplayMismatch) -> [ReplayRecord] {
        if let failure { throw failure }
        sent += 1
        guard cursor < records.count else {
            let mismatch = ReplayMismatch(sentNumber: sent, recordNumber: nil, byteOffset: 0, expected: nil,
                                          actual: ReplayPacketText.describe(packet))
            failure = mismatch
            throw mismatch
        }
        let expected = records[cursor]
        if expected.packet != packet {
            let mismatch = ReplayMismatch(sentNumber: sent, recordNumber: expected.number,
                                          byteOffset: Self.firstDifference(expected.packet.h4Bytes, packet.h4Bytes),
                                          expected: ReplayPacketText.describe(expected.packet),
                                          actual: ReplayPacketText.describe(packet))
            failure = mismatch
            throw mismatch
        }
        cursor += 1
        return takeReceived()
    }

    /// The capture time of the recording's next host packet (what the stack is expected to send next); nil when none is left.
    public var nextHostTimestamp: Int64? { cursor < records.count ? records[cursor].timestamp : nil }

    /// The capture time of the recording's last record (0 for an empty one).
    public var lastTimestamp: Int64 { records.last?.timestamp ?? 0 }

    /// True once every record has been played or matched.
    public var isFinished: Bool { cursor >= records.count }

    /// The host packets the recording still expects.
    public var remainingHostPackets: Int { records[cursor...].lazy.filter { $0.direction == .sent }.count }

    /// The first index where `a` and `b` differ; the shorter length when one is a prefix of the other.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        for index in 0..<min(a.count, b.count) where a[index] != b[index] { return index }
        return min(a.count, b.count)
    }

    private mutating func takeReceived() -> [ReplayRecord] {
        var out: [ReplayRecord] = []
        while cursor < records.count, records[cursor].direction == .received {
            out.append(records[cursor])
            cursor += 1
        }
        return out
    }
}
