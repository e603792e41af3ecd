// CBUUID: its initialisers, uuidString and data, and every predefined CBUUID...String constant.
import CoreBluetooth

/// UUIDs used throughout the examples (computed, so nothing non-Sendable is stored globally).
enum KnownUUIDs {
    static var heartRateService: CBUUID { CBUUID(string: "180D") }
    static var heartRateMeasurement: CBUUID { CBUUID(string: "2A37") }
    static var batteryService: CBUUID { CBUUID(string: "180F") }
    static var customService: CBUUID { CBUUID(string: "68753A44-4D6F-1226-9C60-0050E4C00067") }
}

/// Every predefined UUID string constant Core Bluetooth declares.
func predefinedUUIDStrings() -> [String] {
    [
        CBUUIDCharacteristicExtendedPropertiesString,
        CBUUIDCharacteristicUserDescriptionString,
        CBUUIDClientCharacteristicConfigurationString,
        CBUUIDServerCharacteristicConfigurationString,
        CBUUIDCharacteristicFormatString,
        CBUUIDCharacteristicAggregateFormatString,
        CBUUIDCharacteristicValidRangeString,
        CBUUIDCharacteristicObservationScheduleString,
        CBUUIDL2CAPPSMCharacteristicString,
    ]
}

/// Creates CBUUIDs every way Apple allows and reads them back.
func exerciseUUIDs() -> [CBUUID] {
    let fromShortString = CBUUID(string: "180D")
    let fromLongString = CBUUID(string: "0000180D-0000-1000-8000-00805F9B34FB")
    let fromData = CBUUID(data: Data([0x18, 0x0D]))
    let fromFoundation = CBUUID(nsuuid: UUID())
    let empty = CBUUID()  // NSObject's init()
    let text: String = fromShortString.uuidString
    let bytes: Data = fromData.data
    let sameAttribute = fromShortString == fromLongString
    let predefined = predefinedUUIDStrings().map { CBUUID(string: $0) }
    let unique = Set(predefined + [fromData, KnownUUIDs.customService])
    _ = (text, bytes, sameAttribute, empty.uuidString, unique.count)
    return [fromShortString, fromLongString, fromData, fromFoundation] + predefined
}
