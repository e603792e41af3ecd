// The LE signaling channel (CID 0x0005) of one connection, as the central sees it: answers, rejects and our own requests.

import OCBCore

/// The central's side of the LE signaling channel of one connection (Core v5.4 Vol 3 Part A §4), sans-I/O.
///
/// Feed each C-frame payload to ``receive(_:)``; send every ``L2CAPSignalingEvent/send(_:)`` on CID 0x0005.
/// Behaviour:
/// - L2CAP_CONNECTION_PARAMETER_UPDATE_REQ (0x12): answered with result 0x0000 (accepted) when
///   ``L2CAPConnectionParameters/isValid``, followed by ``L2CAPSignalingEvent/connectionParameterUpdateAccepted(_:)``
///   for the host to issue LE Connection Update; otherwise result 0x0001 (rejected). A data field that is not
///   8 bytes gets Command Reject (Command not understood).
/// - L2CAP_LE_CREDIT_BASED_CONNECTION_REQ (0x14): answered with L2CAP_LE_CREDIT_BASED_CONNECTION_RSP, result 0x0002
///   (SPSM not supported), DCID/MTU/MPS/credits 0. L2CAP_CREDIT_BASED_CONNECTION_REQ (0x17): answered with result
///   0x0002 (all connections refused, SPSM not supported) and a zero Destination CID per requested channel.
///   These are answered rather than rejected because they are valid LE requests that this stack declines.
/// - L2CAP_DISCONNECTION_REQ (0x06): no dynamic channel exists, so Command Reject with Invalid CID in request
///   (data: the request's DCID as our local CID, its SCID as the remote CID).
/// - Any other non-response code: Command Reject, Command not understood. A malformed command whose identifier
///   is readable is rejected the same way. Nothing the peer asks is met with silence.
/// - Responses (Command Reject included) are matched to our outstanding requests by identifier and reported;
///   an unmatched response is dropped with a diagnostic, never answered. Identifier 0x00 is dropped.
public struct L2CAPLESignalingChannel: Sendable {
    private var nextIdentifier: UInt8 = 1
    private var outstanding: [UInt8: L2CAPSignalingCode] = [:]

    /// Makes the channel with no outstanding requests.
    public init() {}

    /// Identifiers of our requests that are still unanswered, with their codes.
    public var outstandingRequests: [UInt8: L2CAPSignalingCode] { outstanding }

    /// Makes one of our own requests with a fresh identifier (0x01...0xFF, skipping identifiers still
    /// outstanding) and records it so its response or Command Reject is matched; send the returned command.
    public mutating func makeRequest(code: L2CAPSignalingCode, data: [UInt8]) -> L2CAPSignalingCommand {
        var identifier = nextIdentifier
        for _ in 0..<255 where outstanding[identifier] != nil {
            identifier = identifier == 0xFF ? 1 : identifier + 1
        }
        nextIdentifier = identifier == 0xFF ? 1 : identifier + 1
        outstanding[identifier] = code
        return L2CAPSignalingCommand(code: code, identifier: identifier, data: data)
    }

    /// Handles one C-frame payload received on CID 0x0005; returns what to send and report, in order.
    public mutating func receive(_ payload: [UInt8]) -> [L2CAPSignalingEvent] {
        let command: L2CAPSignalingCommand
        do {
            command = try L2CAPSignalingCommand(bytes: payload)
        } catch {
            var events: [L2CAPSignalingEvent] = [.diagnostic(.malformedCommand(error, bytes: payload))]
            if payload.count >= 2, payload[1] != 0, !L2CAPSignalingCode(rawValue: payload[0]).isResponse {
                events.append(contentsOf: reject(L2CAPSignalingCode(rawValue: payload[0]), identifier: payload[1], reason: .commandNotUnderstood))
            }
            return events
        }
        guard command.identifier != 0 else { return [.diagnostic(.invalidIdentifier(command.code))] }
        if command.code.isResponse { return receiveResponse(command) }
        switch command.code {
        case .connectionParameterUpdateRequest:
            guard let parameters = L2CAPConnectionParameters(bytes: command.data) else {
                return reject(command.code, identifier: command.identifier, reason: .commandNotUnderstood)
            }
            let accepted = parameters.isValid
            let response = L2CAPSignalingCommand(code: .connectionParameterUpdateResponse, identifier: command.identifier,
                                                 data: accepted ? [0x00, 0x00] : [0x01, 0x00])
            return [.send(response), accepted ? .connectionParameterUpdateAccepted(parameters) : .connectionParameterUpdateRejected(parameters)]
        case .leCreditBasedConnectionRequest:
            guard command.data.count == 10 else { return reject(command.code, identifier: command.identifier, reason: .commandNotUnderstood) }
            let spsm = UInt16(command.data[0]) | UInt16(command.data[1]) << 8
            // DCID, MTU, MPS, Initial Credits all 0; Result 0x0002 SPSM not supported (§4.23).
            let response = L2CAPSignalingCommand(code: .leCreditBasedConnectionResponse, identifier: command.identifier,
                                                 data: [0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x00])
            return [.send(response), .diagnostic(.refusedCreditBasedConnection(command.code, spsm: spsm))]
        case .creditBasedConnectionRequest:
            let sourceCIDBytes = command.data.count - 8
            guard sourceCIDBytes >= 2, sourceCIDBytes <= 10, sourceCIDBytes % 2 == 0 else {
                return reject(command.code, identifier: command.identifier, reason: .commandNotUnderstood)
            }
            let spsm = UInt16(command.data[0]) | UInt16(command.data[1]) << 8
            // MTU, MPS, Initial Credits 0; Result 0x0002; one zero Destination CID per requested channel (§4.26).
            let data: [UInt8] = [0, 0, 0, 0, 0, 0, 0x02, 0x00] + [UInt8](repeating: 0, count: sourceCIDBytes)
            let response = L2CAPSignalingCommand(code: .creditBasedConnectionResponse, identifier: command.identifier, data: data)
            return [.send(response), .diagnostic(.refusedCreditBasedConnection(command.code, spsm: spsm))]
        case .disconnectionRequest where command.data.count == 4:
            // Local CID first (the request's DCID), then the remote CID (its SCID), §4.1.
            return reject(command.code, identifier: command.identifier, reason: .invalidCIDInRequest, data: command.data)
        default:
            return reject(command.code, identifier: command.identifier, reason: .commandNotUnderstood)
        }
    }

    private mutating func receiveResponse(_ command: L2CAPSignalingCommand) -> [L2CAPSignalingEvent] {
        guard let request = outstanding.removeValue(forKey: command.identifier) else {
            return [.diagnostic(.unmatchedResponse(command))]
        }
        if command.code == .commandReject {
            var reader = ByteReader(command.data)
            let reason = L2CAPCommandRejectReason(rawValue: (try? reader.readUInt16()) ?? 0)
            return [.requestRejected(request: request, identifier: command.identifier, reason: reason, data: reader.readRemaining())]
        }
        return [.response(request: request, command: command)]
    }

    private func reject(_ code: L2CAPSignalingCode, identifier: UInt8, reason: L2CAPCommandRejectReason, data: [UInt8] = []) -> [L2CAPSignalingEvent] {
        var writer = ByteWriter(capacity: 2 + data.count)
        writer.write(reason.rawValue)
        writer.write(contentsOf: data)
        let rejection = L2CAPSignalingCommand(code: .commandReject, identifier: identifier, data: writer.bytes)
        return [.send(rejection), .diagnostic(.rejected(code, identifier: identifier, reason: reason))]
    }
}
