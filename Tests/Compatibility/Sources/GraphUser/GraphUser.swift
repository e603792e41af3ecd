// Uses the modules named GATT and Bluetooth beside our CoreBluetooth in one target: the graph builds and the names coexist.
import Bluetooth
import CoreBluetooth
import GATT

/// A characteristic's value handle from another package's GATT type, keyed by our CBUUID.
public func describe(_ attribute: GATTAttribute, address: Bluetooth.BluetoothAddress, uuid: CBUUID) -> String {
    "\(uuid.uuidString)@\(attribute.handle) on \(address.bytes.count)-byte address"
}
