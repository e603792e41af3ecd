// Command Complete and Command Status events, and the error a command ends with.

/// The HCI Command Complete event, code 0x0E (Core v5.4 Vol 4 Part E §7.7.14).
///
/// Layout: Num_HCI_Command_Packets (1), Command_Opcode (2), Return_Parameters (the rest; for every command
/// this stack sends, Status first). Opcode 0x0000 only returns command credits and may carry no return
/// parameters at all.
public struct HCICommandCompleteEvent: Hashable, Sendable {
    /// Num_HCI_Command_Packets: how many commands the host may now send.
    public var numHCICommandPackets: UInt8
    /// Command_Opcode: the command this completes (0x0000: none, credits only).
    public var opcode: HCIOpcode
    /// Return_Parameters, every byte, Status included.
    public var returnParameters: [UInt8]

    /// Makes the event.
    public init(numHCICommandPackets: UInt8, opcode: HCIOpcode, returnParameters: [UInt8]) {
        self.numHCICommandPackets = numHCICommandPackets
        self.opcode = opcode
        self.returnParameters = returnParameters
    }

    /// The first return parameter as a Status, or nil when there are no return parameters.
    public var status: HCIErrorCode? { returnParameters.first.map { HCIErrorCode(rawValue: $0) } }

    /// The return parameters after Status (empty when there are none).
    public var parametersAfterStatus: [UInt8] { Array(returnParameters.dropFirst()) }

    /// The decoded return parameters of command type `C`. Throws ``HCICommandError/failed(_:)`` for a non-zero
    /// Status, ``HCICommandError/malformed(_:)`` when Status is missing or the parameters are short, and
    /// ``HCICommandError/unexpectedOpcode(_:)`` when this event is for another command.
    public func returnParameters<C: HCICommand>(of type: C.Type) throws(HCICommandError) -> C.ReturnParameters {
        guard opcode == C.opcode else { throw .unexpectedOpcode(opcode) }
        guard let status else {
            throw .malformed(HCIEventDecodingError(event: "Command Complete (\(opcode.name))", field: "Status", offset: 3, reason: "no return parameters"))
        }
        guard status.isSuccess else { throw .failed(status) }
        do { return try C.decodeReturnParameters(parametersAfterStatus) } catch { throw .malformed(error) }
    }

    static func decode(_ parameters: [UInt8]) throws(HCIEventDecodingError) -> HCICommandCompleteEvent {
        var reader = FieldReader(parameters, event: "Command Complete")
        return HCICommandCompleteEvent(numHCICommandPackets: try reader.u8("Num_HCI_Command_Packets"),
                                       opcode: HCIOpcode(rawValue: try reader.u16("Command_Opcode")),
                                       returnParameters: reader.rest())
    }
}

/// The HCI Command Status event, code 0x0F (Core v5.4 Vol 4 Part E §7.7.15).
///
/// Layout: Status (1), Num_HCI_Command_Packets (1), Command_Opcode (2). Status 0x00 means the command was accepted
/// and a later event completes it; any other Status means it failed.
public struct HCICommandStatusEvent: Hashable, Sendable {
    /// Status: 0x00 pending, else the failure.
    public var status: HCIErrorCode
    /// Num_HCI_Command_Packets.
    public var numHCICommandPackets: UInt8
    /// Command_Opcode (0x0000: none, credits only).
    public var opcode: HCIOpcode

    /// Makes the event.
    public init(status: HCIErrorCode, numHCICommandPackets: UInt8, opcode: HCIOpcode) {
        self.status = status
        self.numHCICommandPackets = numHCICommandPackets
        self.opcode = opcode
    }

    static func decode(_ parameters: [UInt8]) throws(HCIEventDecodingError) -> HCICommandStatusEvent {
        var reader = FieldReader(parameters, event: "Command Status")
        return HCICommandStatusEvent(status: try reader.status(), numHCICommandPackets: try reader.u8("Num_HCI_Command_Packets"),
                                     opcode: HCIOpcode(rawValue: try reader.u16("Command_Opcode")))
    }
}

/// How a command failed.
public enum HCICommandError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The controller answered with a non-zero Status (Command Complete or Command Status).
    case failed(HCIErrorCode)
    /// The completion's return parameters did not fit the command's layout.
    case malformed(HCIEventDecodingError)
    /// No Command Complete or Command Status came within the timeout.
    case timedOut(HCIOpcode)
    /// The Command Complete given is for another opcode.
    case unexpectedOpcode(HCIOpcode)

    public var description: String {
        switch self {
        case .failed(let code): "command failed: \(code)"
        case .malformed(let error): "malformed return parameters: \(error)"
        case .timedOut(let opcode): "no answer to \(opcode) within the command timeout"
        case .unexpectedOpcode(let opcode): "completion is for another command (\(opcode))"
        }
    }
}
