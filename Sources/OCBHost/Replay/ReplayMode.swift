// How a replay matches what the stack sends against the recording: byte for byte, or by kind.

/// The two ways of playing a recording (``ReplayTransport``).
public enum ReplayMode: String, Hashable, Sendable, CustomStringConvertible {
    /// Every host packet must equal the recording's next one (``StrictReplay``): for recordings of this stack.
    case strict
    /// Packets are answered by kind (``TolerantReplay``): for recordings made by other stacks (a phone's btsnoop,
    /// btmon, an older version of this one).
    case tolerant

    public var description: String { rawValue }
}
