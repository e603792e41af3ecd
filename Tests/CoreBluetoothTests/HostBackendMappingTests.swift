// HostCentralBackend's pure mappings: scan options, discoveries to advertisement reports, GATT and host errors.
import OCBATT
import OCBAdvertising
import OCBCore
@testable import CoreBluetooth
import Foundation
import FuzzSupport
import OCBGATT
import OCBHCI
import OCBHost
import Testing

@Test func scanOptionsAreActiveAndLeaveSolicitationToTheFacade() {
    let plain = HostCentralBackend.scanOptions(ScanParameters(services: [BluetoothUUID(0x180D)], allowDuplicates: false, solicitedServices: []))
    #expect(plain.isActive && !plain.controllerFiltersDuplicates && plain.hostFiltersDuplicates)
    #expect(plain.services == [BluetoothUUID(0x180D)])
    let solicited = HostCentralBackend.scanOptions(ScanParameters(services: [BluetoothUUID(0x180D)], allowDuplicates: true,
                                                                  solicitedServices: [BluetoothUUID(0x1812)]))
    #expect(solicited.services.isEmpty, "a solicitation-only match must reach the facade")
    #expect(!solicited.hostFiltersDuplicates)
}

@Test func discoveryBecomesTheMergedReport() {
    // Bravo's advertising data and scan response (Tests/Peer/README.md, Core Supplement v11 Part A §1).
    let advertising: [UInt8] = [0x02, 0x01, 0x06,
                                0x11, 0x06, 0xAB, 0x89, 0x67, 0x45, 0x23, 0x01, 0xE5, 0xA9, 0x0D, 0x4C, 0x57, 0x7E, 0x01, 0x00, 0xB2, 0x0C,
                                0x02, 0x0A, 0x00, 0x06, 0x08] + Array("Bravo".utf8)
    let response: [UInt8] = [0x0A, 0x09] + Array("OCB Bravo".utf8)
        + [0x05, 0x02, 0x0A, 0x18, 0x0F, 0x18]
        + [0x07, 0xFF, 0xFF, 0xFF, 0x0C, 0xB2, 0x02, 0xB0]
        + [0x05, 0x16, 0x0A, 0x18, 0x01, 0x02]
    let peer = PeerAddress(address: BluetoothAddress("C1:B0:00:00:00:02")!, type: .random)
    let device = DiscoveredDevice(peer: peer, rssi: nil, isConnectable: true, advertisingData: advertising, scanResponseData: response)
    let report = report(of: device)
    #expect(report.rssi == nil, "127 (unavailable) arrives as nil")
    #expect(report.localName == "OCB Bravo", "complete name of the scan response beats the shortened one")
    #expect(report.serviceUUIDs == [BluetoothUUID("0CB20001-7E57-4C0D-A9E5-0123456789AB")!, BluetoothUUID(0x180A), BluetoothUUID(0x180F)])
    #expect(report.serviceData == [BluetoothUUID(0x180A): [0x01, 0x02]])
    #expect(report.txPowerLevel == 0)
    #expect(report.isConnectable)
    let advertisementData = CBCentralManager.advertisementData(report)
    #expect((advertisementData[CBAdvertisementDataManufacturerDataKey] as? Data).map { [UInt8]($0) } == [0xFF, 0xFF, 0x0C, 0xB2, 0x02, 0xB0],
            "company identifier 0xFFFF little-endian first, as iOS gives it")
    // Apple's keys and value types, and nothing else: no truncation, overflow or solicitation to report.
    #expect(Set(advertisementData.keys) == [CBAdvertisementDataLocalNameKey, CBAdvertisementDataManufacturerDataKey,
                                            CBAdvertisementDataServiceDataKey, CBAdvertisementDataServiceUUIDsKey,
                                            CBAdvertisementDataTxPowerLevelKey, CBAdvertisementDataIsConnectable])
    #expect(advertisementData[CBAdvertisementDataLocalNameKey] as? String == "OCB Bravo")
    #expect((advertisementData[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID])?.map(\.uuidString)
            == ["0CB20001-7E57-4C0D-A9E5-0123456789AB", "180A", "180F"])
    #expect((advertisementData[CBAdvertisementDataServiceDataKey] as? [CBUUID: Data]) == [CBUUID(string: "180A"): Data([0x01, 0x02])])
    #expect((advertisementData[CBAdvertisementDataTxPowerLevelKey] as? NSNumber)?.intValue == 0)
    #expect((advertisementData[CBAdvertisementDataIsConnectable] as? NSNumber)?.boolValue == true)
}

/// The report as the full parse gives it (``AdvertisingData``'s lenient structures, ``MergedAdvertisement``'s rules):
/// the reference the backend's in-place reading is checked against.
private func fullParseReport(_ device: DiscoveredDevice) -> AdvertisementReport {
    let merged = MergedAdvertisement(advertisingData: AdvertisingData(bytes: device.advertisingData),
                                     scanResponse: device.scanResponseData.map { AdvertisingData(bytes: $0) })
    var report = AdvertisementReport(peer: device.peer, rssi: device.rssi.map(Int.init), localName: merged.localName,
                                     manufacturerData: merged.manufacturerData.first, serviceData: merged.serviceData,
                                     serviceUUIDs: merged.serviceUUIDs, txPowerLevel: merged.txPowerLevel.map(Int.init),
                                     isConnectable: device.isConnectable, solicitedServiceUUIDs: merged.solicitedServiceUUIDs)
    report.hasScanResponse = device.scanResponseData != nil
    report.isTruncated = device.isTruncated
    return report
}

/// An advertisementData dictionary as comparable text: each key's value by its type (NSNumber, String, Data, [CBUUID],
/// [CBUUID: Data]), anything else marked as such.
private func canonical(_ data: [String: Any]) -> [String: String] {
    data.mapValues { value in
        switch value {
        case let number as NSNumber: "number \(number.intValue)"
        case let text as String: "string \(text)"
        case let bytes as Data: "data \(Array(bytes))"
        case let uuids as [CBUUID]: "uuids \(uuids.map(\.uuidString))"
        case let map as [CBUUID: Data]: "map \(map.map { "\($0.key.uuidString)=\(Array($0.value))" }.sorted())"
        default: "unexpected \(type(of: value))"
        }
    }
}

/// Advertising data and scan responses read in place give the report, and the advertisementData, the full parse gives: on every payload of the
/// fixture captures and mutations of each, alone and paired with another as its scan response (both orders of the
/// merge rules: names, lists, service data, manufacturer data, TX power), and on a beacon's manufacturer data with a
/// name padded with NULs (stripped, as BlueZ does) and a TX Power Level.
@Test func theInPlaceReportIsTheFullParsesOnEveryCapturedPayload() throws {
    let peer = PeerAddress(address: try #require(BluetoothAddress("C1:B0:00:00:00:02")), type: .random)
    // Flags 0x06; Manufacturer Specific Data, company 0x004C, 02 15; Complete Local Name "Tag" and two NULs;
    // TX Power Level −8 dBm (Core Supplement v11 Part A §1.2-§1.5).
    let beacon: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0xFF, 0x4C, 0x00, 0x02, 0x15, 0x06, 0x09, 0x54, 0x61, 0x67, 0x00, 0x00, 0x02, 0x0A, 0xF8]
    let tag = report(of: DiscoveredDevice(peer: peer, rssi: -60, isConnectable: false,
                                                         advertisingData: beacon, scanResponseData: nil))
    #expect(tag.localName == "Tag" && tag.txPowerLevel == -8 && tag.rssi == -60 && !tag.isConnectable)
    #expect(tag.manufacturerData.map { [$0.companyID] + $0.payload.map(UInt16.init) } == [0x004C, 0x02, 0x15])
    var random = FuzzRandom(seed: 0x5CA9)
    var payloads = CaptureCorpus.advertisingPayloads
    #expect(payloads.count > 50)
    for payload in CaptureCorpus.advertisingPayloads { payloads.append(random.mutate(payload)) }
    payloads.append(beacon)
    var withLists = 0
    for (index, bytes) in payloads.enumerated() {
        // Alone, and with the payload 7 places on as its scan response.
        for response in [nil, payloads[(index + 7) % payloads.count]] {
            let device = DiscoveredDevice(peer: peer, rssi: -70, isConnectable: true, advertisingData: bytes, scanResponseData: response)
            let fast = report(of: device)
            let full = fullParseReport(device)
            #expect(fast.hasSameContent(as: full) && fast.rssi == full.rssi && fast.peer == full.peer, "\(bytes) \(response ?? [])")
            #expect(fast.hasScanResponse == full.hasScanResponse && fast.isTruncated == full.isTruncated)
            // The delegate queue's one pass over the bytes makes the dictionary the parsed fields make.
            #expect(fast.received != nil && full.received == nil)
            #expect(canonical(CBCentralManager.advertisementData(fast)) == canonical(CBCentralManager.advertisementData(full)),
                    "\(bytes) \(response ?? [])")
            if !full.serviceUUIDs.isEmpty || !full.serviceData.isEmpty || !full.solicitedServiceUUIDs.isEmpty { withLists += 1 }
        }
    }
    #expect(withLists > 20, "the corpus has service UUIDs, service data and solicitations to merge")
}

/// An extended advertisement's many Service Data structures (0x16, Core Supplement v11 Part A §1.11), more than a
/// legacy one can hold: 30, of 20 UUIDs (0x1800-0x1813, the last 10 repeated with other data), give the 20 UUIDs each
/// with its first structure's data, in the dictionary read in place as in the full parse's.
@Test func manyServiceDataStructuresKeepEachUUIDsFirst() throws {
    let peer = PeerAddress(address: try #require(BluetoothAddress("C1:B0:00:00:00:03")), type: .random)
    var bytes: [UInt8] = []
    for index in 0..<30 { bytes += [0x04, 0x16, UInt8(index % 20), 0x18, UInt8(index)] }
    let device = DiscoveredDevice(peer: peer, rssi: -60, isConnectable: true, advertisingData: bytes, scanResponseData: nil)
    let fast = report(of: device)
    let expected = (0..<20).map { #""18\#(String(format: "%02X", $0))=[\#($0)]""# }.sorted().joined(separator: ", ")
    #expect(canonical(CBCentralManager.advertisementData(fast))[CBAdvertisementDataServiceDataKey] == "map [\(expected)]")
    #expect(canonical(CBCentralManager.advertisementData(fast)) == canonical(CBCentralManager.advertisementData(fullParseReport(device))))
}

/// MergedAdvertisement's rules for what advertising data and scan response both carry, each case by hand, read in
/// place: between two names of a kind the scan response's wins, a Complete Local Name (0x09) beats a Shortened one
/// (0x08) wherever it is; service UUID lists are united in order without repeats; service data for a UUID in both,
/// manufacturer data and TX power come from the advertising data, the scan response filling gaps (Core Supplement v11
/// Part A §1.2, §1.1, §1.11, §1.4, §1.5).
@Test func theScanResponseMergesByTheRulesCaseByCase() throws {
    let peer = PeerAddress(address: try #require(BluetoothAddress("C1:B0:00:00:00:02")), type: .random)
    func name(_ type: UInt8, _ text: String) -> [UInt8] { [UInt8(text.utf8.count + 1), type] + Array(text.utf8) }
    func merged(_ advertising: [UInt8], _ response: [UInt8]) -> AdvertisementReport {
        report(of: DiscoveredDevice(peer: peer, rssi: -50, isConnectable: true, advertisingData: advertising,
                                                   scanResponseData: response))
    }
    #expect(merged(name(0x08, "Adv"), name(0x08, "Rsp")).localName == "Rsp")
    #expect(merged(name(0x09, "AdvC"), name(0x08, "Rsp")).localName == "AdvC")
    #expect(merged(name(0x08, "Adv"), name(0x09, "RspC")).localName == "RspC")
    #expect(merged(name(0x09, "AdvC"), name(0x09, "RspC")).localName == "RspC")
    #expect(merged(name(0x08, "Adv"), []).localName == "Adv")
    #expect(merged([], name(0x08, "Rsp")).localName == "Rsp")
    // 16-bit UUIDs 0x180F, 0x180A advertised; 0x180A, 0x1812 in the response.
    let lists = merged([0x05, 0x03, 0x0F, 0x18, 0x0A, 0x18], [0x05, 0x02, 0x0A, 0x18, 0x12, 0x18])
    #expect(lists.serviceUUIDs == [BluetoothUUID(0x180F), BluetoothUUID(0x180A), BluetoothUUID(0x1812)])
    // Service data 0x180A: 01 advertised, 02 in the response, and 0x181A: 03 in the response only; manufacturer data of
    // company 0x004C (01) advertised and 0x0059 (02) in the response; TX Power −8 dBm advertised, +4 in the response.
    let conflict = merged([0x04, 0x16, 0x0A, 0x18, 0x01, 0x04, 0xFF, 0x4C, 0x00, 0x01, 0x02, 0x0A, 0xF8],
                          [0x04, 0x16, 0x0A, 0x18, 0x02, 0x04, 0x16, 0x1A, 0x18, 0x03, 0x04, 0xFF, 0x59, 0x00, 0x02,
                           0x02, 0x0A, 0x04])
    #expect(conflict.serviceData == [BluetoothUUID(0x180A): [0x01], BluetoothUUID(0x181A): [0x03]])
    // The same in the dictionary, made from the bytes where they lie (``ReceivedAdvertisement/serviceDataValues(_:)``).
    #expect(canonical(CBCentralManager.advertisementData(conflict))[CBAdvertisementDataServiceDataKey] == #"map ["180A=[1]", "181A=[3]"]"#)
    #expect(conflict.manufacturerDataBytes == Data([0x4C, 0x00, 0x01]))
    #expect(conflict.txPowerLevel == -8)
    // Only the response has them: it fills the gap.
    let gap = merged([0x02, 0x01, 0x06], [0x04, 0xFF, 0x59, 0x00, 0x02, 0x02, 0x0A, 0x04])
    #expect(gap.manufacturerDataBytes == Data([0x59, 0x00, 0x02]) && gap.txPowerLevel == 4 && gap.hasScanResponse)
}

/// A report as received is the host's record of the bytes, not a parse: data A, then B, then B again in the same record
/// at another RSSI (the same content at once), then A again in a new record (the same content, byte for byte); a report
/// handed out before keeps its own content. Complete Local Names "A" and "B" (Core Supplement v11 Part A §1.2).
@Test func aReportAsReceivedIsTheHostsRecordReadWhereAsked() throws {
    let peer = PeerAddress(address: try #require(BluetoothAddress("C1:B0:00:00:00:05")), type: .random)
    func device(_ name: UInt8, rssi: Int8) -> DiscoveredDevice {
        DiscoveredDevice(peer: peer, rssi: rssi, isConnectable: true, advertisingData: [0x02, 0x09, name], scanResponseData: nil)
    }
    let b = device(0x42, rssi: -50)
    var bAgain = b
    bAgain.rssi = -55
    let first = report(of: device(0x41, rssi: -40))
    let second = report(of: b)
    let again = report(of: bAgain)
    let back = report(of: device(0x41, rssi: -60))
    #expect(second.received?.payload === again.received?.payload, "the host's record is shared, not copied")
    #expect(first.localName == "A" && first.rssi == -40, "a report handed out keeps its content")
    #expect(second.localName == "B" && again.localName == "B" && again.rssi == -55 && again.hasSameContent(as: second))
    #expect(back.localName == "A" && back.rssi == -60 && back.hasSameContent(as: first) && !back.hasSameContent(as: second))
    #expect(first.received?.payload !== back.received?.payload, "two records, compared by their bytes")
    // Flags (0x06) before the same name: other bytes, the same fields. The delivery's cheap test tells them apart (the
    // dictionary is made again); equality compares the fields, so it stays an equivalence with a parsed report.
    var flagged = device(0x41, rssi: -40)
    flagged.advertisingData = [0x02, 0x01, 0x06, 0x02, 0x09, 0x41]
    let withFlags = report(of: flagged)
    let parsed = AdvertisementReport(peer: peer, rssi: -40, localName: "A", isConnectable: true)
    #expect(!withFlags.hasSameContent(as: first) && withFlags == first)
    #expect(withFlags == parsed && first == parsed && withFlags != second)
}

@Test func gattAndHostErrorsMapAsIOSReportsThem() {
    #expect(BackendError(GATTError.att(.insufficientAuthentication, handle: 0x49)) == .att(ATTError(rawValue: 0x05)))
    #expect(BackendError(GATTError.att(.init(rawValue: 0x80), handle: 0x4B)) == .att(ATTError(rawValue: 0x80)))
    #expect(BackendError(GATTError.disconnected) == .disconnected)
    #expect(BackendError(GATTError.timeout) == .timeout)
    #expect((BackendError.timeout.coreBluetoothError as NSError).code == CBError.Code.connectionTimeout.rawValue)
    #expect(BackendError(HostError.attTimeout(0x40)) == .timeout)
    #expect(BackendError(HostError.disconnected(0x40, .remoteUserTerminatedConnection)) == .disconnected)
    let peer = PeerAddress(address: BluetoothAddress("C1:A0:00:00:00:01")!, type: .random)
    #expect(HostError.connectionFailed(peer, HCIErrorCode(rawValue: 0x3E)).connectionFailureReason.rawValue == 0x3E)
    #expect(HostError.commandTimeout(HCIOpcode(rawValue: 0x200D)).connectionFailureReason.rawValue == 0x22)
    #expect(HostError.connectCancelled(peer).connectionFailureReason.rawValue == 0x02)
    #expect(HostError.connectTimeout(peer).connectionFailureReason.rawValue == 0x08)
}

/// A device's report as the facade makes it of a host discovery it admits (``DiscoveryCandidate/makeReport()``).
private func report(of device: DiscoveredDevice) -> AdvertisementReport { device.makeReport() }

/// The host backend hands the manager's records back to its host's own spares (``Host/DiscoveryRecordRecycling``), for
/// either host.
@Test func theHostBackendHandsRecordsBackToItsHost() {
    let host = HostController(configuration: HostConfiguration(makeTransport: { MemoryTransport { _, _ in } }))
    #expect(HostCentralBackend(host: host).discoveryRecordSpares === host.discoveryRecordSpares)
    let kernel = KernelHost(controllerIndex: 0)
    #expect(HostCentralBackend(host: kernel).discoveryRecordSpares === kernel.discoveryRecordSpares)
}
