// CBAttribute, CBService, CBCharacteristic, CBCharacteristicProperties and CBDescriptor: reading the GATT tree.
import CoreBluetooth

/// Every attribute (service, characteristic, descriptor) has a UUID through CBAttribute.
func attributeUUID(_ attribute: CBAttribute) -> CBUUID {
    attribute.uuid
}

func inspectService(_ service: CBService) -> [String] {
    var lines = ["service \(attributeUUID(service).uuidString) primary=\(service.isPrimary)"]
    if let owner: CBPeripheral = service.peripheral {
        lines.append("owned by \(owner.identifier)")
    }
    for included in service.includedServices ?? [] {
        lines.append("includes \(included.uuid.uuidString)")
    }
    for characteristic in service.characteristics ?? [] {
        lines.append(contentsOf: inspectCharacteristic(characteristic))
    }
    return lines
}

/// Names every CBCharacteristicProperties member set in `properties`.
func describeProperties(_ properties: CBCharacteristicProperties) -> [String] {
    let all: [(CBCharacteristicProperties, String)] = [
        (.broadcast, "broadcast"),
        (.read, "read"),
        (.writeWithoutResponse, "writeWithoutResponse"),
        (.write, "write"),
        (.notify, "notify"),
        (.indicate, "indicate"),
        (.authenticatedSignedWrites, "authenticatedSignedWrites"),
        (.extendedProperties, "extendedProperties"),
        (.notifyEncryptionRequired, "notifyEncryptionRequired"),
        (.indicateEncryptionRequired, "indicateEncryptionRequired"),
    ]
    var names = all.filter { properties.contains($0.0) }.map { $0.1 }
    let rebuilt = CBCharacteristicProperties(rawValue: properties.rawValue)
    if rebuilt != properties {
        names.append("mismatch")
    }
    return names
}

func inspectCharacteristic(_ characteristic: CBCharacteristic) -> [String] {
    var lines = ["characteristic \(characteristic.uuid.uuidString)"]
    if let service: CBService = characteristic.service {
        lines.append("in service \(service.uuid.uuidString)")
    }
    lines.append(contentsOf: describeProperties(characteristic.properties))
    if let value: Data = characteristic.value {
        lines.append("value \(value.count) bytes")
    }
    lines.append("notifying=\(characteristic.isNotifying)")
    for descriptor in characteristic.descriptors ?? [] {
        lines.append(inspectDescriptor(descriptor))
    }
    return lines
}

/// Decodes a descriptor value according to the value types Apple documents for each predefined descriptor UUID.
func inspectDescriptor(_ descriptor: CBDescriptor) -> String {
    let owner: CBCharacteristic? = descriptor.characteristic
    let value: Any? = descriptor.value
    switch descriptor.uuid {
    case CBUUID(string: CBUUIDCharacteristicUserDescriptionString):
        return (value as? String) ?? ""
    case CBUUID(string: CBUUIDCharacteristicExtendedPropertiesString),
         CBUUID(string: CBUUIDClientCharacteristicConfigurationString),
         CBUUID(string: CBUUIDServerCharacteristicConfigurationString):
        return "\((value as? NSNumber)?.intValue ?? 0)"
    case CBUUID(string: CBUUIDCharacteristicFormatString),
         CBUUID(string: CBUUIDCharacteristicAggregateFormatString),
         CBUUID(string: CBUUIDCharacteristicValidRangeString),
         CBUUID(string: CBUUIDCharacteristicObservationScheduleString):
        return "\((value as? Data)?.count ?? 0) bytes"
    default:
        return "descriptor of \(owner?.uuid.uuidString ?? "?")"
    }
}
