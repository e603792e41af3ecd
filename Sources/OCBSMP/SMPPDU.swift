// One Security Manager Protocol PDU as a value: decoded from and encoded to the bytes of L2CAP CID 0x0006.

import OCBCore

/// An SMP PDU (Core v5.4 Vol 3 Part H §3.5, §3.6): code, then data in PDU order (multi-octet values least
/// significant octet first, as on the air; ``SMPCrypto`` takes them most significant first, reversed).
///
/// Decoding never traps: an empty PDU, an unknown code or a wrong length throws ``SMPDecodingError``.
public enum SMPPDU: Hashable, Sendable {
    /// 0x01: the initiator's features.
    case pairingRequest(SMPPairingFeatures)
    /// 0x02: the responder's features.
    case pairingResponse(SMPPairingFeatures)
    /// 0x03: the 16-byte confirm value (c1 or f4).
    case pairingConfirm([UInt8])
    /// 0x04: the 16-byte random value.
    case pairingRandom([UInt8])
    /// 0x05: pairing ends, with the reason.
    case pairingFailed(SMPPairingFailedReason)
    /// 0x06: the 16-byte LTK (legacy key distribution).
    case encryptionInformation(longTermKey: [UInt8])
    /// 0x07: EDIV and the 8-byte Rand of that LTK.
    case centralIdentification(ediv: UInt16, rand: [UInt8])
    /// 0x08: the 16-byte IRK.
    case identityInformation(identityResolvingKey: [UInt8])
    /// 0x09: the identity address and its type (0 public, 1 static random).
    case identityAddressInformation(type: UInt8, address: BluetoothAddress)
    /// 0x0A: the 16-byte CSRK.
    case signingInformation(signatureKey: [UInt8])
    /// 0x0B: the peripheral asks the central to pair or encrypt, with its AuthReq.
    case securityRequest(SMPAuthenticationRequirements)
    /// 0x0C: the P-256 public key, X then Y, 32 bytes each.
    case pairingPublicKey(x: [UInt8], y: [UInt8])
    /// 0x0D: the 16-byte DHKey check value (f6).
    case pairingDHKeyCheck([UInt8])
    /// 0x0E: a keypress notification type (0 started … 4 completed).
    case pairingKeypressNotification(UInt8)

    /// Decodes `bytes` (code first). Throws ``SMPDecodingError``.
    public init(bytes: [UInt8]) throws(SMPDecodingError) {
        guard let first = bytes.first else { throw .empty }
        guard let code = SMPCode(rawValue: first) else { throw .unknownCode(first) }
        let data = bytes.dropFirst()
        guard data.count == code.dataLength else { throw .wrongLength(code, got: data.count, expected: code.dataLength) }
        let at = data.startIndex
        switch code {
        case .pairingRequest: self = .pairingRequest(SMPPairingFeatures(data))
        case .pairingResponse: self = .pairingResponse(SMPPairingFeatures(data))
        case .pairingConfirm: self = .pairingConfirm(Array(data))
        case .pairingRandom: self = .pairingRandom(Array(data))
        case .pairingFailed: self = .pairingFailed(SMPPairingFailedReason(rawValue: data[at]))
        case .encryptionInformation: self = .encryptionInformation(longTermKey: Array(data))
        case .centralIdentification:
            self = .centralIdentification(ediv: UInt16(data[at]) | UInt16(data[at + 1]) << 8, rand: Array(data.dropFirst(2)))
        case .identityInformation: self = .identityInformation(identityResolvingKey: Array(data))
        case .identityAddressInformation:
            // Six octets by the length check above: never the fallback.
            self = .identityAddressInformation(type: data[at], address: BluetoothAddress(littleEndianBytes: data.dropFirst()) ?? .zero)
        case .signingInformation: self = .signingInformation(signatureKey: Array(data))
        case .securityRequest: self = .securityRequest(SMPAuthenticationRequirements(rawValue: data[at]))
        case .pairingPublicKey: self = .pairingPublicKey(x: Array(data.prefix(32)), y: Array(data.dropFirst(32)))
        case .pairingDHKeyCheck: self = .pairingDHKeyCheck(Array(data))
        case .pairingKeypressNotification: self = .pairingKeypressNotification(data[at])
        }
    }

    /// The PDU's code.
    public var code: SMPCode {
        switch self {
        case .pairingRequest: .pairingRequest
        case .pairingResponse: .pairingResponse
        case .pairingConfirm: .pairingConfirm
        case .pairingRandom: .pairingRandom
        case .pairingFailed: .pairingFailed
        case .encryptionInformation: .encryptionInformation
        case .centralIdentification: .centralIdentification
        case .identityInformation: .identityInformation
        case .identityAddressInformation: .identityAddressInformation
        case .signingInformation: .signingInformation
        case .securityRequest: .securityRequest
        case .pairingPublicKey: .pairingPublicKey
        case .pairingDHKeyCheck: .pairingDHKeyCheck
        case .pairingKeypressNotification: .pairingKeypressNotification
        }
    }

    /// The PDU's bytes (code first). Values held with the wrong length are padded with zeros or cut to the PDU's
    /// field length, so the result always has the code's length.
    public var bytes: [UInt8] {
        func field(_ value: [UInt8], _ count: Int) -> [UInt8] { Array((value + [UInt8](repeating: 0, count: count)).prefix(count)) }
        let data: [UInt8]
        switch self {
        case let .pairingRequest(features), let .pairingResponse(features): data = features.bytes
        case let .pairingConfirm(value), let .pairingRandom(value), let .pairingDHKeyCheck(value): data = field(value, 16)
        case let .pairingFailed(reason): data = [reason.rawValue]
        case let .encryptionInformation(key), let .identityInformation(key), let .signingInformation(key): data = field(key, 16)
        case let .centralIdentification(ediv, rand): data = [UInt8(ediv & 0xFF), UInt8(ediv >> 8)] + field(rand, 8)
        case let .identityAddressInformation(type, address):
            data = [type] + address.bytes.reversed()
        case let .securityRequest(requirements): data = [requirements.rawValue]
        case let .pairingPublicKey(x, y): data = field(x, 32) + field(y, 32)
        case let .pairingKeypressNotification(type): data = [type]
        }
        return [code.rawValue] + data
    }
}
