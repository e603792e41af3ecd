// iBeacon and Eddystone UID/URL/TLM views, from a captured iBeacon and the formats' published layouts.
import OCBAdvertising
import OCBCore
import Testing

@Suite struct BeaconTests {
    @Test func iBeaconFromTheLockCapture() throws {
        // lock-legacy-adv-discovery-indications.btsnoop: tshark shows company 0x004c, data 02:15:fd:a5:06:93:...:b0.
        let ad = try #require(Hex.bytes("1aff4c000215fda50693a4e24fb1afcfc6eb0764782500050006b0"))
        let beacon = try #require(AdvertisingData(bytes: ad).iBeacon)
        #expect(beacon.proximityUUID.description == "FDA50693-A4E2-4FB1-AFCF-C6EB07647825")
        #expect(beacon.major == 5 && beacon.minor == 6 && beacon.measuredPower == -80)
        #expect(AdvertisingStructure.manufacturerSpecificData(beacon.manufacturerData).bytes == ad)
        #expect(IBeacon(ManufacturerData(companyID: 0x004C, payload: [0x02, 0x15])) == nil)
        #expect(IBeacon(ManufacturerData(companyID: 0x0059, payload: Array(ad[4...]))) == nil)
    }

    @Test func eddystoneUID() throws {
        let payload: [UInt8] = [0x00, 0xEC] + Array(1...10) + Array(11...16) + [0, 0]
        let data = AdvertisingData(structures: [.serviceData16(ServiceData(uuid: BluetoothUUID(0xFEAA), data: payload))])
        #expect(data.eddystone == .uid(rangingData: -20, namespace: Array(1...10), instance: Array(11...16)))
    }

    @Test func eddystoneURL() {
        // Scheme 0x00 "http://www.", "goo", expansion 0x07 ".com"; scheme 0x03 "https://", expansion 0x00 ".com/".
        #expect(Eddystone(serviceData: [0x10, 0xF4, 0x00, 0x67, 0x6F, 0x6F, 0x07]) == .url(txPower: -12, url: "http://www.goo.com"))
        #expect(Eddystone(serviceData: [0x10, 0x00, 0x03, 0x61, 0x00, 0x62]) == .url(txPower: 0, url: "https://a.com/b"))
        #expect(Eddystone(serviceData: [0x10, 0x00, 0x04, 0x61]) == nil)   // reserved scheme
        #expect(Eddystone(serviceData: [0x10, 0x00, 0x02, 0x0E]) == nil)   // reserved expansion code
    }

    @Test func eddystoneTLM() throws {
        // Version 0, 3000 mV, 25.5 °C (0x1980), 0x00010000 PDUs, 36000 × 0.1 s = 1 h.
        let frame: [UInt8] = [0x20, 0x00, 0x0B, 0xB8, 0x19, 0x80, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x8C, 0xA0]
        guard case .tlm(let tlm) = try #require(Eddystone(serviceData: frame)) else {
            Issue.record("not TLM")
            return
        }
        #expect(tlm.batteryMillivolts == 3000)
        #expect(tlm.temperatureCelsius == 25.5)
        #expect(tlm.advertisingCount == 0x1_0000)
        #expect(tlm.uptime == .seconds(3600))
        #expect(Eddystone(serviceData: [0x20, 0x01] + Array(frame[2...])) == nil)
        #expect(Eddystone(serviceData: Array(frame.prefix(8))) == nil)
        #expect(Eddystone(serviceData: []) == nil)
    }
}
