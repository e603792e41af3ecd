// The well-known descriptor UUID strings Apple exports (CBUUIDCharacteristic...String).

/// 0x2900 Characteristic Extended Properties (Core v5.4 Vol 3 Part G §3.3.3.1).
public let CBUUIDCharacteristicExtendedPropertiesString: String = "2900"
/// 0x2901 Characteristic User Description (Vol 3 Part G §3.3.3.2).
public let CBUUIDCharacteristicUserDescriptionString: String = "2901"
/// 0x2902 Client Characteristic Configuration (Vol 3 Part G §3.3.3.3); written only by `setNotifyValue(_:for:)`.
public let CBUUIDClientCharacteristicConfigurationString: String = "2902"
/// 0x2903 Server Characteristic Configuration (Vol 3 Part G §3.3.3.4).
public let CBUUIDServerCharacteristicConfigurationString: String = "2903"
/// 0x2904 Characteristic Presentation Format (Vol 3 Part G §3.3.3.5).
public let CBUUIDCharacteristicFormatString: String = "2904"
/// 0x2905 Characteristic Aggregate Format (Vol 3 Part G §3.3.3.6).
public let CBUUIDCharacteristicAggregateFormatString: String = "2905"
/// 0x2906 Valid Range (GATT Specification Supplement §3.239).
public let CBUUIDCharacteristicValidRangeString: String = "2906"
/// 0x2910 Observation Schedule descriptor (GATT Specification Supplement §3.163; Apple: "data representing the
/// observation schedule for a characteristic"; its value is read as `Data`).
public let CBUUIDCharacteristicObservationScheduleString: String = "2910"
/// Apple's L2CAP PSM characteristic, 128-bit.
public let CBUUIDL2CAPPSMCharacteristicString: String = "ABDD3056-28FA-441D-A470-55A75A52553A"
