// What the consumer of a framed packet asks of the H4 framer next: the next packet, stop, or pass over a run of advertising reports unread.

/// The answer of ``H4Decoder/frames(in:passingOver:stepping:)``'s body for the packet it was handed.
public enum H4FrameStep {
    /// Hand over the next packet.
    case next
    /// Stop: the bytes after this packet are kept for the next call, as ``H4Decoder/push(_:)`` would keep them.
    case stop
    /// Pass over, without handing them over, the legacy advertising report events that follow this packet in the
    /// chunk (``HCIEvent/isLegacyAdvertisingReport(_:)-(ArraySlice<UInt8>)``: LE Advertising Report, LE Directed
    /// Advertising Report, or an LE Extended Advertising Report whose every report has the legacy bit; Core v5.4
    /// Vol 4 Part E §7.7.65.2, .11, .13), up to the first other packet, the first one not wholly in the chunk, the
    /// chunk's end, or the moment `keepPassing` turns false (asked before the first report passed over and before
    /// every ``H4Decoder/passingCheckInterval``-th after it: the consumer's way to end the run when something it must
    /// do comes up, such as an app's request); the framer counts them. A host shedding reports while an answer waits
    /// behind them asks this, so a backlog is passed over at the cost of reading its H4 length fields, with no call
    /// per report.
    case skipLegacyAdvertisingReports(while: () -> Bool)

    /// True for ``stop``.
    var isStop: Bool {
        if case .stop = self { return true }
        return false
    }
}
