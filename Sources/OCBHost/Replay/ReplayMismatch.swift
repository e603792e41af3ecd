// Why a strict replay stopped: the stack sent a packet the recording does not have at that point.

/// The first difference between what the stack sent and what the recording holds (``StrictReplay``).
///
/// `sentNumber` counts the stack's packets from 1; `recordNumber` is the capture record expected there (tshark's frame
/// number), nil when the recording had no more host packets; `byteOffset` indexes the H4 form (0 is the packet
/// indicator); the two packets are decoded one line each (``ReplayPacketText``). The description is one line.
public struct ReplayMismatch: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which packet of the stack's differs, from 1.
    public var sentNumber: Int
    /// The record of the capture expected instead, from 1; nil when the recording has no host packet left.
    public var recordNumber: Int?
    /// The first differing byte in the H4 form (indicator at 0); the shorter packet's length when one is a prefix.
    public var byteOffset: Int
    /// The recorded packet, decoded; nil when the recording has none left.
    public var expected: String?
    /// The packet the stack sent, decoded.
    public var actual: String

    /// Makes a mismatch from its parts.
    public init(sentNumber: Int, recordNumber: Int?, byteOffset: Int, expected: String?, actual: String) {
        self.sentNumber = sentNumber
        self.recordNumber = recordNumber
        self.byteOffset = byteOffset
        self.expected = expected
        self.actual = actual
    }

    public var description: String {
        guard let recordNumber, let expected else {
            return "replay: the stack's packet \(sentNumber) is past the end of the recording (no host packet left); sent \(actual)"
        }
        return "replay: the stack's packet \(sentNumber) differs from record \(recordNumber) of the recording at byte \(byteOffset): "
            + "recorded \(expected); sent \(actual)"
    }
}
