// Two advertisements have the same content exactly when every parsed field is equal, peer and RSSI aside.
@testable import CoreBluetooth
import OCBAdvertising
import OCBCore
import OCBHost
import Testing

@Suite struct AdvertisementReportContentTests {
    private static let peer = PeerAddress(address: BluetoothAddress("C1:A0:00:00:00:01")!, type: .random)

    /// A report with every field set, as two separate parses give it (no storage shared).
    private static func full() -> AdvertisementReport {
        var report = AdvertisementReport(peer: peer, rssi: -50, localName: "OCB Alpha",
                                         manufacturerData: ManufacturerData(companyID: 0x004C, payload: [0x02, 0x15]),
                                         serviceData: [BluetoothUUID(0x180F): [0x64]], serviceUUIDs: [BluetoothUUID(0x180D)],
                                         overflowServiceUUIDs: [BluetoothUUID(0x1812)], txPowerLevel: -4, isConnectable: true,
                                         solicitedServiceUUIDs: [BluetoothUUID(0x1805)])
        report.hasScanResponse = true
        report.isTruncated = false
        return report
    }

    @Test func equalFieldsAreTheSameContentPeerAndRSSIAside() {
        var other = Self.full()
        other.rssi = -90
        other.peer = PeerAddress(address: BluetoothAddress("C1:B0:00:00:00:02")!, type: .random)
        #expect(Self.full().hasSameContent(as: other))
    }

    @Test(arguments: 0..<10) func anyOneFieldChangedIsOtherContent(field: Int) {
        var other = Self.full()
        switch field {
        case 0: other.localName = "OCB Bravo"
        case 1: other.manufacturerData = ManufacturerData(companyID: 0x004C, payload: [0x02, 0x16])
        case 2: other.serviceData = [BluetoothUUID(0x180F): [0x63]]
        case 3: other.serviceUUIDs = [BluetoothUUID(0x180D), BluetoothUUID(0x180F)]
        case 4: other.overflowServiceUUIDs = []
        case 5: other.txPowerLevel = nil
        case 6: other.isConnectable = false
        case 7: other.solicitedServiceUUIDs = [BluetoothUUID(0x1806)]
        case 8: other.hasScanResponse = false
        default: other.isTruncated = true
        }
        #expect(!Self.full().hasSameContent(as: other))
        #expect(!other.hasSameContent(as: Self.full()))
    }
}
