// The benchmark input: the eight fixture captures, read once, and the packets, reports and PDUs taken from them.

import OCBAdvertising
import Foundation
import OCBHCI
import OCBL2CAP

/// Everything the benchmarks feed to the protocol layers, prepared up front so a pass measures one layer only.
struct Corpus {
    /// The raw bytes of the biggest capture file.
    var biggestFile: [UInt8] = []
    /// Its name.
    var biggestName = ""
    /// The H4 stream of the biggest capture: every record's H4 bytes, concatenated.
    var biggestH4Stream: [UInt8] = []
    /// Every HCI event packet of every capture.
    var events: [HCIPacket] = []
    /// The advertising data of every legacy and extended report of every capture.
    var advertisingData: [[UInt8]] = []
    /// Every capture's ACL packets, decoded, as (direction, packet), one list per capture.
    var acl: [[(CaptureDirection, HCIACLDataPacket)]] = []
    /// Every ATT PDU (L2CAP CID 0x0004 payload) of every capture.
    var attPDUs: [[UInt8]] = []

    /// Reads every .btsnoop file of `directory`.
    init(directory: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".btsnoop") }.sorted()
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(name)))
            let capture = try CaptureFile.read(bytes: bytes)
            if bytes.count > biggestFile.count {
                biggestFile = bytes
                biggestName = name
                biggestH4Stream = capture.records.flatMap { $0.packet?.h4Bytes ?? [] }
            }
            add(capture)
        }
    }

    private mutating func add(_ capture: CaptureFile) {
        var recombiners: [CaptureDirection: L2CAPRecombiner] = [:]
        var packets: [(CaptureDirection, HCIACLDataPacket)] = []
        for record in capture.records {
            guard let packet = record.packet else { continue }
            if packet.type == .event {
                events.append(packet)
                switch try? HCIEvent(packet: packet) {
                case .leMeta(.advertisingReport(let event)): advertisingData += event.reports.map(\.data)
                case .leMeta(.extendedAdvertisingReport(let event)): advertisingData += event.reports.map(\.data)
                default: break
                }
            } else if packet.type == .acl, let acl = try? HCIACLDataPacket(bytes: packet.bytes) {
                packets.append((record.direction, acl))
                for case .frame(let frame) in recombiners[record.direction, default: L2CAPRecombiner()].receive(acl)
                where frame.channelID == .attributeProtocol {
                    attPDUs.append(frame.payload)
                }
            }
        }
        acl.append(packets)
    }
}
