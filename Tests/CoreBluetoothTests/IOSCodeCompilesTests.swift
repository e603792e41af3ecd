// Compile-only: iOS app code touching every public Apple symbol of the central role, with only `import CoreBluetooth`.
import CoreBluetooth
import Foundation

// Nothing here runs: the file passing the compiler is the check that code written for iOS 17 builds unchanged.
// It is written as an app would write it (`Error?`, `[String : Any]`, `CBCentralManager(delegate:queue:)`),
// uses no Linux addition and no test seam. Deprecated Apple API is touched inside a deprecated function, so its
// use compiles without warnings, as in an app that keeps supporting old code paths.

/// A heart-rate style client with every central-role delegate method of the iOS 17 SDK.
final class IOSStyleClient: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate {
    var central: CBCentralManager!
    var peripheral: CBPeripheral?
    var channel: CBL2CAPChannel?
    var events: [String] = []

    func start() {
        central = CBCentralManager(delegate: self, queue: nil, options: [
            CBCentralManagerOptionShowPowerAlertKey: true,
            CBCentralManagerOptionRestoreIdentifierKey: "com.example.client",
        ])
        _ = CBCentralManager()
        _ = CBCentralManager(delegate: self, queue: DispatchQueue(label: "ble"))
        if CBCentralManager.supports(.extendedScanAndConnect) { events.append("extended") }
        let _: CBCentralManager.Feature = [.extendedScanAndConnect]
        switch CBManager.authorization {
        case .allowedAlways: events.append("allowed")
        case .notDetermined, .restricted, .denied: events.append("not allowed")
        @unknown default: break
        }
    }

    // MARK: CBCentralManagerDelegate

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        switch central.state {
        case .poweredOn:
            central.scanForPeripherals(withServices: [CBUUID(string: "180D")], options: [
                CBCentralManagerScanOptionAllowDuplicatesKey: false,
                CBCentralManagerScanOptionSolicitedServiceUUIDsKey: [CBUUID(string: "180F")],
            ])
        case .poweredOff, .resetting, .unauthorized, .unknown, .unsupported:
            events.append("not ready \(central.state.rawValue)")
        @unknown default:
            break
        }
        if central.isScanning { events.append("scanning") }
    }

    func centralManager(_ central: CBCentralManager, willRestoreState dict: [String : Any]) {
        let peripherals = dict[CBCentralManagerRestoredStatePeripheralsKey] as? [CBPeripheral] ?? []
        let services = dict[CBCentralManagerRestoredStateScanServicesKey] as? [CBUUID] ?? []
        let options = dict[CBCentralManagerRestoredStateScanOptionsKey] as? [String : Any] ?? [:]
        events.append("restored \(peripherals.count) \(services.count) \(options.count)")
        peripheral = peripherals.first
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String : Any], rssi RSSI: NSNumber) {
        let name = advertisementData[CBAdvertisementDataLocalNameKey] as? String
        let manufacturer = advertisementData[CBAdvertisementDataManufacturerDataKey] as? Data
        let serviceData = advertisementData[CBAdvertisementDataServiceDataKey] as? [CBUUID : Data]
        let services = advertisementData[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID]
        let overflow = advertisementData[CBAdvertisementDataOverflowServiceUUIDsKey] as? [CBUUID]
        let power = advertisementData[CBAdvertisementDataTxPowerLevelKey] as? NSNumber
        let connectable = advertisementData[CBAdvertisementDataIsConnectable] as? NSNumber
        let solicited = advertisementData[CBAdvertisementDataSolicitedServiceUUIDsKey] as? [CBUUID]
        events.append("\(name ?? "") \(manufacturer?.count ?? 0) \(serviceData?.count ?? 0) \(services?.count ?? 0) "
                      + "\(overflow?.count ?? 0) \(power?.intValue ?? 0) \(connectable?.boolValue ?? false) \(solicited?.count ?? 0) \(RSSI.intValue)")
        central.stopScan()
        self.peripheral = peripheral
        central.connect(peripheral, options: [
            CBConnectPeripheralOptionNotifyOnConnectionKey: true,
            CBConnectPeripheralOptionNotifyOnDisconnectionKey: true,
            CBConnectPeripheralOptionNotifyOnNotificationKey: true,
            CBConnectPeripheralOptionStartDelayKey: 0,
            CBConnectPeripheralOptionEnableTransportBridgingKey: false,
            CBConnectPeripheralOptionRequiresANCS: false,
            CBConnectPeripheralOptionEnableAutoReconnect: true,
        ])
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.delegate = self
        peripheral.discoverServices(nil)
        peripheral.readRSSI()
        peripheral.openL2CAPChannel(0x0080)
        let known: [CBPeripheral] = central.retrievePeripherals(withIdentifiers: [peripheral.identifier])
        let connected: [CBPeripheral] = central.retrieveConnectedPeripherals(withServices: [CBUUID(string: "180D")])
        central.registerForConnectionEvents(options: [.serviceUUIDs: [CBUUID(string: "180D")],
                                                      .peripheralUUIDs: [peripheral.identifier]])
        central.registerForConnectionEvents()
        events.append("connected \(known.count) \(connected.count) \(peripheral.ancsAuthorized)")
    }

    func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: Error?) {
        if let error = error as? CBError, error.code == .connectionTimeout { events.append("timeout") }
    }

    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: Error?) {
        events.append("disconnected")
    }

    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral,
                        timestamp: CFAbsoluteTime, isReconnecting: Bool, error: Error?) {
        events.append("disconnected at \(timestamp) \(isReconnecting)")
        if !isReconnecting { central.cancelPeripheralConnection(peripheral) }
    }

    func centralManager(_ central: CBCentralManager, connectionEventDidOccur event: CBConnectionEvent,
                        for peripheral: CBPeripheral) {
        switch event {
        case .peerConnected: events.append("peer connected")
        case .peerDisconnected: events.append("peer disconnected")
        @unknown default: break
        }
    }

    func centralManager(_ central: CBCentralManager, didUpdateANCSAuthorizationFor peripheral: CBPeripheral) {
        events.append("ancs \(peripheral.ancsAuthorized)")
    }

    // MARK: CBPeripheralDelegate

    func peripheralDidUpdateName(_ peripheral: CBPeripheral) { events.append(peripheral.name ?? "") }

    func peripheral(_ peripheral: CBPeripheral, didModifyServices invalidatedServices: [CBService]) {
        peripheral.discoverServices(invalidatedServices.map { $0.uuid })
    }

    func peripheral(_ peripheral: CBPeripheral, didReadRSSI RSSI: NSNumber, error: Error?) {
        events.append("rssi \(RSSI.intValue)")
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        for service in peripheral.services ?? [] {
            events.append("\(service.uuid) \(service.isPrimary) \(service.peripheral === peripheral)")
            peripheral.discoverIncludedServices(nil, for: service)
            peripheral.discoverCharacteristics([CBUUID(string: "2A37")], for: service)
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverIncludedServicesFor service: CBService, error: Error?) {
        events.append("included \(service.includedServices?.count ?? 0)")
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        for characteristic in service.characteristics ?? [] where characteristic.service === service {
            let properties: CBCharacteristicProperties = characteristic.properties
            if properties.contains(.read) { peripheral.readValue(for: characteristic) }
            if properties.contains(.notify) || properties.contains(.indicate) {
                peripheral.setNotifyValue(true, for: characteristic)
            }
            if properties.contains(.write) {
                peripheral.writeValue(Data([0x01]), for: characteristic, type: .withResponse)
            }
            if properties.contains(.writeWithoutResponse), peripheral.canSendWriteWithoutResponse {
                let length = peripheral.maximumWriteValueLength(for: .withoutResponse)
                peripheral.writeValue(Data(repeating: 0, count: length), for: characteristic, type: .withoutResponse)
            }
            let all: CBCharacteristicProperties = [.broadcast, .read, .writeWithoutResponse, .write, .notify, .indicate,
                                                   .authenticatedSignedWrites, .extendedProperties,
                                                   .notifyEncryptionRequired, .indicateEncryptionRequired]
            events.append("\(all.rawValue) \(characteristic.isNotifying) \(characteristic.value?.count ?? 0)")
            peripheral.discoverDescriptors(for: characteristic)
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        if let error = error as? CBATTError {
            switch error.code {
            case .insufficientAuthentication, .insufficientEncryption, .insufficientEncryptionKeySize,
                 .insufficientAuthorization: events.append("pair first")
            default: events.append("ATT \(error.errorCode)")
            }
            return
        }
        events.append("value \(characteristic.value?.count ?? 0)")
    }

    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: Error?) {
        events.append("wrote \(error == nil)")
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: Error?) {
        events.append("notifying \(characteristic.isNotifying)")
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverDescriptorsFor characteristic: CBCharacteristic, error: Error?) {
        for descriptor in characteristic.descriptors ?? [] where descriptor.characteristic === characteristic {
            if descriptor.uuid == CBUUID(string: CBUUIDCharacteristicUserDescriptionString) {
                peripheral.readValue(for: descriptor)
            }
            if descriptor.uuid.uuidString == CBUUIDClientCharacteristicConfigurationString { continue }
            peripheral.writeValue(Data([0x00]), for: descriptor)
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor descriptor: CBDescriptor, error: Error?) {
        events.append("descriptor \(descriptor.value as? String ?? "")")
    }

    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor descriptor: CBDescriptor, error: Error?) {
        events.append("wrote descriptor")
    }

    func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral) {
        events.append("ready")
    }

    func peripheral(_ peripheral: CBPeripheral, didOpen channel: CBL2CAPChannel?, error: Error?) {
        guard let channel else {
            events.append("no channel \(error?.localizedDescription ?? "")")
            return
        }
        self.channel = channel
        let psm: CBL2CAPPSM = channel.psm
        channel.inputStream.open()
        channel.outputStream.open()
        events.append("channel \(psm) \(channel.peer.identifier)")
    }
}

/// Value types, constants and error codes as iOS code uses them.
func iOSValueTypesCompile() -> [String] {
    var lines: [String] = []
    let states: [CBManagerState] = [.unknown, .resetting, .unsupported, .unauthorized, .poweredOff, .poweredOn]
    let authorizations: [CBManagerAuthorization] = [.notDetermined, .restricted, .denied, .allowedAlways]
    let peripheralStates: [CBPeripheralState] = [.disconnected, .connecting, .connected, .disconnecting]
    let writeTypes: [CBCharacteristicWriteType] = [.withResponse, .withoutResponse]
    let events: [CBConnectionEvent] = [.peerDisconnected, .peerConnected]
    lines.append("\(states.count) \(authorizations.count) \(peripheralStates.count) \(writeTypes.count) \(events.count)")

    let descriptorUUIDs = [CBUUIDCharacteristicExtendedPropertiesString, CBUUIDCharacteristicUserDescriptionString,
                           CBUUIDClientCharacteristicConfigurationString, CBUUIDServerCharacteristicConfigurationString,
                           CBUUIDCharacteristicFormatString, CBUUIDCharacteristicAggregateFormatString,
                           CBUUIDCharacteristicValidRangeString, CBUUIDL2CAPPSMCharacteristicString].map(CBUUID.init(string:))
    let fromData = CBUUID(data: Data([0x18, 0x0D]))
    let fromUUID = CBUUID(nsuuid: UUID())
    let copied = fromData.copy() as? CBUUID
    lines.append("\(descriptorUUIDs.count) \(fromData.uuidString) \(fromData.data.count) \(fromUUID) \(copied == fromData)")

    let codes: [CBError.Code] = [.unknown, .invalidParameters, .invalidHandle, .notConnected, .outOfSpace,
                                 .operationCancelled, .connectionTimeout, .peripheralDisconnected, .uuidNotAllowed,
                                 .alreadyAdvertising, .connectionFailed, .connectionLimitReached, .unknownDevice,
                                 .operationNotSupported, .peerRemovedPairingInformation, .encryptionTimedOut,
                                 .tooManyLEPairedDevices, .leGattExceededBackgroundNotificationLimit,
                                 .leGattNearBackgroundNotificationLimit]
    let cbError = CBError(.peripheralDisconnected)
    lines.append("\(codes.count) \(CBErrorDomain) \(CBError.errorDomain) \(cbError.code == CBError.peripheralDisconnected)")
    let attCodes: [CBATTError.Code] = [.success, .invalidHandle, .readNotPermitted, .writeNotPermitted, .invalidPdu,
                                       .insufficientAuthentication, .requestNotSupported, .invalidOffset,
                                       .insufficientAuthorization, .prepareQueueFull, .attributeNotFound,
                                       .attributeNotLong, .insufficientEncryptionKeySize, .invalidAttributeValueLength,
                                       .unlikelyError, .insufficientEncryption, .unsupportedGroupType,
                                       .insufficientResources]
    let attError = CBATTError(.attributeNotFound)
    lines.append("\(attCodes.count) \(CBATTErrorDomain) \(attError.code == CBATTError.attributeNotFound)")
    do {
        throw cbError
    } catch CBError.peripheralDisconnected {
        lines.append("caught by code")
    } catch let error as CBATTError where error.code == .readNotPermitted {
        lines.append("ATT \(error.localizedDescription)")
    } catch {
        lines.append((error as NSError).domain)
    }
    let option = CBConnectionEventMatchingOption(rawValue: CBConnectionEventMatchingOption.serviceUUIDs.rawValue)
    lines.append("\(option == .serviceUUIDs)")
    let timestamp: CFAbsoluteTime = Date().timeIntervalSinceReferenceDate
    lines.append("\(timestamp > 0)")
    let base: [AnyClass] = [CBManager.self, CBPeer.self, CBAttribute.self, CBService.self, CBCharacteristic.self,
                           CBDescriptor.self, CBL2CAPChannel.self]
    lines.append("\(base.count)")
    return lines
}

/// iOS 5-10 era API an older app still calls; deprecated, so only a deprecated function may use it quietly.
@available(*, deprecated, message: "Compile-only use of deprecated Apple API")
final class LegacyIOSClient: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate {
    var lines: [String] = []

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if CBCentralManagerState(rawValue: central.state.rawValue) == .poweredOn {
            central.retrievePeripherals([UUID(), UUID().uuidString])
            central.retrieveConnectedPeripherals()
        }
        lines.append("\(central.authorization.rawValue) \(CBError.unkownDevice.rawValue)")
    }

    func centralManager(_ central: CBCentralManager, didRetrievePeripherals peripherals: [CBPeripheral]) {
        for peripheral in peripherals { central.connect(peripheral, options: nil) }
    }

    func centralManager(_ central: CBCentralManager, didRetrieveConnectedPeripherals peripherals: [CBPeripheral]) {
        for peripheral in peripherals {
            peripheral.delegate = self
            peripheral.readRSSI()
        }
    }

    func peripheralDidUpdateRSSI(_ peripheral: CBPeripheral, error: Error?) {
        lines.append("rssi \(peripheral.rssi?.intValue ?? 0)")
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        lines.append("broadcast \(characteristic.isBroadcasted)")
    }

    func legacyStates() -> [CBCentralManagerState] {
        [.unknown, .resetting, .unsupported, .unauthorized, .poweredOff, .poweredOn]
    }
}
