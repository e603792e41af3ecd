// Names for services, characteristics and descriptors in messages, and descriptor values back to their bytes.

import OCBCore
import OCBToolKit
import CoreBluetooth
import Foundation

/// Short text for CoreBluetooth attributes, with handles (Linux extension) and assigned-number names.
enum AttributeText {
    /// "0x001B 2A37 Heart Rate Measurement" (the value handle).
    static func name(_ characteristic: CBCharacteristic) -> String {
        GATTText.handle(characteristic.valueAttributeHandle) + " " + GATTText.uuid(characteristic.uuid.bluetoothUUID)
    }

    /// "0x001C 2902 Client Characteristic Configuration".
    static func name(_ descriptor: CBDescriptor) -> String {
        GATTText.handle(descriptor.attributeHandle) + " " + GATTText.uuid(descriptor.uuid.bluetoothUUID)
    }

    /// The bytes of a descriptor value as CoreBluetooth types it (CBDescriptor's note): `NSNumber` for 0x2900,
    /// 0x2902, 0x2903 (a UInt16, little-endian on air, Core v5.4 Vol 3 Part G §3.3.3.1-§3.3.3.4), `String` for
    /// 0x2901 (UTF-8), `Data` otherwise; nil for no value.
    static func descriptorBytes(_ value: Any?, uuid: BluetoothUUID) -> [UInt8]? {
        switch value {
        case let data as Data:
            return [UInt8](data)
        case let text as String:
            return Array(text.utf8)
        case let number as NSNumber:
            let raw = number.uint16Value
            return [UInt8(truncatingIfNeeded: raw), UInt8(truncatingIfNeeded: raw >> 8)]
        default:
            return nil
        }
    }
}
