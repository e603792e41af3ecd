// What was wrong with a response that does not fit the procedure that asked for it.
import OCBATT

/// A response a procedure could not use: which response and what was wrong with it
/// (e.g. a characteristic declaration value of 7 bytes, a handle of 0x0000, a Read Multiple
/// Variable length that runs past the PDU). Carried by ``GATTError/malformed(_:)``.
public struct GATTMalformedResponse: Error, Hashable, Sendable, CustomStringConvertible {
    /// The ATT response it came in, by its spec name (e.g. "Read By Type Response").
    public var response: String
    /// What was wrong, with the offending handle or length.
    public var reason: String

    /// Makes the description of a malformed response.
    public init(response: String, reason: String) {
        self.response = response
        self.reason = reason
    }

    /// The response an ATT decoding error is about: its PDU's spec name and what is wrong (``ATTDecodingError/detail``).
    public init(_ error: ATTDecodingError) {
        self.init(response: error.opcode.description, reason: error.detail)
    }

    public var description: String { "malformed \(response): \(reason)" }
}
