// The attribute types and UUIDs GATT itself defines: declarations, the CCCD and Service Changed.
import OCBCore

/// The 16-bit attribute types and UUIDs the GATT client procedures use (Core v5.4 Vol 3 Part G §3,
/// assigned numbers in the Bluetooth SIG Assigned Numbers document §3.5 and §3.8).
public enum GATTAttributeType {
    /// «Primary Service» 0x2800: a primary service declaration (Vol 3 Part G §3.1).
    public static let primaryService = BluetoothUUID(0x2800)
    /// «Secondary Service» 0x2801: a secondary service declaration (Vol 3 Part G §3.1).
    public static let secondaryService = BluetoothUUID(0x2801)
    /// «Include» 0x2802: an include declaration (Vol 3 Part G §3.2).
    public static let include = BluetoothUUID(0x2802)
    /// «Characteristic» 0x2803: a characteristic declaration (Vol 3 Part G §3.3.1).
    public static let characteristic = BluetoothUUID(0x2803)
    /// «Characteristic Extended Properties» 0x2900 (Vol 3 Part G §3.3.3.1).
    public static let characteristicExtendedProperties = BluetoothUUID(0x2900)
    /// «Characteristic User Description» 0x2901 (Vol 3 Part G §3.3.3.2).
    public static let characteristicUserDescription = BluetoothUUID(0x2901)
    /// «Client Characteristic Configuration» 0x2902, the CCCD (Vol 3 Part G §3.3.3.3).
    public static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)
    /// «Server Characteristic Configuration» 0x2903 (Vol 3 Part G §3.3.3.4).
    public static let serverCharacteristicConfiguration = BluetoothUUID(0x2903)
    /// «Characteristic Presentation Format» 0x2904 (Vol 3 Part G §3.3.3.5).
    public static let characteristicPresentationFormat = BluetoothUUID(0x2904)
    /// «Characteristic Aggregate Format» 0x2905 (Vol 3 Part G §3.3.3.6).
    public static let characteristicAggregateFormat = BluetoothUUID(0x2905)
    /// The Generic Attribute service 0x1801 (Vol 3 Part G §7).
    public static let genericAttributeService = BluetoothUUID(0x1801)
    /// The Service Changed characteristic 0x2A05 (Vol 3 Part G §7.1).
    public static let serviceChanged = BluetoothUUID(0x2A05)

    /// The declaration types that end a characteristic's handle range or a service's (Vol 3 Part G §3.3.1, §3.1).
    static let declarationTypes: Set<BluetoothUUID> = [primaryService, secondaryService, include, characteristic]
}
