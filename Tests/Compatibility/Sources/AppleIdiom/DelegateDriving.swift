// Calls every CentralDelegate callback directly, the way unit tests simulate Core Bluetooth events.
import CoreBluetooth

// The optional protocol requirements are called on the concrete `CentralDelegate` type. The Objective-C style
// `central.delegate?.centralManager?(central, didConnect: peripheral)` (optional-requirement call syntax for
// `@objc optional` members) needs the Objective-C runtime and is not available on Linux, so portable code avoids it.

func driveCentralDelegate(_ delegate: CentralDelegate, central: CBCentralManager, peripheral: CBPeripheral) {
    // The only required CBCentralManagerDelegate method can be called through the protocol existential.
    let asProtocol: any CBCentralManagerDelegate = delegate
    asProtocol.centralManagerDidUpdateState(central)

    delegate.centralManager(central, willRestoreState: [
        CBCentralManagerRestoredStatePeripheralsKey: [peripheral],
        CBCentralManagerRestoredStateScanServicesKey: [KnownUUIDs.heartRateService],
        CBCentralManagerRestoredStateScanOptionsKey: [CBCentralManagerScanOptionAllowDuplicatesKey: false],
    ])
    delegate.centralManager(
        central,
        didDiscover: peripheral,
        advertisementData: [
            CBAdvertisementDataLocalNameKey: "Heart Rate",
            CBAdvertisementDataServiceUUIDsKey: [KnownUUIDs.heartRateService],
            CBAdvertisementDataIsConnectable: NSNumber(value: true),
        ],
        rssi: NSNumber(value: -60)
    )
    delegate.centralManager(central, didConnect: peripheral)
    delegate.centralManager(central, didFailToConnect: peripheral, error: CBError(.connectionFailed))
    delegate.centralManager(central, didDisconnectPeripheral: peripheral, error: nil)
    delegate.centralManager(
        central,
        didDisconnectPeripheral: peripheral,
        timestamp: CFAbsoluteTimeGetCurrent(),
        isReconnecting: true,
        error: CBError(.peripheralDisconnected)
    )
    delegate.centralManager(central, connectionEventDidOccur: .peerConnected, for: peripheral)
    delegate.centralManager(central, connectionEventDidOccur: .peerDisconnected, for: peripheral)
    delegate.centralManager(central, didUpdateANCSAuthorizationFor: peripheral)
}

func drivePeripheralDelegate(
    _ delegate: CentralDelegate,
    peripheral: CBPeripheral,
    service: CBService,
    characteristic: CBCharacteristic,
    descriptor: CBDescriptor,
    channel: CBL2CAPChannel?
) {
    delegate.peripheralDidUpdateName(peripheral)
    delegate.peripheral(peripheral, didModifyServices: [service])
    delegate.peripheral(peripheral, didReadRSSI: NSNumber(value: -42), error: nil)
    delegate.peripheral(peripheral, didDiscoverServices: nil)
    delegate.peripheral(peripheral, didDiscoverIncludedServicesFor: service, error: nil)
    delegate.peripheral(peripheral, didDiscoverCharacteristicsFor: service, error: nil)
    delegate.peripheral(peripheral, didUpdateValueFor: characteristic, error: nil)
    delegate.peripheral(peripheral, didWriteValueFor: characteristic, error: CBATTError(.writeNotPermitted))
    delegate.peripheral(peripheral, didUpdateNotificationStateFor: characteristic, error: nil)
    delegate.peripheral(peripheral, didDiscoverDescriptorsFor: characteristic, error: nil)
    delegate.peripheral(peripheral, didUpdateValueFor: descriptor, error: nil)
    delegate.peripheral(peripheral, didWriteValueFor: descriptor, error: nil)
    delegate.peripheralIsReady(toSendWriteWithoutResponse: peripheral)
    delegate.peripheral(peripheral, didOpen: channel, error: nil)
    delegate.peripheral(peripheral, didOpen: nil, error: CBError(.operationNotSupported))
}
