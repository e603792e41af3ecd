// Event decodings checked against events recorded in the captures and spec layouts.

import OCBCore
import OCBHCI
import Testing

@Suite struct EventDecodingTests {
    func complete(_ text: String) throws -> HCICommandCompleteEvent {
        guard case .commandComplete(let complete) = try event(text) else { throw HCIEventDecodingError(event: "test", field: "", offset: 0, reason: "not Command Complete") }
        return complete
    }

    @Test func commandCompleteReturnParametersFromCapture() throws {
        // bottle frame 8: Read Local Version Information.
        let version = try complete("04 0e 0c 01 01 10 00 06 00 00 06 1d 00 d3 07").returnParameters(of: HCIReadLocalVersionInformation.self)
        #expect(version.hciVersion == 6 && version.hciSubversion == 0 && version.lmpVersion == 6)
        #expect(version.companyIdentifier == 0x001D && version.lmpSubversion == 0x07D3)
        // bottle frame 10: Read BD_ADDR.
        #expect(try complete("04 0e 0a 01 09 10 00 3c 89 d1 93 42 03").returnParameters(of: HCIReadBDADDR.self) == BluetoothAddress("03:42:93:D1:89:3C"))
        // bottle frame 4: Read Buffer Size: 1024 bytes x 7 ACL, 50 x 8 synchronous.
        let shared = try complete("04 0e 0b 01 05 10 00 00 04 32 07 00 08 00").returnParameters(of: HCIReadBufferSize.self)
        #expect(shared.aclDataPacketLength == 1024 && shared.totalNumACLDataPackets == 7)
        #expect(shared.synchronousDataPacketLength == 50 && shared.totalNumSynchronousDataPackets == 8)
        // bottle frame 28: LE Read Buffer Size v1: 64 bytes x 16.
        let le = try complete("04 0e 07 01 02 20 00 40 00 10").returnParameters(of: HCILEReadBufferSizeV1.self)
        #expect(le == LEBufferSize(leACLDataPacketLength: 64, totalNumLEACLDataPackets: 16))
        // escooter frame 33: LE Read Buffer Size v2: 251 x 10 ACL, 512 x 31 ISO.
        let v2 = try complete("04 0e 0a 01 60 20 00 fb 00 0a 00 02 1f").returnParameters(of: HCILEReadBufferSizeV2.self)
        #expect(v2 == LEBufferSize(leACLDataPacketLength: 251, totalNumLEACLDataPackets: 10, isoDataPacketLength: 512, totalNumISODataPackets: 31))
        // bottle frame 32: LE features 0x0F.
        let features = try complete("04 0e 0c 01 03 20 00 0f 00 00 00 00 00 00 00").returnParameters(of: HCILEReadLocalSupportedFeatures.self)
        #expect(features.contains(.leEncryption) && features.contains(.peripheralInitiatedFeaturesExchange))
        #expect(!features.contains(.leExtendedAdvertising))
        // bottle frame 26: filter accept list size 128.
        #expect(try complete("04 0e 05 01 0f 20 00 80").returnParameters(of: HCILEReadFilterAcceptListSize.self) == 128)
        // escooter frames 41, 47, 611, 687.
        let maximum = try complete("04 0e 0c 01 2f 20 00 fb 00 90 0a fb 00 90 0a").returnParameters(of: HCILEReadMaximumDataLength.self)
        #expect(maximum == LEMaximumDataLength(maxTxOctets: 251, maxTxTime: 2704, maxRxOctets: 251, maxRxTime: 2704))
        #expect(try complete("04 0e 08 01 23 20 00 1b 00 48 01").returnParameters(of: HCILEReadSuggestedDefaultDataLength.self)
                == LESuggestedDefaultDataLength(maxTxOctets: 27, maxTxTime: 328))
        let rssi = try complete("04 0e 07 01 05 14 00 02 00 b4").returnParameters(of: HCIReadRSSI.self)
        #expect(rssi.handle == 2 && rssi.rssi == -76)
        #expect(try complete("04 0e 06 01 22 20 00 02 00").returnParameters(of: HCILESetDataLength.self) == 2)
        // Status-only completions decode to Void; a failure status throws with its code.
        try complete("04 0e 04 01 03 0c 00").returnParameters(of: HCIReset.self)
        #expect(throws: HCICommandError.failed(.commandDisallowed)) { try complete("04 0e 04 01 03 0c 0c").returnParameters(of: HCIReset.self) }
        #expect(throws: HCICommandError.unexpectedOpcode(.reset)) { try complete("04 0e 04 01 03 0c 00").returnParameters(of: HCIReadBDADDR.self) }
        let phy = try complete("04 0e 08 01 30 20 00 40 00 02 01").returnParameters(of: HCILEReadPHY.self)
        #expect(phy.handle == 0x40 && phy.txPHY == .le2M && phy.rxPHY == .le1M)
    }

    @Test func supportedCommandsFromCapture() throws {
        // bottle frame 12: a Bluetooth 4.0 controller: legacy LE commands, no extended scanning.
        let packet = try CaptureFixtures.packet("bottle-legacy-conn-complete-adv-reports.btsnoop", frame: 12)
        guard case .commandComplete(let complete) = try HCIEvent(packet: packet) else { Issue.record("not Command Complete"); return }
        let commands = try complete.returnParameters(of: HCIReadLocalSupportedCommands.self)
        #expect(commands.bytes.count == 64)
        #expect(commands.contains(.leSetScanParameters) && commands.contains(.leCreateConnection) && commands.contains(.readBDADDR))
        #expect(commands.contains(.disconnect) && commands.contains(.leEnableEncryption) && commands.contains(.readLocalVersionInformation))
        #expect(!commands.contains(.leSetExtendedScanParameters) && !commands.contains(.leExtendedCreateConnection))
        #expect(!commands.contains(.leReadBufferSizeV2) && !commands.contains(.leSetDataLength))
    }

    @Test func commandStatusAndConnectionEventsFromCapture() throws {
        #expect(try event("04 0f 04 00 01 0d 20") == .commandStatus(HCICommandStatusEvent(status: .success, numHCICommandPackets: 1, opcode: .leCreateConnection)))
        #expect(try event("04 05 04 00 02 00 16") == .disconnectionComplete(HCIDisconnectionCompleteEvent(status: .success, handle: 2, reason: .connectionTerminatedByLocalHost)))
        #expect(try event("04 08 04 00 04 00 01") == .encryptionChange(HCIEncryptionChangeEvent(status: .success, handle: 4, encryptionEnabled: 1)))
        #expect(try event("04 0c 08 00 02 00 0a 59 00 cb 00")
                == .readRemoteVersionInformationComplete(HCIReadRemoteVersionInformationCompleteEvent(status: .success, handle: 2, version: 0x0A, companyIdentifier: 0x0059, subversion: 0x00CB)))
        #expect(try event("04 13 05 01 02 00 01 00") == .numberOfCompletedPackets(HCINumberOfCompletedPacketsEvent(entries: [.init(handle: 2, completedPackets: 1)])))
        #expect(try event("04 10 01 05") == .hardwareError(hardwareCode: 5))
        #expect(try event("04 1a 01 01") == .dataBufferOverflow(linkType: 1))
        #expect(try event("04 ff 03 63 01 00") == .vendor([0x63, 0x01, 0x00]))
        #expect(try event("04 2f 02 01 02") == .unknown(code: 0x2F, parameters: [1, 2]))
        #expect(try event("04 3e 03 7f aa bb") == .leMeta(.unknown(subevent: 0x7F, parameters: [0xAA, 0xBB])))
        #expect(try event("04 3e 01 11") == .leMeta(.scanTimeout))
    }

    @Test func leConnectionCompletesFromCapture() throws {
        // bottle frame 157: LE Connection Complete.
        guard case .connectionComplete(let legacy) = try leMeta("04 3e 13 01 00 02 00 00 00 c7 23 40 b3 6c 71 27 00 00 00 d0 07 05") else {
            Issue.record("not LE Connection Complete"); return
        }
        #expect(legacy.status == .success && legacy.handle == 2 && legacy.isCentral && legacy.peerAddressType == .public)
        #expect(legacy.peerAddress == BluetoothAddress("71:6C:B3:40:23:C7"))
        #expect(legacy.connectionInterval == 0x27 && legacy.peripheralLatency == 0 && legacy.supervisionTimeout == 2000 && legacy.centralClockAccuracy == 5)
        #expect(legacy.localResolvablePrivateAddress == nil)
        // escooter frame 575: LE Enhanced Connection Complete v1.
        guard case .enhancedConnectionComplete(let enhanced) = try leMeta("04 3e 1f 0a 00 02 00 00 01 12 05 e0 76 f9 ef 00 00 00 00 00 00 00 00 00 00 00 00 18 00 00 00 f4 01 00") else {
            Issue.record("not LE Enhanced Connection Complete"); return
        }
        #expect(enhanced.peerAddressType == .random && enhanced.peerAddress == BluetoothAddress("EF:F9:76:E0:05:12"))
        #expect(enhanced.localResolvablePrivateAddress == .zero && enhanced.connectionInterval == 0x18 && enhanced.supervisionTimeout == 500)
        // v2 adds Advertising_Handle and Sync_Handle.
        guard case .enhancedConnectionCompleteV2(let v2) = try leMeta("04 3e 22 29 00 40 00 00 00 66 55 44 33 22 11 00 00 00 00 00 00 00 00 00 00 00 00 28 00 00 00 c8 00 01 ff ff ff") else {
            Issue.record("not v2"); return
        }
        #expect(v2.handle == 0x40 && v2.advertisingHandle == 0xFF && v2.syncHandle == 0xFFFF && v2.version == .enhancedV2)
    }

    @Test func leConnectionSubeventsFromCapture() throws {
        #expect(try leMeta("04 3e 0a 03 00 02 00 48 00 00 00 58 02") == .connectionUpdateComplete(.init(status: .success, handle: 2, connectionInterval: 0x48, peripheralLatency: 0, supervisionTimeout: 0x258)))  // bottle 459
        #expect(try leMeta("04 3e 0c 04 00 02 00 01 00 00 00 00 00 00 00") == .readRemoteFeaturesComplete(.init(status: .success, handle: 2, features: .leEncryption))) // bottle 163
        #expect(try leMeta("04 3e 0b 07 02 00 1b 00 48 08 1b 00 48 08") == .dataLengthChange(.init(handle: 2, maxTxOctets: 27, maxTxTime: 2120, maxRxOctets: 27, maxRxTime: 2120))) // escooter 698
        #expect(try leMeta("04 3e 06 0c 00 40 00 02 02") == .phyUpdateComplete(.init(status: .success, handle: 0x40, txPHY: .le2M, rxPHY: .le2M)))
        #expect(try leMeta("04 3e 04 14 40 00 01") == .channelSelectionAlgorithm(.init(handle: 0x40, algorithm: 1)))
        #expect(try leMeta("04 3e 0d 05 40 00 01 02 03 04 05 06 07 08 34 12") == .longTermKeyRequest(.init(handle: 0x40, randomNumber: 0x0807060504030201, encryptedDiversifier: 0x1234)))
        #expect(try leMeta("04 3e 0b 06 40 00 06 00 0c 00 00 00 c8 00") == .remoteConnectionParameterRequest(.init(handle: 0x40, intervalMin: 6, intervalMax: 12, maxLatency: 0, timeout: 200)))
    }

    @Test func advertisingReportsFromCapture() throws {
        // escooter frame 431: a legacy ADV_IND through the extended event (0x0013), SID none, TX power n/a, RSSI -93.
        let packet = try CaptureFixtures.packet("escooter-ext-adv-nonlegacy-acl-fragments.btsnoop", frame: 431)
        guard case .leMeta(.extendedAdvertisingReport(let extended)) = try HCIEvent(packet: packet), let report = extended.reports.first else {
            Issue.record("not an extended report"); return
        }
        #expect(extended.reports.count == 1 && extended.diagnostic == nil)
        #expect(report.eventType.rawValue == 0x0013 && report.eventType.legacyEventType == .advInd && report.eventType.dataStatus == .complete)
        #expect(report.addressType == .random && report.primaryPHY == .le1M && report.secondaryPHY.rawValue == 0)
        #expect(report.sid == nil && report.txPower == nil && report.rssi == -93 && report.data.count == 0x1D)
        // bottle frame 120: legacy ADV_NONCONN_IND from a random address.
        let legacyPacket = try CaptureFixtures.packet("bottle-legacy-conn-complete-adv-reports.btsnoop", frame: 120)
        guard case .leMeta(.advertisingReport(let legacy)) = try HCIEvent(packet: legacyPacket), let first = legacy.reports.first else {
            Issue.record("not a legacy report"); return
        }
        #expect(first.eventType == .advNonconnInd && first.addressType == .random && first.data.count == 0x1F)
    }

    @Test func legacyReportsAreToldFromTheirFirstBytes() throws {
        // escooter frame 431: an extended report of a legacy ADV_IND (Event_Type 0x0013, bit 4 set): always whole.
        let packet = try CaptureFixtures.packet("escooter-ext-adv-nonlegacy-acl-fragments.btsnoop", frame: 431)
        #expect(HCIEvent.isLegacyAdvertisingReport(packet.bytes))
        // The same report with the legacy bit cleared (an extended PDU, perhaps the end of a chain), and cut one byte short.
        var extendedPDU = packet.bytes
        extendedPDU[4] &= ~0x10
        #expect(!HCIEvent.isLegacyAdvertisingReport(extendedPDU))
        #expect(!HCIEvent.isLegacyAdvertisingReport(Array(packet.bytes.dropLast())))
        // bottle frame 120: an LE Advertising Report (subevent 0x02).
        #expect(HCIEvent.isLegacyAdvertisingReport(try CaptureFixtures.packet("bottle-legacy-conn-complete-adv-reports.btsnoop", frame: 120).bytes))
        // Not reports: LE Connection Complete (0x01), Command Complete; an extended event with no report.
        #expect(!HCIEvent.isLegacyAdvertisingReport(hex("3e 13 01 00 40 00 00 01 01 00 00 00 a0 c1 18 00 00 00 48 00 00")))
        #expect(!HCIEvent.isLegacyAdvertisingReport(hex("0e 04 01 0c 20 00")))
        #expect(!HCIEvent.isLegacyAdvertisingReport(hex("3e 02 0d 00")))
    }

    @Test func severalLegacyReportsInOneEventAndLenientTail() throws {
        // Two reports, each whole before the next (Vol 4 Part E §5.2): ADV_IND with 3 data bytes at -60 dBm, SCAN_RSP with none and RSSI n/a.
        let two = "04 3e 19 02 02 00 00 66 55 44 33 22 11 03 02 01 06 c4 04 01 11 22 33 44 55 66 00 7f"
        guard case .advertisingReport(let event) = try leMeta(two) else { Issue.record("not a report"); return }
        #expect(event.reports.count == 2 && event.diagnostic == nil)
        #expect(event.reports[0] == LEAdvertisingReport(eventType: .advInd, addressType: .public, address: BluetoothAddress("11:22:33:44:55:66")!, data: [2, 1, 6], rssi: -60))
        #expect(event.reports[1] == LEAdvertisingReport(eventType: .scanRsp, addressType: .random, address: BluetoothAddress("66:55:44:33:22:11")!, data: [], rssi: nil))
        // Same, claiming 3 reports: the two whole ones are kept and the diagnostic names the missing field.
        guard case .advertisingReport(let cut) = try leMeta("04 3e 19 02 03" + two.dropFirst(14)) else { Issue.record("not a report"); return }
        #expect(cut.reports.count == 2)
        #expect(cut.diagnostic?.field == "Event_Type[2]" && cut.diagnostic?.event == "LE Advertising Report" && cut.diagnostic?.offset == 25)
        // A first report cut short is an error naming field and offset.
        #expect(throws: HCIEventDecodingError(event: "LE Advertising Report", field: "Data[0]", offset: 11, reason: "needed 3 byte(s), 1 available")) {
            try leMeta("04 3e 0c 02 01 00 00 66 55 44 33 22 11 03 02")
        }
    }

    @Test func malformedKnownEventsThrowTypedErrors() throws {
        #expect(throws: HCIEventDecodingError(event: "Disconnection Complete", field: "Reason", offset: 3, reason: "needed 1 byte(s), 0 available")) {
            try event("04 05 03 00 02 00")
        }
        #expect(throws: HCIEventDecodingError(event: "HCI Event", field: "Parameters", offset: 2, reason: "needed 4 byte(s), 2 available")) {
            try event("04 05 04 00 02")
        }
        #expect(throws: HCIEventDecodingError.self) { try HCIEvent(packet: HCIPacket(type: .acl, bytes: [0x05, 0x00])) }
    }

    @Test func everyErrorCodeHasItsSpecName() {
        #expect(HCIErrorCode(rawValue: 0x01).name == "Unknown HCI Command")
        #expect(HCIErrorCode(rawValue: 0x3E).name == "Connection Failed to be Established / Synchronization Timeout")
        #expect(HCIErrorCode(rawValue: 0x45).name == "Packet Too Long")
        #expect(HCIErrorCode(rawValue: 0x2B).name == "Reserved for future use (0x2B)")
        #expect(HCIErrorCode(rawValue: 0x46).name == "Reserved for future use (0x46)")
        let named = (0...0x45).filter { !HCIErrorCode(rawValue: UInt8($0)).name.hasPrefix("Reserved for future use") }
        #expect(named.count == 0x46 - 3)
    }
}
