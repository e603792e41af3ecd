// The typed error of H4 framing: a byte where a packet indicator should be that is not one.

/// A framing failure while splitting an H4 byte stream into packets (Core v5.4 Vol 4 Part A §2).
///
/// H4 has no synchronisation pattern: the only way to find the next packet is to trust the
/// length of the previous one. Once an indicator byte is not one of 0x01...0x05 every later byte
/// is of unknown meaning, so the stream cannot be resynchronised; the transport must be closed
/// (and the controller reset) after this error.
public enum H4Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// The byte `byte`, found at `offset` (counted from the first byte ever pushed into the decoder)
    /// where a packet indicator was expected, is not 0x01 (command), 0x02 (ACL), 0x03 (SCO),
    /// 0x04 (event) or 0x05 (ISO).
    case badPacketIndicator(UInt8, offset: Int)

    public var description: String {
        switch self {
        case let .badPacketIndicator(byte, offset):
            let hex = String(byte, radix: 16)
            return "H4: bad packet indicator 0x\(hex.count == 1 ? "0" + hex : hex) at stream offset \(offset); the stream cannot be resynchronised"
        }
    }
}
