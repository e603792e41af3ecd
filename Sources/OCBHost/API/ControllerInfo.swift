// What bring-up learned about the controller: version, address, features, supported commands and buffers.

import OCBCore
import OCBHCI

/// The controller as bring-up read it (Core v5.4 Vol 4 Part E §7.4 and §7.8.2/§7.8.3).
public struct ControllerInfo: Sendable, Hashable {
    /// HCI_Version (e.g. 0x09 = 5.0, Assigned Numbers §2.1).
    public var hciVersion: UInt8
    /// Company_Identifier of the controller's manufacturer (Assigned Numbers, company identifiers).
    public var manufacturer: UInt16
    /// BD_ADDR (the public address; 00:00:00:00:00:00 when the controller has none).
    public var publicAddress: BluetoothAddress
    /// The address we use as initiator and scanner, with its type (public, or the random static address set at bring-up).
    public var ownAddress: PeerAddress
    /// The controller's supported commands bitmap (64 octets).
    public var supportedCommands: SupportedCommands
    /// The controller's LE features.
    public var leFeatures: LEFeatures
    /// LE ACL data packet length in bytes (from LE Read Buffer Size, or Read Buffer Size when LE gives 0).
    public var aclDataPacketLength: Int
    /// Number of LE ACL data packets the controller can hold.
    public var aclDataPacketCount: Int

    /// Makes the value.
    public init(hciVersion: UInt8, manufacturer: UInt16, publicAddress: BluetoothAddress, ownAddress: PeerAddress,
                supportedCommands: SupportedCommands, leFeatures: LEFeatures, aclDataPacketLength: Int, aclDataPacketCount: Int) {
        self.hciVersion = hciVersion
        self.manufacturer = manufacturer
        self.publicAddress = publicAddress
        self.ownAddress = ownAddress
        self.supportedCommands = supportedCommands
        self.leFeatures = leFeatures
        self.aclDataPacketLength = aclDataPacketLength
        self.aclDataPacketCount = aclDataPacketCount
    }
}
