// One signaling command as carried in a C-frame: code, identifier, length and data.

import OCBCore

/// A signaling command (Core v5.4 Vol 3 Part A §4, Figure 4.3).
///
/// Layout (little-endian): Code (1 byte), Identifier (1 byte, 0x01...0xFF; 0x00 is never valid),
/// Length (2 bytes, the data length), Data. On the LE signaling channel each C-frame carries exactly one command.
public struct L2CAPSignalingCommand: Hashable, Sendable {
    /// The command code.
    public var code: L2CAPSignalingCode
    /// The identifier matching a response to its request.
    public var identifier: UInt8
    /// The command's data field.
    public var data: [UInt8]

    /// Makes a command.
    public init(code: L2CAPSignalingCode, identifier: UInt8, data: [UInt8]) {
        self.code = code
        self.identifier = identifier
        self.data = data
    }

    /// Decodes a C-frame payload. Throws ``L2CAPSignalingDecodingError`` when it is shorter than the
    /// 4-byte command header or when the Length field disagrees with the bytes that follow.
    public init(bytes: [UInt8]) throws(L2CAPSignalingDecodingError) {
        var reader = ByteReader(bytes)
        let length: Int
        do throws(ByteReaderError) {
            code = L2CAPSignalingCode(rawValue: try reader.readUInt8())
            identifier = try reader.readUInt8()
            length = Int(try reader.readUInt16())
        } catch {
            throw .truncated(length: bytes.count)
        }
        guard length == reader.remaining else {
            throw .lengthMismatch(announced: length, actual: reader.remaining)
        }
        data = reader.readRemaining()
    }

    /// The command's bytes (the C-frame payload). Data longer than 65535 bytes is cut to the Length field's range.
    public var bytes: [UInt8] {
        let body = data.prefix(65535)
        var writer = ByteWriter(capacity: 4 + body.count)
        writer.write(code.rawValue)
        writer.write(identifier)
        writer.write(UInt16(truncatingIfNeeded: body.count))
        writer.write(contentsOf: body)
        return writer.bytes
    }
}

/// A C-frame payload that is not a well-formed signaling command (Core v5.4 Vol 3 Part A §4).
public enum L2CAPSignalingDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C-frame payload was `length` bytes, shorter than the 4-byte command header.
    case truncated(length: Int)
    /// The Length field announced `announced` data bytes but `actual` followed.
    case lengthMismatch(announced: Int, actual: Int)

    public var description: String {
        switch self {
        case .truncated(let length): "signaling command of \(length) bytes, shorter than its 4-byte header"
        case .lengthMismatch(let announced, let actual): "signaling command Length \(announced) but \(actual) data bytes follow"
        }
    }
}
