// The identifier the ATT bearer gives each request so its result can be matched.

/// Names one request queued on an ``ATTBearer``; its ``ATTBearerEvent/requestCompleted(_:_:)`` carries the same id.
///
/// Ids count up from 1 per bearer and are never reused.
public struct ATTRequestID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The sequence number.
    public let rawValue: UInt64

    /// Wraps a sequence number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: ATTRequestID, rhs: ATTRequestID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "request #\(rawValue)" }
}
