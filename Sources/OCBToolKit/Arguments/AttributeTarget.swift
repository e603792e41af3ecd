// The UUID|HANDLE operand of read, write and notify: a characteristic UUID or an attribute handle.

import OCBCore
import OCBATT

/// Which attribute a `read`, `write` or `notify` names.
///
/// A handle is written with a `0x` prefix and 1 to 4 hex digits ("0x000E"); anything else is read as a UUID
/// ("2A19", "0000180F", "6E400002-B5A3-F393-E0A9-E50E24DCCA9E"). Handle 0x0000 is invalid (Core v5.4 Vol 3 Part F §3.2.2).
public enum AttributeTarget: Hashable, Sendable, CustomStringConvertible {
    /// A characteristic (or descriptor) UUID; the first match in the database is used.
    case uuid(BluetoothUUID)
    /// An attribute handle (1...0xFFFF).
    case handle(AttributeHandle)

    /// Parses the operand; nil if it is neither form.
    public init?(_ text: String) {
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            let digits = text.dropFirst(2)
            guard (1...4).contains(digits.count), digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isHexDigit),
                  let handle = UInt16(digits, radix: 16), handle != 0 else { return nil }
            self = .handle(AttributeHandle(rawValue: handle))
        } else if let uuid = BluetoothUUID(text) {
            self = .uuid(uuid)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case let .uuid(uuid): uuid.description
        case let .handle(handle): GATTText.handle(handle)
        }
    }
}

/// The VALUE operand of `write`, as bytes.
public enum WriteValue {
    /// The bytes of `text` read as `encoding`: hex digits (separators and `0x` allowed, see `Hex.bytes`) or UTF-8;
    /// nil for malformed or empty hex.
    public static func bytes(_ text: String, encoding: ValueEncoding) -> [UInt8]? {
        switch encoding {
        case .hex:
            guard let bytes = Hex.bytes(text), !bytes.isEmpty else { return nil }
            return bytes
        case .text:
            return Array(text.utf8)
        }
    }
}
