// The central manager over a fake backend: state, queue, misuse, scanning and connections.
import OCBHCI
import OCBCore
@testable import CoreBluetooth
import OCBHost
import Foundation
import Testing

@Test func stateUpdateComesFirstOnTheGivenQueue() {
    let h = Harness()
    #expect(h.recorder.log == ["state poweredOn"])
    #expect(h.recorder.offQueue == 0)
    #expect(h.manager.state == .poweredOn)
    #expect(h.backend.calls == ["start"])
    h.emit(.stateChanged(.poweredOn, controller: nil))
    #expect(h.recorder.log == ["state poweredOn"], "an unchanged state is not reported again")
}

@Test func nilQueueMeansTheMainQueue() {
    let manager = CBCentralManager(delegate: nil, queue: nil, options: nil, backend: FakeBackend(), stateDirectory: URL(fileURLWithPath: "/nonexistent"))
    #expect(manager.queue.label == DispatchQueue.main.label && manager.queue.label == "com.apple.main-thread")
}

@Test func defaultInitialisersUseTheInstalledBackend() throws {
    // The default factory: the host runtime, KernelHost for "hciN", HostController for tcp:/user:/serial:.
    let kernel = CBCentralManager(delegate: nil, queue: DispatchQueue(label: "x"), options: [CBCentralManagerOptionTransportKey: "hci1"])
    let kernelHost = try #require((kernel.backend as? HostCentralBackend)?.host as? KernelHost)
    #expect(kernelHost.controllerIndex == 1)
    let tcp = CBCentralManager(delegate: nil, queue: DispatchQueue(label: "y"), options: [CBCentralManagerOptionTransportKey: "tcp:127.0.0.1:9"])
    #expect((tcp.backend as? HostCentralBackend)?.host is HostController)
    // A malformed transport: no controller, .unsupported.
    let manager = CBCentralManager(delegate: nil, queue: DispatchQueue(label: "z"), options: [CBCentralManagerOptionTransportKey: "bogus"])
    manager.queue.sync {}
    manager.queue.sync {}
    #expect(manager.state == .unsupported)
}

@Test func commandsBeforePoweredOnAreRefused() {
    let h = Harness(initialState: .poweredOff)
    #expect(h.recorder.log == ["state poweredOff"])
    h.manager.scanForPeripherals(withServices: nil)
    h.flush()
    #expect(!h.manager.isScanning)
    #expect(h.backend.calls == ["start"])
}

@Test func scanReportsOncePerPeripheralAsAppleCoalesces() {
    let h = Harness()
    h.manager.scanForPeripherals(withServices: nil, options: nil)
    h.flush()
    #expect(h.manager.isScanning)
    #expect(h.backend.calls.last == "startScan services=nil dup=false sol=[]")
    let report = AdvertisementReport(peer: Harness.peer, rssi: -70, localName: "Sensor", isConnectable: true)
    h.emit(.advertisement(report))
    var louder = report
    louder.rssi = -50
    h.emit(.advertisement(louder))
    #expect(h.recorder.log.dropFirst() == ["discover Sensor -70"], "only RSSI changed: no second report")
    var renamed = report
    renamed.localName = "Sensor 2"
    h.emit(.advertisement(renamed))
    #expect(h.recorder.log.dropFirst() == ["discover Sensor -70"], "changed data without a new scan response: coalesced")
    var completed = report
    completed.hasScanResponse = true
    h.emit(.advertisement(completed))
    #expect(h.recorder.log.last == "discover Sensor -70")
    #expect(h.recorder.discovered.count == 2)
    #expect(h.recorder.discovered[0].0 === h.recorder.discovered[1].0, "same peripheral object")
    h.manager.stopScan()
    h.flush()
    #expect(!h.manager.isScanning && h.backend.calls.last == "stopScan")
    h.emit(.advertisement(report))
    #expect(h.recorder.discovered.count == 2, "no discovery after stopScan")
}

@Test func allowDuplicatesReportsEveryAdvertisement() {
    let h = Harness()
    h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
    h.flush()
    let report = AdvertisementReport(peer: Harness.peer, rssi: -70, isConnectable: false)
    h.emit(.advertisement(report))
    h.emit(.advertisement(report))
    #expect(h.recorder.discovered.count == 2)
    #expect(h.backend.calls.last == "startScan services=nil dup=true sol=[]")
}

@Test func serviceAndSolicitationFilters() {
    let h = Harness()
    h.manager.scanForPeripherals(withServices: [CBUUID(string: "180D")],
                                 options: [CBCentralManagerScanOptionSolicitedServiceUUIDsKey: [CBUUID(string: "1812")]])
    h.flush()
    #expect(h.backend.calls.last == "startScan services=[180D] dup=false sol=[1812]")
    let other = PeerAddress(address: BluetoothAddress("11:22:33:44:55:66")!, type: .public)
    let third = PeerAddress(address: BluetoothAddress("11:22:33:44:55:77")!, type: .public)
    h.emit(.advertisement(AdvertisementReport(peer: other, rssi: -40, serviceUUIDs: [BluetoothUUID(0x180F)], isConnectable: true)))
    #expect(h.recorder.discovered.isEmpty)
    h.emit(.advertisement(AdvertisementReport(peer: Harness.peer, rssi: -41, serviceUUIDs: [BluetoothUUID(0x180F), BluetoothUUID(0x180D)], isConnectable: true)))
    h.emit(.advertisement(AdvertisementReport(peer: third, rssi: -42, isConnectable: true, solicitedServiceUUIDs: [BluetoothUUID(0x1812)])))
    #expect(h.recorder.discovered.map(\.2) == [-41, -42])
}

@Test func advertisementDataHasApplesKeysAndTypes() throws {
    let h = Harness()
    h.manager.scanForPeripherals(withServices: nil)
    h.flush()
    h.emit(.advertisement(AdvertisementReport(
        peer: Harness.peer, rssi: -66, localName: "Thermo",
        manufacturerData: .init(companyID: 0x004C, payload: [0x02, 0x15]),
        serviceData: [BluetoothUUID(0xFEAA): [0x10, 0x00]], serviceUUIDs: [BluetoothUUID(0x1809)],
        txPowerLevel: -8, isConnectable: true, solicitedServiceUUIDs: [BluetoothUUID(0x1812)])))
    let (peripheral, data, rssi) = try #require(h.recorder.discovered.first)
    #expect(rssi == NSNumber(value: -66) && rssi.intValue == -66)
    #expect(data[CBAdvertisementDataLocalNameKey] as? String == "Thermo")
    #expect(data[CBAdvertisementDataManufacturerDataKey] as? Data == Data([0x4C, 0x00, 0x02, 0x15]))
    #expect((data[CBAdvertisementDataServiceDataKey] as? [CBUUID: Data])?[CBUUID(string: "FEAA")] == Data([0x10, 0x00]))
    #expect(data[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID] == [CBUUID(string: "1809")])
    #expect(data[CBAdvertisementDataSolicitedServiceUUIDsKey] as? [CBUUID] == [CBUUID(string: "1812")])
    #expect((data[CBAdvertisementDataTxPowerLevelKey] as? NSNumber)?.intValue == -8)
    #expect(data[CBAdvertisementDataTxPowerLevelKey] as? Int == -8)
    #expect(data[CBAdvertisementDataIsConnectable] as? Bool == true)
    #expect(data[CBAdvertisementDataOverflowServiceUUIDsKey] == nil)
    #expect(peripheral.name == "Thermo")
    // Identifier: version-5 UUID of "<controller>/<device>/<type>" (see PeripheralIdentifier).
    #expect(peripheral.identifier == PeripheralIdentifier.version5(name: "00:1A:7D:DA:71:13/C0:11:22:33:44:55/1"))
    #expect(peripheral.identifier.uuidString.dropFirst(14).first == "5", "version 5")
}

@Test func anUnavailableRSSIIsReportedAs127AsOnIOS() {
    let h = Harness()
    h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
    h.flush()
    // RSSI 127: "not available" (Core v5.4 Vol 4 Part E §7.7.65.2); the backend passes it as nil.
    h.emit(.advertisement(AdvertisementReport(peer: Harness.peer, rssi: nil, isConnectable: true)))
    h.emit(.advertisement(AdvertisementReport(peer: Harness.peer, rssi: -55, isConnectable: true)))
    h.emit(.advertisement(AdvertisementReport(peer: Harness.peer, rssi: 127, isConnectable: true)))
    #expect(h.recorder.discovered.map(\.2) == [127, -55, 127], "every report is a discovery; 127 where there is no RSSI")
}

@Test func connectAndCancel() throws {
    let h = Harness()
    let peripheral = try #require(h.discover())
    #expect(peripheral.state == .disconnected)
    h.manager.connect(peripheral)
    h.flush()
    #expect(peripheral.state == .connecting)
    #expect(h.backend.calls.last == "connect C0:11:22:33:44:55")
    h.backend.mtu = 247; h.emit(.connected(Harness.peer, mtu: h.backend.linkMTU))
    #expect(peripheral.state == .connected)
    #expect(peripheral.maximumWriteValueLength(for: .withoutResponse) == 244)
    #expect(peripheral.maximumWriteValueLength(for: .withResponse) == 512)
    #expect(h.manager.retrieveConnectedPeripherals(withServices: []) == [peripheral])
    #expect(h.manager.retrievePeripherals(withIdentifiers: [peripheral.identifier, UUID()]) == [peripheral])
    h.manager.cancelPeripheralConnection(peripheral)
    h.flush()
    #expect(peripheral.state == .disconnecting)
    #expect(h.backend.calls.last == "cancel C0:11:22:33:44:55")
    h.emit(.disconnected(Harness.peer, reason: HCIErrorCode(rawValue: 0x16)))
    #expect(peripheral.state == .disconnected)
    #expect(h.recorder.log.suffix(2) == ["connect", "disconnect"], "nil error after cancel")
    #expect(h.recorder.errors.isEmpty)
    #expect(h.recorder.offQueue == 0)
}

@Test func failedConnectAndRemoteDisconnectGiveCBErrors() throws {
    let h = Harness()
    let peripheral = try #require(h.discover())
    h.manager.connect(peripheral)
    h.flush()
    h.emit(.connectionFailed(Harness.peer, reason: HCIErrorCode(rawValue: 0x3E)))
    #expect(h.recorder.log.last == "failToConnect error=CB.10")
    #expect(peripheral.state == .disconnected)
    h.manager.connect(peripheral)
    h.flush()
    h.backend.mtu = 23; h.emit(.connected(Harness.peer, mtu: h.backend.linkMTU))
    h.emit(.disconnected(Harness.peer, reason: HCIErrorCode(rawValue: 0x13)))
    #expect(h.recorder.log.last == "disconnect error=CB.7")
    h.manager.connect(peripheral)
    h.flush()
    h.backend.mtu = 23; h.emit(.connected(Harness.peer, mtu: h.backend.linkMTU))
    h.emit(.disconnected(Harness.peer, reason: HCIErrorCode(rawValue: 0x08)))
    #expect(h.recorder.log.last == "disconnect error=CB.6")
}

@Test func autoReconnectReportsReconnectingAndConnectsAgain() throws {
    final class Timestamps: NSObject, CBCentralManagerDelegate, @unchecked Sendable {
        var calls: [(Bool, Int?)] = []
        func centralManagerDidUpdateState(_ central: CBCentralManager) {}
        func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral,
                            timestamp: CFAbsoluteTime, isReconnecting: Bool, error: (any Error)?) {
            calls.append((isReconnecting, error.map { ($0 as NSError).code }))
        }
        func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: (any Error)?) {
            Issue.record("the iOS 17 variant replaces this one when implemented")
        }
    }
    let h = Harness()
    let timestamps = Timestamps()
    let peripheral = try #require(h.discover())
    h.manager.delegate = timestamps
    h.manager.connect(peripheral, options: [CBConnectPeripheralOptionEnableAutoReconnect: true])
    h.flush()
    h.backend.mtu = 23; h.emit(.connected(Harness.peer, mtu: h.backend.linkMTU))
    h.emit(.disconnected(Harness.peer, reason: HCIErrorCode(rawValue: 0x08)))
    #expect(timestamps.calls.count == 1 && timestamps.calls[0].0 == true && timestamps.calls[0].1 == 6)
    #expect(peripheral.state == .connecting)
    #expect(h.backend.calls.filter { $0.hasPrefix("connect") }.count == 2)
}

@Test func autoReconnectIsNotClaimedWhenTheControllerIsLost() throws {
    let h = Harness()
    let peripheral = try #require(h.discover())
    h.manager.connect(peripheral, options: [CBConnectPeripheralOptionEnableAutoReconnect: true])
    h.flush()
    h.backend.mtu = 23; h.emit(.connected(Harness.peer, mtu: h.backend.linkMTU))
    h.emit(.disconnected(Harness.peer, reason: HCIErrorCode(rawValue: 0x16), error: .controllerLost))
    #expect(h.recorder.log.last == "disconnect error=CB.7", "isReconnecting false: the peripheral goes with the controller")
    #expect(peripheral.state == .disconnected)
    #expect(h.backend.calls.filter { $0.hasPrefix("connect") }.count == 1, "no reconnection attempt")
}

@Test func powerLossStopsScanningEndsConnectionsAndFailsRequests() throws {
    let h = Harness()
    let (peripheral, characteristics) = try #require(h.explored())
    let rate = try #require(characteristics["2A38"])
    peripheral.readValue(for: rate)
    h.flush()
    h.manager.scanForPeripherals(withServices: nil)
    h.flush()
    h.emit(.stateChanged(.poweredOff, controller: nil))
    #expect(!h.manager.isScanning)
    #expect(peripheral.state == .disconnected)
    #expect(peripheral.services == nil && !rate.isValid)
    #expect(h.recorder.log.suffix(2) == ["value 2A38 nil error=CB.7", "state poweredOff"], "no didDisconnect on power loss")
}

@Test func deprecatedRetrieveCallbacks() throws {
    let h = Harness()
    let peripheral = try #require(h.connected())
    h.manager.deprecated.retrieveOld([peripheral.identifier, "not a uuid"])
    h.manager.deprecated.retrieveConnectedOld()
    h.flush()
    #expect(h.recorder.log.suffix(2) == ["retrieved 1", "retrievedConnected 1"])
}

@Test func plainInitialiserMakesAManager() {
    let manager = CBCentralManager()
    #expect(manager.delegate == nil && manager.queue.label == "com.apple.main-thread")
}

@Test func aDisconnectAfterAnATTTimeoutReachesTheAppAsConnectionTimeout() throws {
    let h = Harness()
    let peripheral = try #require(h.discover())
    h.manager.connect(peripheral)
    h.flush()
    h.backend.mtu = 23; h.emit(.connected(Harness.peer, mtu: h.backend.linkMTU))
    // The host ended the link after 30 s without an ATT response (Vol 3 Part F §3.3.3); Disconnection Complete 0x16.
    h.emit(.disconnected(Harness.peer, reason: HCIErrorCode(rawValue: 0x16), error: .timeout))
    #expect(h.recorder.log.last == "disconnect error=CB.6")
    let error = try #require(h.recorder.errors.last as? CBError)
    #expect(error.code == .connectionTimeout)
    #expect(error.userInfo["OCBBackendReason"] as? String == "ATT transaction timed out (no response within 30 s)")
    #expect(error.userInfo["OCBHCIReason"] as? String == "0x16")
    #expect(peripheral.state == .disconnected)
}

/// The app's requests go to the backend from the thread that makes them, as iOS sends them to bluetoothd: a delegate
/// queue busy with a flood's discoveries (here: blocked) holds neither a connect, a scan change, a read nor a cancel.
@Test func requestsReachTheBackendWhileTheDelegateQueueIsBusy() throws {
    let h = Harness()
    let peripheral = try #require(h.discover())
    peripheral.delegate = h.recorder
    func whileBusy(_ body: () -> Void) {
        let busy = DispatchSemaphore(value: 0)
        h.queue.async { busy.wait() }
        body()
        busy.signal()
        h.flush()
    }
    whileBusy {
        h.manager.connect(peripheral)
        #expect(h.backend.calls.last == "connect C0:11:22:33:44:55")
    }
    h.backend.mtu = 185; h.emit(.connected(Harness.peer, mtu: h.backend.linkMTU))
    #expect(peripheral.state == .connected)
    whileBusy {
        h.manager.stopScan()
        #expect(h.backend.calls.last == "stopScan")
        h.manager.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        #expect(h.backend.calls.last == "startScan services=nil dup=true sol=[]")
        peripheral.readRSSI()
        #expect(h.backend.calls.last == "readRSSI")
    }
    // The answer still comes on the delegate queue.
    h.respond(to: "readRSSI", .rssi(-42))
    #expect(h.recorder.log.last == "rssi -42")
    #expect(h.recorder.offQueue == 0)
    whileBusy {
        h.manager.cancelPeripheralConnection(peripheral)
        #expect(h.backend.calls.last == "cancel C0:11:22:33:44:55")
    }
}

/// didDiscover's RSSI: the value in dBm as an NSNumber, one shared object per value an HCI report can carry (−128 to
/// 127, 127 "not available", Core v5.4 Vol 4 Part E §7.7.65.2), a new one outside that range.
@Test func theRSSINumberIsTheValueAndSharedWithinTheHCIRange() {
    #expect(CBCentralManager.dBmNumber(-60).intValue == -60)
    #expect(CBCentralManager.dBmNumber(-60) === CBCentralManager.dBmNumber(-60))
    #expect(CBCentralManager.dBmNumber(127).intValue == 127 && CBCentralManager.dBmNumber(-128).intValue == -128)
    #expect(CBCentralManager.dBmNumber(500).intValue == 500)
    let h = Harness()
    h.manager.scanForPeripherals(withServices: nil, options: nil)
    h.flush()
    h.emit(.advertisement(AdvertisementReport(peer: Harness.peer, rssi: -71, localName: "Sensor", isConnectable: true)))
    #expect(h.recorder.discovered.last?.2 == -71)
}
