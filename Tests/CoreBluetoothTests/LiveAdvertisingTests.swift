// Integration: the manager's state and the advertisement data of the virtual peer's four advertisers (Tests/Peer/README.md).
@testable import CoreBluetooth
import Foundation
import Glibc
import PeerSupport
import Testing

extension LiveSuite {
    /// Checks one discovery's advertisement data against the peer's constants (merged with the scan response).
    static func expectAdvertisement(_ central: LiveCentral, _ name: String, rssi: Int, localName: String?, services: [String],
                                    serviceData: [String: [UInt8]], manufacturer: [UInt8]?, txPower: Int?, connectable: Bool) {
        guard let (data, measured) = central.lastDiscovery(named: name) else {
            Issue.record("\(name) was not discovered")
            return
        }
        #expect(measured.intValue == rssi, "\(name) RSSI")
        #expect(data[CBAdvertisementDataLocalNameKey] as? String == localName, "\(name) local name")
        #expect((data[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID] ?? []).map(\.uuidString) == services, "\(name) services")
        let decodedServiceData = (data[CBAdvertisementDataServiceDataKey] as? [CBUUID: Data] ?? [:])
            .reduce(into: [String: [UInt8]]()) { $0[$1.key.uuidString] = [UInt8]($1.value) }
        #expect(decodedServiceData == serviceData, "\(name) service data")
        #expect((data[CBAdvertisementDataManufacturerDataKey] as? Data).map { [UInt8]($0) } == manufacturer, "\(name) manufacturer data")
        #expect((data[CBAdvertisementDataTxPowerLevelKey] as? NSNumber)?.intValue == txPower, "\(name) TX power")
        #expect((data[CBAdvertisementDataIsConnectable] as? NSNumber)?.boolValue == connectable, "\(name) connectable")
    }

    @Test func kernelSocketOnThisMachineIsUnsupported() throws {
        // The default transport, hci0 on the kernel socket. Without AF_BLUETOOTH (EAFNOSUPPORT) iOS's answer is .unsupported.
        let probe = socket(31 /* AF_BLUETOOTH */, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 1 /* BTPROTO_HCI */)
        let unsupported = probe < 0 && errno == EAFNOSUPPORT
        if probe >= 0 { close(probe) }
        try #require(unsupported, "this test needs a kernel without AF_BLUETOOTH")
        let central = LiveCentral(transport: "hci0")
        #expect(central.wait { $0.hasPrefix("state ") } == "state unsupported")
        #expect(central.manager.state == .unsupported)
        central.manager.scanForPeripherals(withServices: nil)
        #expect(!central.manager.isScanning, "commands are refused below poweredOn")
    }

    /// Scans with the default options on controller 0 and checks every advertiser's data (also used by the scenario).
    static func scanAll(_ central: LiveCentral) {
        #expect(central.wait { $0.hasPrefix("state ") } == "state poweredOn")
        central.manager.scanForPeripherals(withServices: nil, options: nil)
        #expect(central.manager.isScanning)
        let names = ["OCB Alpha", "OCB Bravo"]
        let found = poll(within: 5) {
            let seen = central.queue.sync { central.recorder.discovered.map { ($0.0.name, ($0.1[CBAdvertisementDataManufacturerDataKey] as? Data)?.first) } }
            return names.allSatisfy { name in seen.contains { $0.0 == name } }
                && seen.contains { $0.1 == 0x4C } && seen.contains { $0.0 == nil && $0.1 == nil }
        }
        #expect(found, "all four advertisers discovered")
        // Give each a moment to be reported with its scan response (reports change only when the data changes).
        _ = poll(within: 2) { (central.lastDiscovery(named: "OCB Bravo")?.0[CBAdvertisementDataManufacturerDataKey]) != nil }
        central.manager.stopScan()
        #expect(!central.manager.isScanning)

        expectAdvertisement(central, "OCB Alpha", rssi: -45, localName: "OCB Alpha",
                            services: ["180D", "180F", alphaUUID("0001")], serviceData: ["180F": [0x64]],
                            manufacturer: [0xFF, 0xFF, 0x0C, 0xB1, 0x01], txPower: -8, connectable: true)
        expectAdvertisement(central, "OCB Bravo", rssi: -60, localName: "OCB Bravo",
                            services: ["0CB20001-7E57-4C0D-A9E5-0123456789AB", "180A", "180F"], serviceData: ["180A": [0x01, 0x02]],
                            manufacturer: [0xFF, 0xFF, 0x0C, 0xB2, 0x02, 0xB0], txPower: 0, connectable: true)
        // The beacons have no name: find them by their data.
        let beacons = central.queue.sync { central.recorder.discovered.filter { $0.0.name == nil } }
        let iBeacon = beacons.last { ($0.1[CBAdvertisementDataManufacturerDataKey] as? Data)?.first == 0x4C }
        #expect(iBeacon.map { [UInt8]($0.1[CBAdvertisementDataManufacturerDataKey] as? Data ?? Data()) } == [
            0x4C, 0x00, 0x02, 0x15, 0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0,
            0x01, 0x02, 0x03, 0x04, 0xC5,
        ], "iBeacon: company 0x004C little-endian first, type 02 15, UUID, major, minor, measured power -59")
        #expect(iBeacon?.2.intValue == -70)
        #expect((iBeacon?.1[CBAdvertisementDataIsConnectable] as? NSNumber)?.boolValue == false)
        #expect(iBeacon?.1[CBAdvertisementDataLocalNameKey] == nil)
        let eddystone = beacons.last { ($0.1[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID])?.first == CBUUID(string: "FEAA") }
        let frame = (eddystone?.1[CBAdvertisementDataServiceDataKey] as? [CBUUID: Data])?[CBUUID(string: "FEAA")]
        #expect(frame.map { [UInt8]($0) } == [0x10, 0xEB, 0x03] + Array("example".utf8) + [0x07], "Eddystone-URL frame")
        #expect(eddystone?.2.intValue == -75)
        #expect((eddystone?.1[CBAdvertisementDataIsConnectable] as? NSNumber)?.boolValue == false)
    }
}
