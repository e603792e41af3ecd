// The HCI command protocol: an opcode, encoded parameters, and a decoder for the return parameters.

import OCBCore

/// An HCI command the host sends (Core v5.4 Vol 4 Part E §5.4.1, §7).
///
/// A command is its ``opcode`` and its encoded ``parameters``; ``packet`` frames them as
/// `Opcode (2, LE) | Parameter_Total_Length (1) | parameters`. Commands that finish with Command Complete
/// decode their return parameters with ``decodeReturnParameters(_:)``, which receives the bytes
/// **after** the Status byte (the caller checks Status first: a non-zero Status fails the command and
/// the rest is not decoded). Commands answered by Command Status, or whose only return parameter
/// is Status, use `Void`.
public protocol HCICommand: Sendable {
    /// The return parameters after Status, decoded.
    associatedtype ReturnParameters: Sendable = Void
    /// The command's opcode.
    static var opcode: HCIOpcode { get }
    /// The encoded command parameters (without opcode and length), at most 255 bytes.
    var parameters: [UInt8] { get }
    /// Decodes the return parameters that follow Status in Command Complete.
    /// Throws ``HCIEventDecodingError`` (offset from the first byte after Status) when they are short.
    static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) -> ReturnParameters
}

extension HCICommand where ReturnParameters == Void {
    /// Nothing follows Status; extra bytes are ignored (a later spec version may add some).
    public static func decodeReturnParameters(_ bytes: [UInt8]) throws(HCIEventDecodingError) {}
}

extension HCICommand {
    /// The command's opcode (instance access).
    public var opcode: HCIOpcode { Self.opcode }

    /// The whole command packet: `Opcode (2, LE) | Parameter_Total_Length (1) | parameters`
    /// (Vol 4 Part E §5.4.1). Parameters longer than 255 bytes are cut to 255 (no command here comes close).
    public var packet: HCIPacket {
        let body = parameters.prefix(255)
        var writer = ByteWriter(capacity: 3 + body.count)
        writer.write(Self.opcode.rawValue)
        writer.write(UInt8(body.count))
        writer.write(contentsOf: body)
        return HCIPacket(type: .command, bytes: writer.bytes)
    }
}

/// A command given only by opcode and raw parameters (e.g. a vendor command); its return parameters are kept as bytes.
public struct HCIRawCommand: Hashable, Sendable {
    /// The opcode.
    public var opcode: HCIOpcode
    /// The parameter bytes, at most 255.
    public var parameters: [UInt8]

    /// Makes the command.
    public init(opcode: HCIOpcode, parameters: [UInt8] = []) {
        self.opcode = opcode
        self.parameters = parameters
    }

    /// The command packet (Vol 4 Part E §5.4.1).
    public var packet: HCIPacket {
        let body = parameters.prefix(255)
        return HCIPacket(type: .command, bytes: [UInt8(truncatingIfNeeded: opcode.rawValue), UInt8(truncatingIfNeeded: opcode.rawValue >> 8), UInt8(body.count)] + body)
    }

    /// Decodes an HCI command packet's bytes (without indicator): opcode, length, parameters.
    /// Throws ``HCIEventDecodingError`` (event "HCI Command") when shorter than the length announces.
    public init(bytes: [UInt8]) throws(HCIEventDecodingError) {
        var reader = FieldReader(bytes, event: "HCI Command")
        opcode = HCIOpcode(rawValue: try reader.u16("Opcode"))
        let length = Int(try reader.u8("Parameter_Total_Length"))
        parameters = try reader.bytes(length, "Parameters")
    }
}
