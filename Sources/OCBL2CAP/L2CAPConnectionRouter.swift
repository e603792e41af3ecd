// Dispatches one LE connection's basic frames to ATT, LE signaling and SMP.

import OCBHCI

/// Routes the basic frames of one LE connection to its fixed channels (Core v5.4 Vol 3 Part A §2.1), sans-I/O.
///
/// - CID 0x0004 (ATT): handed up as ``L2CAPRouterEvent/attributeProtocol(_:)``.
/// - CID 0x0005 (LE signaling): handled by an ``L2CAPLESignalingChannel``; its answers come out as
///   ``L2CAPRouterEvent/send(_:)`` frames, accepted parameter updates as ``L2CAPRouterEvent/connectionParameterUpdate(_:)``.
/// - CID 0x0006 (SMP): handed up as ``L2CAPRouterEvent/securityManager(_:)`` when ``securityManagerAttached``;
///   otherwise a Pairing Request (0x01) or Security Request (0x0B) is answered with Pairing Failed (0x05),
///   reason 0x05 Pairing Not Supported (Vol 3 Part H §3.5.5, §2.4.6), and other SMP commands are dropped with a
///   diagnostic (they are only meaningful inside a pairing, and none can be in progress).
/// - Any other CID: dropped with a diagnostic.
public struct L2CAPConnectionRouter: Sendable {
    /// The connection handle this router serves.
    public let handle: ConnectionHandle
    /// When true, SMP commands are handed up instead of answered with Pairing Failed.
    public var securityManagerAttached: Bool
    /// The connection's LE signaling channel (also used to make our own signaling requests).
    public var signaling: L2CAPLESignalingChannel

    /// SMP Pairing Request code (Vol 3 Part H §3.5.1).
    static let smpPairingRequest: UInt8 = 0x01
    /// SMP Pairing Failed code (Vol 3 Part H §3.5.5).
    static let smpPairingFailed: UInt8 = 0x05
    /// SMP Security Request code (Vol 3 Part H §3.6.7).
    static let smpSecurityRequest: UInt8 = 0x0B
    /// Pairing Failed reason 0x05, Pairing Not Supported (Vol 3 Part H §3.5.5, Table 3.7).
    static let pairingNotSupported: UInt8 = 0x05

    /// Makes the router of connection `handle`.
    public init(handle: ConnectionHandle, securityManagerAttached: Bool = false) {
        self.handle = handle
        self.securityManagerAttached = securityManagerAttached
        self.signaling = L2CAPLESignalingChannel()
    }

    /// Routes one received frame; returns what to hand up, send and report, in order.
    public mutating func receive(_ frame: L2CAPBasicFrame) -> [L2CAPRouterEvent] {
        guard frame.handle == handle else { return [.diagnostic(.wrongHandle(frame.handle))] }
        switch frame.channelID {
        case .attributeProtocol:
            return [.attributeProtocol(frame.payload)]
        case .leSignaling:
            return signaling.receive(frame.payload).map { event in
                switch event {
                case .send(let command): .send(L2CAPBasicFrame(handle: handle, channelID: .leSignaling, payload: command.bytes))
                case .connectionParameterUpdateAccepted(let parameters): .connectionParameterUpdate(parameters)
                default: .signaling(event)
                }
            }
        case .securityManagerProtocol:
            if securityManagerAttached { return [.securityManager(frame.payload)] }
            let code = frame.payload.first
            guard code == Self.smpPairingRequest || code == Self.smpSecurityRequest else {
                return [.diagnostic(.securityManagerUnavailable(code: code, answered: false))]
            }
            let failed = L2CAPBasicFrame(handle: handle, channelID: .securityManagerProtocol,
                                         payload: [Self.smpPairingFailed, Self.pairingNotSupported])
            return [.send(failed), .diagnostic(.securityManagerUnavailable(code: code, answered: true))]
        default:
            return [.diagnostic(.unknownChannel(frame.channelID, length: frame.payload.count))]
        }
    }

    /// Wraps an outgoing ATT PDU into a basic frame on CID 0x0004 of this connection.
    public func attributeProtocolFrame(_ pdu: [UInt8]) -> L2CAPBasicFrame {
        L2CAPBasicFrame(handle: handle, channelID: .attributeProtocol, payload: pdu)
    }
}
