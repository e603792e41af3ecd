// CBPeripheral, CBPeripheralState and CBCharacteristicWriteType: properties, discovery, reads, writes, notifications.
import CoreBluetooth

func describePeripheralState(_ state: CBPeripheralState) -> String {
    switch state {
    case .disconnected: return "disconnected"
    case .connecting: return "connecting"
    case .connected: return "connected"
    case .disconnecting: return "disconnecting"
    @unknown default: return "state \(state.rawValue)"
    }
}

func describeWriteType(_ type: CBCharacteristicWriteType) -> String {
    switch type {
    case .withResponse: return "withResponse"
    case .withoutResponse: return "withoutResponse"
    @unknown default: return "write type \(type.rawValue)"
    }
}

/// Reads every CBPeripheral property and starts discovery of services, included services and characteristics.
func exercisePeripheral(_ peripheral: CBPeripheral, delegate: any CBPeripheralDelegate) -> [String] {
    peripheral.delegate = delegate
    let currentDelegate: (any CBPeripheralDelegate)? = peripheral.delegate
    let name: String = peripheral.name ?? "Unnamed"
    let identifier: UUID = peripheral.identifier
    let state: CBPeripheralState = peripheral.state
    let canWriteWithoutResponse: Bool = peripheral.canSendWriteWithoutResponse
    let ancsAuthorized: Bool = peripheral.ancsAuthorized
    _ = currentDelegate

    peripheral.readRSSI()
    peripheral.discoverServices(nil)
    peripheral.discoverServices([KnownUUIDs.heartRateService, KnownUUIDs.batteryService])

    let services: [CBService] = peripheral.services ?? []
    for service in services {
        peripheral.discoverIncludedServices(nil, for: service)
        peripheral.discoverIncludedServices([KnownUUIDs.batteryService], for: service)
        peripheral.discoverCharacteristics(nil, for: service)
        peripheral.discoverCharacteristics([KnownUUIDs.heartRateMeasurement], for: service)
        for characteristic in service.characteristics ?? [] {
            exerciseCharacteristicIO(peripheral, characteristic)
        }
    }
    return [name, "\(identifier)", describePeripheralState(state), "\(canWriteWithoutResponse)", "\(ancsAuthorized)"]
}

/// Reads, writes, subscribes to and discovers descriptors of one characteristic.
func exerciseCharacteristicIO(_ peripheral: CBPeripheral, _ characteristic: CBCharacteristic) {
    peripheral.discoverDescriptors(for: characteristic)
    let properties = characteristic.properties
    if properties.contains(.read) {
        peripheral.readValue(for: characteristic)
    }
    if properties.contains(.notify) || properties.contains(.indicate) {
        peripheral.setNotifyValue(true, for: characteristic)
    }
    let payload = Data([0x01, 0x02, 0x03])
    if properties.contains(.write) {
        let limit: Int = peripheral.maximumWriteValueLength(for: .withResponse)
        peripheral.writeValue(payload.prefix(limit), for: characteristic, type: .withResponse)
    }
    if properties.contains(.writeWithoutResponse), peripheral.canSendWriteWithoutResponse {
        let type: CBCharacteristicWriteType = .withoutResponse
        let limit: Int = peripheral.maximumWriteValueLength(for: type)
        peripheral.writeValue(payload.prefix(limit), for: characteristic, type: type)
        _ = describeWriteType(type)
    }
    for descriptor in characteristic.descriptors ?? [] {
        peripheral.readValue(for: descriptor)
        // Client configuration is written with setNotifyValue(_:for:), never with writeValue(_:for:).
        if descriptor.uuid != CBUUID(string: CBUUIDClientCharacteristicConfigurationString) {
            peripheral.writeValue(Data([0x00]), for: descriptor)
        }
    }
    peripheral.setNotifyValue(false, for: characteristic)
}
