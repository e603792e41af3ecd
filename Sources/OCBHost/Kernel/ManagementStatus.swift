// The status codes of the kernel's management interface (BlueZ doc/mgmt-api.txt, "Error Codes").

import OCBCore

/// A management command's status, from Command Complete or Command Status (mgmt-api.txt "Error Codes"; one byte).
/// Values the document does not list keep their byte in ``other(_:)``.
public enum ManagementStatus: Sendable, Hashable, CustomStringConvertible {
    /// 0x00 ... 0x07: Success, Unknown Command, Not Connected, Failed, Connect Failed, Authentication Failed, Not
    /// Paired, No Resources.
    case success, unknownCommand, notConnected, failed, connectFailed, authenticationFailed, notPaired, noResources
    /// 0x08 ... 0x0F: Timeout, Already Connected, Busy (another client's discovery runs), Rejected, Not Supported,
    /// Invalid Parameters, Disconnected, Not Powered.
    case timeout, alreadyConnected, busy, rejected, notSupported, invalidParameters, disconnected, notPowered
    /// 0x10 ... 0x14: Cancelled, Invalid Index, RFKilled, Already Paired, Permission Denied (an untrusted socket:
    /// no CAP_NET_ADMIN).
    case cancelled, invalidIndex, rfkilled, alreadyPaired, permissionDenied
    /// A value mgmt-api.txt does not define.
    case other(UInt8)

    private static let table: [(ManagementStatus, String)] = [
        (.success, "Success"), (.unknownCommand, "Unknown Command"), (.notConnected, "Not Connected"), (.failed, "Failed"),
        (.connectFailed, "Connect Failed"), (.authenticationFailed, "Authentication Failed"), (.notPaired, "Not Paired"),
        (.noResources, "No Resources"), (.timeout, "Timeout"), (.alreadyConnected, "Already Connected"), (.busy, "Busy"),
        (.rejected, "Rejected"), (.notSupported, "Not Supported"), (.invalidParameters, "Invalid Parameters"),
        (.disconnected, "Disconnected"), (.notPowered, "Not Powered"), (.cancelled, "Cancelled"),
        (.invalidIndex, "Invalid Index"), (.rfkilled, "RFKilled"), (.alreadyPaired, "Already Paired"),
        (.permissionDenied, "Permission Denied"),
    ]

    /// The status for its byte: 0x00 Success ... 0x14 Permission Denied, else ``other(_:)``.
    public init(rawValue: UInt8) {
        self = Int(rawValue) < Self.table.count ? Self.table[Int(rawValue)].0 : .other(rawValue)
    }

    /// The byte on the wire.
    public var rawValue: UInt8 {
        if case .other(let value) = self { return value }
        return UInt8(Self.table.firstIndex { $0.0 == self } ?? 0)
    }

    /// The document's name and the byte, e.g. "Busy (0x0A)".
    public var description: String {
        let name = Int(rawValue) < Self.table.count ? Self.table[Int(rawValue)].1 : "unknown status"
        return "\(name) (0x\(Hex.uppercase(rawValue, digits: 2)))"
    }
}
