// Seeded fuzz tests of the HCI decoders: events, every command's return parameters, extended advertising chains, H4 framing.

import Foundation
import Testing
import OCBCore
@testable import OCBHCI
import FuzzSupport

@Suite struct HCIFuzzTests {
    /// The distinct event and ACL packets of the fixture captures, in capture order.
    static let packets: [HCIPacket] = {
        var seen: Set<HCIPacket> = []
        var result: [HCIPacket] = []
        for name in CaptureFixtures.names {
            guard let capture = try? CaptureFixtures.read(name) else { continue }
            for record in capture.records {
                guard let packet = record.packet, packet.type == .event || packet.type == .acl, !seen.contains(packet) else { continue }
                seen.insert(packet)
                result.append(packet)
            }
        }
        return result
    }()

    static var events: [[UInt8]] { packets.filter { $0.type == .event }.map(\.bytes) }

    /// Decodes one event and checks what a decoded event promises about the bytes it came from.
    static func checkEvent(_ bytes: [UInt8]) {
        do {
            let event = try HCIEvent(bytes: bytes)
            // Parameter_Total_Length was honoured: the event needs 2 + length bytes.
            #expect(bytes.count >= 2 && bytes.count >= 2 + Int(bytes[1]))
            if case .leMeta(let meta) = event {
                switch meta {
                case .advertisingReport(let reports):
                    #expect(reports.reports.reduce(0) { $0 + 10 + $1.data.count } + 2 <= Int(bytes[1]))
                case .extendedAdvertisingReport(let reports):
                    #expect(reports.reports.reduce(0) { $0 + 24 + $1.data.count } + 2 <= Int(bytes[1]))
                default: break
                }
            }
            if case .numberOfCompletedPackets(let completed) = event {
                #expect(completed.entries.count * 4 + 1 <= Int(bytes[1]))
                #expect(completed.entries.allSatisfy { $0.handle <= 0x0FFF })
            }
        } catch {
            // The error names a place inside the bytes it was given.
            #expect(error.offset >= 0 && error.offset <= bytes.count)
            #expect(!error.field.isEmpty)
        }
    }

    @Test func corpusHasEventsAndACL() {
        #expect(Self.packets.filter { $0.type == .event }.count > 100)
        #expect(Self.packets.filter { $0.type == .acl }.count > 100)
    }

    @Test(arguments: 0..<4)
    func randomEvents(seed: UInt64) {
        var random = FuzzRandom(seed: 0xE000 + seed)
        let codes: [UInt8] = [0x05, 0x08, 0x0C, 0x0E, 0x0F, 0x10, 0x13, 0x1A, 0x3E, 0xFF]
        let subevents: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0A, 0x0B, 0x0C, 0x0D, 0x11, 0x14, 0x29]
        for _ in 0..<3000 {
            var parameters = random.bytes(random.int(0...40))
            let code = random.chance(90) ? codes[random.int(0...(codes.count - 1))] : random.byte()
            if code == 0x3E, random.chance(90) { parameters.insert(subevents[random.int(0...(subevents.count - 1))], at: 0) }
            // Report counts that promise more than the bytes hold.
            if code == 0x3E, parameters.count > 1, random.chance(50) { parameters[1] = UInt8(random.int(0...4)) }
            let length = random.chance(85) ? parameters.count : Int(random.edgeByte())
            Self.checkEvent([code, UInt8(truncatingIfNeeded: length)] + parameters)
        }
    }

    @Test(arguments: 0..<4)
    func mutatedCaptureEvents(seed: UInt64) {
        var random = FuzzRandom(seed: 0xE100 + seed)
        let events = Self.events
        for _ in 0..<4000 {
            var bytes = random.mutate(events[random.int(0...(events.count - 1))])
            // Keep the length field honest half of the time so the mutation reaches the fields behind it.
            if bytes.count >= 2, random.chance(50) { bytes[1] = UInt8(truncatingIfNeeded: bytes.count - 2) }
            Self.checkEvent(bytes)
        }
    }

    /// Every command whose Command Complete the host decodes.
    static let commands: [any HCICommand.Type] = [
        HCILECreateConnection.self, HCILEExtendedCreateConnection.self, HCILECreateConnectionCancel.self, HCIDisconnect.self,
        HCILEEnableEncryption.self, HCILELongTermKeyRequestReply.self, HCILELongTermKeyRequestNegativeReply.self,
        HCILESetDataLength.self, HCILEReadMaximumDataLength.self, HCILEReadSuggestedDefaultDataLength.self,
        HCILEWriteSuggestedDefaultDataLength.self, HCILEReadPHY.self, HCILESetDefaultPHY.self, HCILESetPHY.self,
        HCILESetScanParameters.self, HCILESetScanEnable.self, HCILESetExtendedScanParameters.self, HCILESetExtendedScanEnable.self,
        HCIReset.self, HCISetEventMask.self, HCIReadLocalVersionInformation.self, HCIReadLocalSupportedCommands.self,
        HCIReadLocalSupportedFeatures.self, HCIReadBDADDR.self, HCIReadBufferSize.self, HCILEConnectionUpdate.self,
        HCILERemoteConnectionParameterRequestReply.self, HCILERemoteConnectionParameterRequestNegativeReply.self,
        HCILEReadRemoteFeatures.self, HCIReadRemoteVersionInformation.self, HCIReadRSSI.self, HCILESetEventMask.self,
        HCILEReadBufferSizeV1.self, HCILEReadBufferSizeV2.self, HCILEReadLocalSupportedFeatures.self, HCILESetRandomAddress.self,
        HCILEReadFilterAcceptListSize.self, HCILEClearFilterAcceptList.self, HCILEAddDeviceToFilterAcceptList.self,
        HCILERemoveDeviceFromFilterAcceptList.self,
    ]

    /// Feeds random return parameters to one command through a Command Complete event and checks the outcome's kind.
    static func checkReturnParameters<C: HCICommand>(_ type: C.Type, _ random: inout FuzzRandom) {
        let returned = random.chance(10) ? [] : [random.chance(75) ? 0x00 : random.byte()] + random.bytes(random.int(0...72))
        let opcode = random.chance(95) ? C.opcode.rawValue : UInt16(truncatingIfNeeded: random.next())
        let parameters = [random.byte(), UInt8(truncatingIfNeeded: opcode), UInt8(truncatingIfNeeded: opcode >> 8)] + returned
        guard case .commandComplete(let complete)? = try? HCIEvent(bytes: [0x0E, UInt8(parameters.count)] + parameters) else {
            Issue.record("a well-framed Command Complete did not decode")
            return
        }
        do {
            _ = try complete.returnParameters(of: C.self)
            #expect(opcode == C.opcode.rawValue && returned.first == 0x00)
        } catch {
            switch error {
            case .unexpectedOpcode(let other): #expect(other.rawValue == opcode && opcode != C.opcode.rawValue)
            case .failed(let status): #expect(status.rawValue == returned.first && status.rawValue != 0)
            case .malformed(let malformed): #expect(returned.isEmpty || malformed.offset <= returned.count)
            case .timedOut: Issue.record("a decoder reported a timeout")
            }
        }
    }

    @Test(arguments: 0..<2)
    func everyReturnParameterDecoder(seed: UInt64) {
        var random = FuzzRandom(seed: 0xC000 + seed)
        for type in Self.commands {
            for _ in 0..<150 { Self.checkReturnParameters(type, &random) }
        }
    }

    @Test(arguments: 0..<4)
    func randomExtendedAdvertisingChains(seed: UInt64) {
        var random = FuzzRandom(seed: 0xEA00 + seed)
        var reassembler = ExtendedAdvertisingReassembler(maximumDataLength: 600, maximumPendingChains: 4)
        let addresses = (0..<6).compactMap { BluetoothAddress(bytes: [0xC0, 0, 0, 0, 0, UInt8($0)]) }
        // Fragments fed per advertiser and SID since its last completed report, to check what comes out.
        var fed: [String: [[UInt8]]] = [:]
        for _ in 0..<3000 {
            let address = addresses[random.int(0...(addresses.count - 1))]
            let sid = UInt8(random.int(0...2))
            let status = UInt16(random.chance(60) ? 1 : random.int(0...3))
            let properties = UInt16(random.chance(90) ? 0x01 : random.int(0...0x1F))
            let data = random.bytes(random.chance(90) ? random.int(0...229) : random.int(230...700))
            let report = LEExtendedAdvertisingReport(
                eventType: LEExtendedAdvertisingEventType(rawValue: properties | status << 5), addressType: .random, address: address,
                primaryPHY: .le1M, secondaryPHY: random.chance(95) ? .le1M : .le2M, advertisingSID: sid, data: data)
            let key = "\(address) \(sid)"
            if properties & 0x10 == 0 { fed[key, default: []].append(data) }
            let output = reassembler.add(report)
            #expect(reassembler.pendingChainCount <= 4)
            for out in output.reports {
                if properties & 0x10 != 0 {
                    #expect(out.data == data)
                    continue
                }
                #expect(out.data.count <= 600)
                let fragments = fed[key] ?? []
                if !out.isTruncated {
                    // A complete report is the run of fragments that ends with this one.
                    let runs = (1...max(1, fragments.count)).map { fragments.suffix($0).flatMap { $0 } }
                    #expect(runs.contains(out.data))
                }
                fed[key] = []
            }
        }
        let dropped = reassembler.reset()
        #expect(dropped.count <= 4 && reassembler.pendingChainCount == 0)
    }

    @Test(arguments: 0..<3)
    func h4StreamOfCapturePacketsInRandomChunks(seed: UInt64) throws {
        var random = FuzzRandom(seed: 0x4400 + seed)
        let packets = Array(Self.packets.prefix(3000))
        let stream = packets.flatMap(\.h4Bytes)
        var decoder = H4Decoder()
        var decoded: [HCIPacket] = []
        var offset = 0
        while offset < stream.count {
            let size = random.chance(10) ? random.int(300...5000) : random.int(1...40)
            let chunk = stream[offset..<min(stream.count, offset + size)]
            offset += chunk.count
            let (out, error) = decoder.decode(chunk)
            #expect(error == nil)
            decoded += out
            #expect(decoder.streamOffset == offset)
        }
        #expect(decoded == packets)
        #expect(decoder.pendingByteCount == 0)
    }

    @Test(arguments: 0..<4)
    func h4RandomBytesFailOnceAndStayFailed(seed: UInt64) {
        var random = FuzzRandom(seed: 0x4500 + seed)
        for _ in 0..<300 {
            // Mostly valid indicators with random headers, so packets of every type come out before the failure.
            var stream: [UInt8] = []
            for _ in 0..<random.int(1...20) {
                let type = random.chance(95) ? [0x01, 0x02, 0x03, 0x04, 0x05][random.int(0...4)] : random.byte()
                stream.append(type)
                stream += random.bytes(random.int(0...12))
            }
            var decoder = H4Decoder()
            var failure: H4Error?
            var pushed = 0
            var offset = 0
            while offset < stream.count {
                let chunk = stream[offset..<min(stream.count, offset + random.int(1...9))]
                offset += chunk.count
                pushed += chunk.count
                let (packets, error) = decoder.decode(chunk)
                for packet in packets {
                    let header = packet.type.h4HeaderLength
                    #expect(packet.bytes.count >= header)
                    #expect(packet.type.h4PayloadLength(header: packet.bytes.prefix(header)) == packet.bytes.count - header)
                }
                if let failure { #expect(error == failure && packets.isEmpty) }
                if let error { failure = error }
                #expect(decoder.streamOffset == pushed)
            }
            #expect(decoder.hasFailed == (failure != nil))
        }
    }
}
