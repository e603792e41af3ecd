// The GATT attribute types the ATT layer needs to recognise.

import OCBCore

/// GATT declaration types (Core v5.4 Vol 3 Part G §3.1; Assigned Numbers §3.5).
enum BluetoothUUIDConstants {
    /// «Primary Service», 0x2800.
    static let primaryService = BluetoothUUID(0x2800)
    /// «Secondary Service», 0x2801.
    static let secondaryService = BluetoothUUID(0x2801)
}
