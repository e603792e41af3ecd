// CBConnectionEvent and CBConnectionEventMatchingOption: registering for connection events and describing them.
import CoreBluetooth

/// Options for `registerForConnectionEvents(options:)`.
func connectionEventOptions(services: [CBUUID], peripherals: [UUID]) -> [CBConnectionEventMatchingOption: Any] {
    [
        .serviceUUIDs: services,
        .peripheralUUIDs: peripherals,
    ]
}

func registerForEvents(_ central: CBCentralManager, peripheral: CBPeripheral) {
    central.registerForConnectionEvents(
        options: connectionEventOptions(services: [KnownUUIDs.heartRateService], peripherals: [peripheral.identifier])
    )
    let serviceOption = CBConnectionEventMatchingOption(rawValue: CBConnectionEventMatchingOption.serviceUUIDs.rawValue)
    central.registerForConnectionEvents(options: [serviceOption: [KnownUUIDs.batteryService]])
    central.registerForConnectionEvents(options: nil)
    central.registerForConnectionEvents()
}

func describeConnectionEvent(_ event: CBConnectionEvent) -> String {
    switch event {
    case .peerDisconnected: return "peerDisconnected"
    case .peerConnected: return "peerConnected"
    @unknown default: return "connection event \(event.rawValue)"
    }
}
