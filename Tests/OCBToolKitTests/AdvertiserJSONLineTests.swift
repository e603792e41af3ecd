// cbtool scan's direct JSON line for an advertiser against the JSONValue object it replaces, byte for byte.

import FuzzSupport
import OCBAdvertising
import OCBCore
import OCBToolKit
import Testing

@Suite("advertiser JSON line")
struct AdvertiserJSONLineTests {
    /// The line `cbtool scan --json` wrote before: the object, plus "time", as JSONValue text.
    private func reference(_ snapshot: AdvertiserSnapshot, time: String) -> String {
        AdvertiserFormatter.json(snapshot, extra: ["time": .string(time)]).text
    }

    @Test("the lock capture's iBeacon advertiser, whole and truncated, gives the object's exact text")
    func lockAdvertiser() throws {
        // Frames 352/353 of lock-legacy-adv-discovery-indications.btsnoop (as in FormattingTests.advertiserIBeacon).
        let adv = AdvertisingData(bytes: Hex.bytes("0201061aff4c000215fda50693a4e24fb1afcfc6eb0764782500050006b0") ?? [])
        let scan = AdvertisingData(bytes: Hex.bytes("11070000484345544349474f4c4903180000090952444c3531383232") ?? [])
        let address = try #require(BluetoothAddress("DC:FC:77:87:35:FF"))
        var snapshot = AdvertiserSnapshot(address: address, addressType: .random, rssi: -73, isConnectable: true,
                                          advertisement: MergedAdvertisement(advertisingData: adv, scanResponse: scan))
        let time = "2026-12-02T01:40:00.123456Z"
        let line = AdvertiserFormatter.jsonLine(snapshot, time: time)
        #expect(line == reference(snapshot, time: time))
        #expect(line.hasPrefix(#"{"address":"DC:FC:77:87:35:FF","addressType":"random","appearance":null,"connectable":true,"#))
        #expect(line.contains(#""iBeacon":{"major":5,"measuredPower":-80,"minor":6,"uuid":"FDA50693-A4E2-4FB1-AFCF-C6EB07647825"}"#))
        #expect(line.contains(#""manufacturerData":[{"company":76,"companyName":"Apple, Inc.","data":"#))
        #expect(line.hasSuffix(#""time":"2026-12-02T01:40:00.123456Z","txPower":null,"type":"advertiser"}"#))
        snapshot.isTruncated = true
        #expect(AdvertiserFormatter.jsonLine(snapshot, time: time) == reference(snapshot, time: time))
        #expect(AdvertiserFormatter.jsonLine(snapshot, time: time).contains(#""time":"2026-12-02T01:40:00.123456Z","truncated":true,"txPower":null"#))
    }

    /// The scan's hot path writes the same line after what its buffer holds, with the time from microseconds.
    @Test("a line written into a batch's buffer is the line with the ISO time of its microseconds, after the lines before it")
    func lineWrittenIntoABatch() throws {
        let data = AdvertisingData(bytes: Hex.bytes("02010607ffffff4bc30000") ?? [])  // the flood's advertiser 0xC34B
        let address = try #require(BluetoothAddress("D0:00:00:00:C3:4B"))
        let snapshot = AdvertiserSnapshot(address: address, addressType: .random, rssi: -70, isConnectable: false,
                                          advertisement: MergedAdvertisement(advertisingData: data))
        var batch = LineBuffer()
        batch.append("earlier line\n")
        AdvertiserFormatter.writeJSONLine(snapshot, microsecondsSince1970: 1_796_541_149_407_999, into: &batch)
        let line = AdvertiserFormatter.jsonLine(snapshot, time: "2026-12-06T07:12:29.407Z")
        #expect(batch.text == "earlier line\n" + line)
        #expect(line.contains(#""decoded":["flags 0x06 (LE General Discoverable, BR/EDR Not Supported)","#))
        #expect(line.contains(#""data":"4bc30000""#))
    }

    @Test("3,000 seeded snapshots (names with quotes, backslashes and control bytes, Eddystone, iBeacon, nils) give the object's exact text")
    func seededSnapshots() {
        var random = FuzzRandom(seed: 13)
        let alphabet: [Character] = ["a", "Z", "\"", "\\", "\u{0}", "\u{1B}", "\n", "é", "🙂", " "]
        func text() -> String { String((0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" }) }
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) } }
        let eddystones: [[UInt8]] = [
            [0x00, 0xEC] + Array(repeating: 0x11, count: 16),  // UID, ranging -20 dBm
            [0x10, 0xEB, 0x03] + Array("example".utf8) + [0x07],  // URL https://example.com
            [0x20, 0x00, 0x0B, 0xB8, 0x15, 0x80, 0x00, 0x00, 0x03, 0xE8, 0x00, 0x00, 0x8C, 0xA0],  // TLM
        ]
        for _ in 0..<3_000 {
            var serviceData: [ServiceData] = []
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                if Bool.random(using: &random), let frame = eddystones.randomElement(using: &random) {
                    serviceData.append(ServiceData(uuid: Eddystone.serviceUUID, data: frame))
                } else {
                    serviceData.append(ServiceData(uuid: BluetoothUUID(UInt16.random(in: 0...0xFFFF, using: &random)), data: bytes(Int.random(in: 0...6, using: &random))))
                }
            }
            var manufacturer: [ManufacturerData] = []
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let beacon = Bool.random(using: &random)
                manufacturer.append(ManufacturerData(companyID: beacon ? 0x004C : UInt16.random(in: 0...0xFFFF, using: &random),
                                                     payload: beacon ? [0x02, 0x15] + bytes(21) : bytes(Int.random(in: 0...8, using: &random))))
            }
            var snapshot = AdvertiserSnapshot(
                address: Bool.random(using: &random) ? "D0:00:00:01:02:03" : text(),
                addressType: Bool.random(using: &random) ? nil : ["public", "random", "anonymous"].randomElement(using: &random),
                rssi: Bool.random(using: &random) ? nil : Int.random(in: -127...20, using: &random),
                name: Bool.random(using: &random) ? nil : text(),
                isConnectable: [nil, true, false].randomElement(using: &random) ?? nil,
                flags: Bool.random(using: &random) ? nil : UInt8.random(in: 0...0x1F, using: &random),
                serviceUUIDs: (0..<Int.random(in: 0...3, using: &random)).map { _ in BluetoothUUID(UInt16.random(in: 0...0xFFFF, using: &random)) },
                solicitedServiceUUIDs: Bool.random(using: &random) ? [] : [BluetoothUUID(0x180D)],
                serviceData: serviceData, manufacturerData: manufacturer,
                txPowerLevel: Bool.random(using: &random) ? nil : Int8.random(in: -127...20, using: &random),
                appearance: Bool.random(using: &random) ? nil : UInt16.random(in: 0...0xFFFF, using: &random))
            snapshot.isTruncated = Int.random(in: 0..<8, using: &random) == 0
            let time = text()
            let line = AdvertiserFormatter.jsonLine(snapshot, time: time)
            let expected = reference(snapshot, time: time)
            #expect(line == expected)
            if line != expected { return }  // one diff says it; 3,000 would drown it
        }
    }
}
