// Command encodings checked against command packets recorded in the captures and the spec's layouts.

import OCBCore
import OCBHCI
import Testing

@Suite struct CommandEncodingTests {
    @Test func opcodeSplitsIntoGroupAndCommand() {
        #expect(HCIOpcode.reset.rawValue == 0x0C03)
        #expect(HCIOpcode.leSetExtendedScanParameters.rawValue == 0x2041)
        #expect(HCIOpcode.leReadBufferSizeV2.rawValue == 0x2060)
        #expect(HCIOpcode.disconnect.rawValue == 0x0406)
        #expect(HCIOpcode.readRSSI.rawValue == 0x1405)
        #expect(HCIOpcode(rawValue: 0xFCFF).ogf == 0x3F)
        #expect(HCIOpcode(rawValue: 0xFCFF).ocf == 0x00FF)
        #expect(HCIOpcode.leCreateConnection.name == "LE Create Connection")
    }

    // Frames of bottle-legacy-conn-complete-adv-reports.btsnoop unless noted.
    @Test func resetAndInformationalCommandsMatchCapture() {
        #expect(HCIReset().packet.h4Bytes == hex("01 03 0c 00"))
        #expect(HCIReadLocalVersionInformation().packet.h4Bytes == hex("01 01 10 00"))
        #expect(HCIReadLocalSupportedCommands().packet.h4Bytes == hex("01 02 10 00"))
        #expect(HCIReadBufferSize().packet.h4Bytes == hex("01 05 10 00"))
        #expect(HCIReadBDADDR().packet.h4Bytes == hex("01 09 10 00"))
        #expect(HCILEReadBufferSizeV1().packet.h4Bytes == hex("01 02 20 00"))
        #expect(HCILEReadLocalSupportedFeatures().packet.h4Bytes == hex("01 03 20 00"))
        #expect(HCILEReadFilterAcceptListSize().packet.h4Bytes == hex("01 0f 20 00"))
        #expect(HCILEReadBufferSizeV2().packet.h4Bytes == hex("01 60 20 00"))         // escooter frame 32
        #expect(HCILEReadMaximumDataLength().packet.h4Bytes == hex("01 2f 20 00"))     // escooter frame 40
        #expect(HCILEReadSuggestedDefaultDataLength().packet.h4Bytes == hex("01 23 20 00")) // escooter frame 46
        #expect(HCILEClearFilterAcceptList().packet.h4Bytes == hex("01 10 20 00"))     // toy frame 29312
        #expect(HCILECreateConnectionCancel().packet.h4Bytes == hex("01 0e 20 00"))    // lock frame 688
    }

    @Test func scanCommandsMatchCapture() throws {
        // bottle frame 108: active, 0x0012 x 0.625 ms interval and window, own address random, accept all.
        #expect(HCILESetScanParameters(scanType: .active, interval: 0x0012, window: 0x0012, ownAddressType: .random).packet.h4Bytes
                == hex("01 0b 20 07 01 12 00 12 00 01 00"))
        #expect(HCILESetScanEnable(enable: true).packet.h4Bytes == hex("01 0c 20 02 01 00"))
        // escooter frames 110 and 112.
        let extended = HCILESetExtendedScanParameters(ownAddressType: .random,
                                                      le1M: LEExtendedScanPHYParameters(scanType: .active, interval: 0x12C0, window: 0x12C0))
        #expect(extended.packet.h4Bytes == hex("01 41 20 08 01 00 01 01 c0 12 c0 12"))
        #expect(HCILESetExtendedScanEnable(enable: true).packet.h4Bytes == hex("01 42 20 06 01 00 00 00 00 00"))
        let both = HCILESetExtendedScanParameters(le1M: .init(scanType: .passive, interval: 0x10, window: 0x08),
                                                  leCoded: .init(scanType: .active, interval: 0x30, window: 0x18))
        #expect(both.parameters == hex("00 00 05 00 10 00 08 00 01 30 00 18 00"))
    }

    @Test func connectionCommandsMatchCapture() throws {
        let peer = try #require(BluetoothAddress("71:6C:B3:40:23:C7"))
        // bottle frame 143.
        let create = HCILECreateConnection(peerAddressType: .public, peerAddress: peer, ownAddressType: .random,
                                           connection: LEConnectionParameters(intervalMin: 0x18, intervalMax: 0x28, maxLatency: 0, supervisionTimeout: 0x07D0),
                                           scanInterval: 0x60, scanWindow: 0x30)
        #expect(create.packet.h4Bytes == hex("01 0d 20 19 60 00 30 00 00 00 c7 23 40 b3 6c 71 01 18 00 28 00 00 00 d0 07 00 00 00 00"))
        // escooter frame 572: filter accept list, own type 3, all three PHYs.
        let connection = LEConnectionParameters(intervalMin: 0x18, intervalMax: 0x28, maxLatency: 0, supervisionTimeout: 0x01F4)
        let extended = HCILEExtendedCreateConnection(
            peerAddressType: .public, peerAddress: .zero, ownAddressType: .resolvableOrRandom,
            le1M: .init(scanInterval: 0x60, scanWindow: 0x30, connection: connection),
            le2M: .init(scanInterval: 0x60, scanWindow: 0x18, connection: connection),
            leCoded: .init(scanInterval: 0x60, scanWindow: 0x18, connection: connection), useFilterAcceptList: true)
        #expect(extended.packet.h4Bytes == hex("01 43 20 3a 01 03 00 00 00 00 00 00 00 07"
            + " 60 00 30 00 18 00 28 00 00 00 f4 01 00 00 00 00 60 00 18 00 18 00 28 00 00 00 f4 01 00 00 00 00"
            + " 60 00 18 00 18 00 28 00 00 00 f4 01 00 00 00 00"))
        #expect(HCIDisconnect(handle: 0x0002).packet.h4Bytes == hex("01 06 04 03 02 00 13"))                // bottle frame 1776
        #expect(HCILEReadRemoteFeatures(handle: 2).packet.h4Bytes == hex("01 16 20 02 02 00"))           // bottle frame 160
        let update = HCILEConnectionUpdate(handle: 2, connection: LEConnectionParameters(intervalMin: 0x24, intervalMax: 0x48, maxLatency: 0, supervisionTimeout: 0x0258))
        #expect(update.packet.h4Bytes == hex("01 13 20 0e 02 00 24 00 48 00 00 00 58 02 00 00 00 00"))  // bottle frame 450
        #expect(HCIReadRemoteVersionInformation(handle: 2).packet.h4Bytes == hex("01 1d 04 02 02 00"))  // escooter frame 600
        #expect(HCIReadRSSI(handle: 2).packet.h4Bytes == hex("01 05 14 02 02 00"))                     // escooter frame 609
        #expect(HCILESetDataLength(handle: 2, txOctets: 0xF7, txTime: 0x0A90).packet.h4Bytes == hex("01 22 20 06 02 00 f7 00 90 0a")) // escooter 686
        let address = try #require(BluetoothAddress("EF:F9:76:E0:05:12"))
        // escooter frames 562 and 585.
        #expect(HCILEAddDeviceToFilterAcceptList(.init(addressType: .random, address: address)).packet.h4Bytes == hex("01 11 20 07 01 12 05 e0 76 f9 ef"))
        #expect(HCILERemoveDeviceFromFilterAcceptList(.init(addressType: .random, address: address)).packet.h4Bytes == hex("01 12 20 07 01 12 05 e0 76 f9 ef"))
    }

    @Test func setupAndSecurityCommandsFollowSpecLayouts() throws {
        let random = try #require(BluetoothAddress("54:FC:F2:A7:72:E2"))
        #expect(HCILESetRandomAddress(address: random).packet.h4Bytes == hex("01 05 20 06 e2 72 a7 f2 fc 54"))  // bottle frame 60
        #expect(HCILESetDefaultPHY(txPHYs: [.le1M, .le2M], rxPHYs: [.le1M, .le2M]).parameters == hex("00 03 03"))
        #expect(HCILESetPHY(handle: 0x40, txPHYs: .le2M, rxPHYs: .le2M, phyOptions: 0).packet.h4Bytes == hex("01 32 20 07 40 00 00 02 02 00 00"))
        #expect(HCILEReadPHY(handle: 0x40).packet.h4Bytes == hex("01 30 20 02 40 00"))
        #expect(HCILEWriteSuggestedDefaultDataLength(.init(maxTxOctets: 251, maxTxTime: 2120)).packet.h4Bytes == hex("01 24 20 04 fb 00 48 08"))
        #expect(HCILERemoteConnectionParameterRequestNegativeReply(handle: 0x40).packet.h4Bytes == hex("01 21 20 03 40 00 3b"))
        #expect(HCILERemoteConnectionParameterRequestReply(handle: 0x40, connection: LEConnectionParameters(intervalMin: 6, intervalMax: 12, maxLatency: 1, supervisionTimeout: 100)).parameters
                == hex("40 00 06 00 0c 00 01 00 64 00 00 00 00 00"))
        let key: [UInt8] = Array(1...16)
        // wristband frame 137: LE Enable Encryption, handle 4, Rand 0, EDIV 0, LTK.
        let ltk = hex("99 b4 3f 12 98 7f fc ba e8 2a d1 2a d3 5e 6d af")
        #expect(HCILEEnableEncryption(handle: 4, randomNumber: 0, encryptedDiversifier: 0, longTermKey: ltk).packet.h4Bytes
                == hex("01 19 20 1c 04 00 00 00 00 00 00 00 00 00 00 00") + ltk)
        #expect(HCILELongTermKeyRequestReply(handle: 0x40, longTermKey: key).packet.h4Bytes == hex("01 1a 20 12 40 00") + key)
        #expect(HCILELongTermKeyRequestNegativeReply(handle: 0x40).packet.h4Bytes == hex("01 1b 20 02 40 00"))
    }

    @Test func eventMasksEnableTheCentralsEvents() {
        // bottle frame 33 (Android) sends LE Set Event Mask 0x0000_0000_0000_067F; ours adds the extended events.
        let mask = HCISetEventMask().parameters
        #expect(mask.count == 8)
        #expect(mask[2] & 0x04 != 0)                 // bit 18: Number Of Completed Packets (event 0x13), case H1
        #expect(mask[0] & 0x10 != 0)                 // bit 4: Disconnection Complete
        #expect(mask[0] & 0x80 != 0)                 // bit 7: Encryption Change
        #expect(mask[1] & 0x08 != 0)                 // bit 11: Read Remote Version Information Complete
        #expect(mask[1] & 0x80 != 0)                 // bit 15: Hardware Error
        #expect(mask[3] & 0x02 != 0)                 // bit 25: Data Buffer Overflow
        #expect(mask[7] & 0x20 != 0)                 // bit 61: LE Meta
        let le = HCILESetEventMask().parameters
        #expect(le[0] == 0x7F)                       // subevents 0x01...0x07
        #expect(le[1] == 0x1E)                       // 0x0A, 0x0B, 0x0C, 0x0D
        #expect(le[2] == 0x09)                       // 0x11 Scan Timeout, 0x14 Channel Selection Algorithm
        #expect(HCILESetEventMask(mask: LEEventMask(rawValue: 0x067F)).packet.h4Bytes == hex("01 01 20 08 7f 06 00 00 00 00 00 00"))
    }
}
