// Raw values and shapes of the CB value types, checked against Apple's SDK headers and the Core specification.
import OCBCore
@testable import CoreBluetooth
import Foundation
import Testing

@Test func managerAndPeripheralStatesHaveApplesRawValues() {
    #expect([CBManagerState.unknown, .resetting, .unsupported, .unauthorized, .poweredOff, .poweredOn].map(\.rawValue) == [0, 1, 2, 3, 4, 5])
    #expect([CBPeripheralState.disconnected, .connecting, .connected, .disconnecting].map(\.rawValue) == [0, 1, 2, 3])
    #expect([CBManagerAuthorization.notDetermined, .restricted, .denied, .allowedAlways].map(\.rawValue) == [0, 1, 2, 3])
    #expect(CBCharacteristicWriteType.withResponse.rawValue == 0 && CBCharacteristicWriteType.withoutResponse.rawValue == 1)
}

@Test func characteristicPropertiesMatchTheDeclarationBits() {
    // Core v5.4 Vol 3 Part G §3.3.1.1, Table 3.5.
    let expected: [(CBCharacteristicProperties, UInt)] = [
        (.broadcast, 0x01), (.read, 0x02), (.writeWithoutResponse, 0x04), (.write, 0x08), (.notify, 0x10), (.indicate, 0x20),
        (.authenticatedSignedWrites, 0x40), (.extendedProperties, 0x80), (.notifyEncryptionRequired, 0x100), (.indicateEncryptionRequired, 0x200),
    ]
    for (property, raw) in expected { #expect(property.rawValue == raw) }
    #expect(CBCharacteristicProperties(rawValue: 0x12) == [.read, .notify])
}

@Test func backgroundNotificationLimitCodesHaveApplesRawValues() {
    // CBError.h (iOS 16.4+ SDK): CBErrorLeGattExceededBackgroundNotificationLimit = 17, ...NearBackground... = 18.
    #expect(CBError.Code.leGattExceededBackgroundNotificationLimit.rawValue == 17)
    #expect(CBError.Code.leGattNearBackgroundNotificationLimit.rawValue == 18)
    #expect(CBError.Code(rawValue: 17) == .leGattExceededBackgroundNotificationLimit)
    #expect(CBError.Code(rawValue: 18) == CBError.leGattNearBackgroundNotificationLimit)
    #expect(CBError.Code(rawValue: 19) == nil)
    let ns = CBError(.leGattExceededBackgroundNotificationLimit) as NSError
    #expect(ns.domain == "CBErrorDomain" && ns.code == 17)
}

@Test func cbErrorBridgesToNSErrorAndMatchesInCatch() {
    #expect(CBError.Code.peripheralDisconnected.rawValue == 7)
    #expect(CBError.Code.unknownDevice.rawValue == 12 && CBError.unknownDevice == .unknownDevice)
    #expect(CBError.Code.tooManyLEPairedDevices.rawValue == 16 && CBError.Code.connectionLimitReached.rawValue == 11)
    let error: any Error = CBError(.peripheralDisconnected)
    let ns = error as NSError
    #expect(ns.domain == CBErrorDomain && CBErrorDomain == "CBErrorDomain" && ns.code == 7)
    #expect(error.localizedDescription == "The specified device has disconnected from us.")
    var caught = false
    do { throw error } catch let error as CBError where error.code == .peripheralDisconnected { caught = true } catch {}
    #expect(caught)
    switch error {
    case CBError.peripheralDisconnected: break
    default: Issue.record("pattern did not match")
    }
}

@Test func attErrorsKeepTheCodeOnAir() {
    #expect(CBATTError.Code.insufficientResources.rawValue == 0x11 && CBATTError.Code.readNotPermitted.rawValue == 2)
    #expect(CBATTError.Code.insufficientEncryption.rawValue == 0x0F && CBATTError.Code.unsupportedGroupType.rawValue == 0x10)
    let ns = CBATTError(attErrorCode: 0x05) as NSError
    #expect(ns.domain == "CBATTErrorDomain" && ns.code == 5)
    #expect(CBATTError(attErrorCode: 0x05).code == .insufficientAuthentication)
    let application = CBATTError(attErrorCode: 0x80)
    #expect((application as NSError).code == 0x80 && application.code == .unlikelyError)
}

@Test func uuidTextDataAndEquality() {
    let short = CBUUID(string: "180d")
    #expect(short.uuidString == "180D")
    #expect([UInt8](short.data) == [0x18, 0x0D])
    #expect(short == CBUUID(string: "0000180D-0000-1000-8000-00805F9B34FB"))
    #expect(short.hash == CBUUID(string: "0000180D-0000-1000-8000-00805F9B34FB").hash)
    #expect(CBUUID(data: Data([0x18, 0x0D])) == short)
    #expect(CBUUID(string: "12345678").uuidString == "12345678" && CBUUID(string: "12345678").data.count == 4)
    let long = CBUUID(string: CBUUIDL2CAPPSMCharacteristicString)
    #expect(long.uuidString == "ABDD3056-28FA-441D-A470-55A75A52553A" && long.data.count == 16)
    let nsuuid = UUID(uuidString: "ABDD3056-28FA-441D-A470-55A75A52553A")!
    #expect(CBUUID(nsuuid: nsuuid) == long)
    #expect(Set([CBUUID(string: "2902"), CBUUID(string: CBUUIDClientCharacteristicConfigurationString)]).count == 1)
}

@Test func malformedUUIDInputDoesNotTrap() {
    #expect(CBUUID(validating: "not a uuid") == nil)
    #expect(CBUUID(validating: "180D") == CBUUID(string: "180D"))
    let zero = CBUUID(string: "xyz")
    #expect(zero.uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(CBUUID(data: Data([1, 2, 3])).uuidString == "00000000-0000-0000-0000-000000000000")
}

@Test func descriptorConstantsAreTheSIGValues() {
    #expect([CBUUIDCharacteristicExtendedPropertiesString, CBUUIDCharacteristicUserDescriptionString,
             CBUUIDClientCharacteristicConfigurationString, CBUUIDServerCharacteristicConfigurationString,
             CBUUIDCharacteristicFormatString, CBUUIDCharacteristicAggregateFormatString,
             CBUUIDCharacteristicValidRangeString] == ["2900", "2901", "2902", "2903", "2904", "2905", "2906"])
}

@Test func keysHaveApplesRawValues() {
    #expect(CBAdvertisementDataLocalNameKey == "kCBAdvDataLocalName")
    #expect(CBAdvertisementDataManufacturerDataKey == "kCBAdvDataManufacturerData")
    #expect(CBAdvertisementDataServiceDataKey == "kCBAdvDataServiceData")
    #expect(CBAdvertisementDataServiceUUIDsKey == "kCBAdvDataServiceUUIDs")
    #expect(CBAdvertisementDataTxPowerLevelKey == "kCBAdvDataTxPowerLevel")
    #expect(CBAdvertisementDataIsConnectable == "kCBAdvDataIsConnectable")
    #expect(CBAdvertisementDataSolicitedServiceUUIDsKey == "kCBAdvDataSolicitedServiceUUIDs")
    #expect(CBCentralManagerScanOptionAllowDuplicatesKey == "kCBScanOptionAllowDuplicates")
    #expect(CBCentralManagerScanOptionSolicitedServiceUUIDsKey == "kCBScanOptionSolicitedServiceUUIDs")
    #expect(CBCentralManagerOptionShowPowerAlertKey == "kCBInitOptionShowPowerAlert")
    #expect(CBCentralManagerOptionRestoreIdentifierKey == "kCBInitOptionRestoreIdentifier")
    #expect(CBCentralManagerRestoredStatePeripheralsKey == "kCBRestoredPeripherals")
    #expect(CBCentralManagerRestoredStateScanServicesKey == "kCBRestoredScanServices")
    #expect(CBCentralManagerRestoredStateScanOptionsKey == "kCBRestoredScanOptions")
    #expect(CBConnectPeripheralOptionNotifyOnDisconnectionKey == "kCBConnectOptionNotifyOnDisconnection")
}

@Test func transportSyntax() {
    #expect(CentralTransport(parsing: "hci0") == .hciSocket(controller: 0, channel: .raw))
    #expect(CentralTransport(parsing: "user:hci1") == .hciSocket(controller: 1, channel: .user))
    #expect(CentralTransport(parsing: "tcp:127.0.0.1:6402") == .tcp(host: "127.0.0.1", port: 6402))
    #expect(CentralTransport(parsing: "replay:Fixtures/a:b.btsnoop") == .replay(path: "Fixtures/a:b.btsnoop", mode: .strict))
    #expect(CentralTransport(parsing: "replay-tolerant:/tmp/x.pcapng") == .replay(path: "/tmp/x.pcapng", mode: .tolerant))
    #expect(CentralTransport(parsing: "replay-tolerant:/tmp/x.pcapng")?.description == "replay-tolerant:/tmp/x.pcapng")
    #expect(CentralTransport(parsing: "serial:/dev/ttyUSB0@1000000") == .serial(path: "/dev/ttyUSB0", baudRate: 1_000_000))
    #expect(CentralTransport(parsing: "serial:/dev/ttyACM0") == .serial(path: "/dev/ttyACM0", baudRate: 115_200))
    for bad in ["", "hci", "hcix", "replay:", "replay-tolerant:", "tcp:host", "tcp::1", "tcp:h:0", "tcp:h:99999", "serial:tty@", "serial:/dev/x@-5", "usb:1"] {
        #expect(CentralTransport(parsing: bad) == nil, "\(bad)")
    }
}

@Test func sha1AndVersion5MatchPublishedVectors() {
    // FIPS 180-4 example "abc" (libcrypto computes it; the test checks the wiring), and the empty message.
    #expect(Hex.string(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    #expect(Hex.string(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    // 56-byte message crossing the padding boundary (FIPS 180-4 example 2).
    #expect(Hex.string(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    // RFC 9562 Appendix A.4: v5 of "www.example.com" in the DNS namespace.
    let dns = UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!.uuid
    let namespace = [dns.0, dns.1, dns.2, dns.3, dns.4, dns.5, dns.6, dns.7, dns.8, dns.9, dns.10, dns.11, dns.12, dns.13, dns.14, dns.15]
    #expect(PeripheralIdentifier.version5(namespace: namespace, name: "www.example.com").uuidString == "2ED6657D-E927-568B-95E1-2665A8AEA6A2")
}

@Test func descriptorValuesHaveApplesTypes() {
    #expect(CBDescriptor.typedValue(uuid: BluetoothUUID(0x2902), bytes: [0x01, 0x00]) as? NSNumber == NSNumber(value: 1))
    #expect(CBDescriptor.typedValue(uuid: BluetoothUUID(0x2901), bytes: Array("Rate".utf8)) as? String == "Rate")
    #expect(CBDescriptor.typedValue(uuid: BluetoothUUID(0x2904), bytes: [0x04, 0x00]) as? Data == Data([0x04, 0x00]))
    #expect(CBDescriptor.typedValue(uuid: BluetoothUUID(0x2900), bytes: [0x01]) as? Data == Data([0x01]))
}
