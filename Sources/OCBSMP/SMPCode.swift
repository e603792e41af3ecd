// The Security Manager Protocol's command codes (the first octet of every SMP PDU on L2CAP CID 0x0006).

/// SMP command codes, Core v5.4 Vol 3 Part H §3.3 Table 3.3.
public enum SMPCode: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// 0x01, Vol 3 Part H §3.5.1.
    case pairingRequest = 0x01
    /// 0x02, Vol 3 Part H §3.5.2.
    case pairingResponse = 0x02
    /// 0x03, Vol 3 Part H §3.5.3.
    case pairingConfirm = 0x03
    /// 0x04, Vol 3 Part H §3.5.4.
    case pairingRandom = 0x04
    /// 0x05, Vol 3 Part H §3.5.5.
    case pairingFailed = 0x05
    /// 0x06, Vol 3 Part H §3.6.2.
    case encryptionInformation = 0x06
    /// 0x07, Vol 3 Part H §3.6.3.
    case centralIdentification = 0x07
    /// 0x08, Vol 3 Part H §3.6.4.
    case identityInformation = 0x08
    /// 0x09, Vol 3 Part H §3.6.5.
    case identityAddressInformation = 0x09
    /// 0x0A, Vol 3 Part H §3.6.6.
    case signingInformation = 0x0A
    /// 0x0B, Vol 3 Part H §3.6.7.
    case securityRequest = 0x0B
    /// 0x0C, Vol 3 Part H §3.5.6.
    case pairingPublicKey = 0x0C
    /// 0x0D, Vol 3 Part H §3.5.7.
    case pairingDHKeyCheck = 0x0D
    /// 0x0E, Vol 3 Part H §3.5.8.
    case pairingKeypressNotification = 0x0E

    /// The bytes after the code (Vol 3 Part H §3.5, §3.6).
    public var dataLength: Int {
        switch self {
        case .pairingRequest, .pairingResponse: 6
        case .pairingConfirm, .pairingRandom, .encryptionInformation, .identityInformation, .signingInformation, .pairingDHKeyCheck: 16
        case .pairingFailed, .securityRequest, .pairingKeypressNotification: 1
        case .centralIdentification: 10
        case .identityAddressInformation: 7
        case .pairingPublicKey: 64
        }
    }

    /// The specification's name ("Pairing Request").
    public var description: String {
        switch self {
        case .pairingRequest: "Pairing Request"
        case .pairingResponse: "Pairing Response"
        case .pairingConfirm: "Pairing Confirm"
        case .pairingRandom: "Pairing Random"
        case .pairingFailed: "Pairing Failed"
        case .encryptionInformation: "Encryption Information"
        case .centralIdentification: "Central Identification"
        case .identityInformation: "Identity Information"
        case .identityAddressInformation: "Identity Address Information"
        case .signingInformation: "Signing Information"
        case .securityRequest: "Security Request"
        case .pairingPublicKey: "Pairing Public Key"
        case .pairingDHKeyCheck: "Pairing DHKey Check"
        case .pairingKeypressNotification: "Pairing Keypress Notification"
        }
    }
}
