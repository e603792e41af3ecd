// CBCentralManager.Feature from a controller's Supported Commands (Core v5.4 Vol 4 Part E §6.27).
@testable import CoreBluetooth
import OCBCore
import OCBHCI
import OCBHost
import Testing

/// A controller description with Supported Commands octets `octets` (index → value), the rest zero.
private func controller(_ octets: [Int: UInt8]) -> ControllerInfo {
    var commands = [UInt8](repeating: 0, count: 64)
    for (index, value) in octets { commands[index] = value }
    let address = BluetoothAddress("0C:B0:00:00:00:01")!
    return ControllerInfo(hciVersion: 0x0D, manufacturer: 0xFFFF, publicAddress: address,
                          ownAddress: PeerAddress(address, type: .public), supportedCommands: SupportedCommands(bytes: commands),
                          leFeatures: LEFeatures(rawValue: 0), aclDataPacketLength: 27, aclDataPacketCount: 8)
}

@Test func extendedScanAndConnectNeedsTheThreeExtendedCommands() {
    // Octet 37 bits 5, 6, 7: LE Set Extended Scan Parameters, LE Set Extended Scan Enable, LE Extended Create Connection.
    #expect(CBCentralManager.Feature(controller: controller([37: 0b1110_0000])) == .extendedScanAndConnect)
    // A 5.x controller that lists everything of octets 36-37 (the extended advertising commands too).
    #expect(CBCentralManager.Feature(controller: controller([36: 0xFE, 37: 0xFF])) == .extendedScanAndConnect)
    // Extended scanning without LE Extended Create Connection: the host would scan and connect with legacy commands.
    #expect(CBCentralManager.Feature(controller: controller([37: 0b0110_0000])) == [])
    #expect(CBCentralManager.Feature(controller: controller([37: 0b1010_0000])) == [])
    // Legacy only: octet 26 bits 2-4 (LE Set Scan Parameters/Enable, LE Create Connection).
    #expect(CBCentralManager.Feature(controller: controller([26: 0b0001_1100])) == [])
    // A truncated bitmap (hostile controller) lists nothing.
    let short = ControllerInfo(hciVersion: 0, manufacturer: 0, publicAddress: .zero, ownAddress: PeerAddress(.zero, type: .public),
                               supportedCommands: SupportedCommands(bytes: [0xFF, 0xFF]), leFeatures: LEFeatures(rawValue: 0),
                               aclDataPacketLength: 27, aclDataPacketCount: 1)
    #expect(CBCentralManager.Feature(controller: short) == [])
}
