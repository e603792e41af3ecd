// CBL2CAPChannel, CBL2CAPPSM and CBPeer: finding a published PSM, opening a channel, reading its streams and peer.
import CoreBluetooth

/// Reads the little-endian PSM a GATT server publishes in the CBUUIDL2CAPPSMCharacteristicString characteristic.
func publishedPSM(in characteristic: CBCharacteristic) -> CBL2CAPPSM? {
    guard characteristic.uuid == CBUUID(string: CBUUIDL2CAPPSMCharacteristicString),
          let value = characteristic.value, value.count >= 2
    else { return nil }
    let bytes = [UInt8](value)
    return CBL2CAPPSM(bytes[0]) | (CBL2CAPPSM(bytes[1]) << 8)
}

/// Opens an L2CAP channel on the published PSM, or on a fixed dynamic PSM.
func openChannel(on peripheral: CBPeripheral, characteristic: CBCharacteristic) {
    let fallback: CBL2CAPPSM = 0x0080
    peripheral.openL2CAPChannel(publishedPSM(in: characteristic) ?? fallback)
}

/// Every peer (here, the remote peripheral) is identified by a UUID.
func peerIdentifier(_ peer: CBPeer) -> UUID {
    peer.identifier
}

/// Reads every property of an open channel.
func inspectChannel(_ channel: CBL2CAPChannel) -> String {
    let psm: CBL2CAPPSM = channel.psm
    let peer: CBPeer = channel.peer
    let input: InputStream = channel.inputStream
    let output: OutputStream = channel.outputStream
    let isPeripheral = peer is CBPeripheral
    return "psm \(psm) peer \(peerIdentifier(peer)) peripheral=\(isPeripheral) \(input) \(output)"
}
