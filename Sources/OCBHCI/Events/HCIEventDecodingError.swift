// The typed error for a malformed event or malformed return parameters: which event, which field, where.

import OCBCore

/// A known HCI event (or a command's return parameters) whose bytes do not fit its layout.
///
/// `offset` counts from the start of the event's parameters (the byte after Parameter_Total_Length),
/// or from the first return parameter for ``HCICommand/decodeReturnParameters(_:)``. Unknown and vendor
/// events never produce this error; they are kept raw (Core v5.4 Vol 4 Part E §7.7).
public struct HCIEventDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The event or command name, e.g. "LE Extended Advertising Report".
    public let event: String
    /// The field being read, e.g. "Data_Length[1]".
    public let field: String
    /// Byte offset of the field within the parameters.
    public let offset: Int
    /// What went wrong, e.g. "needed 6 byte(s), 2 available".
    public let reason: String

    /// Makes the error.
    public init(event: String, field: String, offset: Int, reason: String) {
        self.event = event
        self.field = field
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "\(event): \(field) at offset \(offset): \(reason)" }
}

/// A ByteReader wrapper that turns short reads into ``HCIEventDecodingError`` naming the field. Field names are
/// built only when a read fails (an advertising report names six fields; building them per report cost more than
/// the report's decoding).
struct FieldReader {
    var reader: ByteReader
    var event: String

    init(_ bytes: [UInt8], event: String) {
        reader = ByteReader(bytes)
        self.event = event
    }

    var offset: Int { reader.offset }
    var remaining: Int { reader.remaining }
    var isAtEnd: Bool { reader.isAtEnd }

    func error(_ field: String, _ reason: String, at offset: Int? = nil) -> HCIEventDecodingError {
        HCIEventDecodingError(event: event, field: field, offset: offset ?? reader.offset, reason: reason)
    }

    private func wrap(_ field: () -> String, _ error: ByteReaderError) -> HCIEventDecodingError {
        HCIEventDecodingError(event: event, field: field(), offset: error.offset,
                              reason: "needed \(error.needed) byte(s), \(error.available) available")
    }

    mutating func u8(_ field: @autoclosure () -> String) throws(HCIEventDecodingError) -> UInt8 {
        do { return try reader.readUInt8() } catch { throw wrap(field, error) }
    }
    mutating func i8(_ field: @autoclosure () -> String) throws(HCIEventDecodingError) -> Int8 {
        do { return try reader.readInt8() } catch { throw wrap(field, error) }
    }
    mutating func u16(_ field: @autoclosure () -> String) throws(HCIEventDecodingError) -> UInt16 {
        do { return try reader.readUInt16() } catch { throw wrap(field, error) }
    }
    mutating func u24(_ field: @autoclosure () -> String) throws(HCIEventDecodingError) -> UInt32 {
        do { return try reader.readUInt24() } catch { throw wrap(field, error) }
    }
    mutating func u32(_ field: @autoclosure () -> String) throws(HCIEventDecodingError) -> UInt32 {
        do { return try reader.readUInt32() } catch { throw wrap(field, error) }
    }
    mutating func u64(_ field: @autoclosure () -> String) throws(HCIEventDecodingError) -> UInt64 {
        do { return try reader.readUInt64() } catch { throw wrap(field, error) }
    }
    mutating func bytes(_ count: Int, _ field: @autoclosure () -> String) throws(HCIEventDecodingError) -> [UInt8] {
        do { return try reader.readBytes(count) } catch { throw wrap(field, error) }
    }
    mutating func address(_ field: @autoclosure () -> String) throws(HCIEventDecodingError) -> BluetoothAddress {
        do { return try reader.readAddress() } catch { throw wrap(field, error) }
    }
    mutating func status(_ field: @autoclosure () -> String = "Status") throws(HCIEventDecodingError) -> HCIErrorCode {
        HCIErrorCode(rawValue: try u8(field()))
    }
    mutating func handle(_ field: @autoclosure () -> String = "Connection_Handle") throws(HCIEventDecodingError) -> ConnectionHandle {
        ConnectionHandle(field: try u16(field()))
    }
    mutating func rest() -> [UInt8] { reader.readRemaining() }
}
