// Writes a capture story as readable text or as JSON lines.

import OCBCore
import OCBHCI

/// Renders a ``CaptureStory`` through an ``OutputSink``.
///
/// JSON mode writes one object per line, each with a `type`: `capture`, `advertiser`, `connection`, `service`,
/// `characteristic` (descriptors inside), `descriptor` (orphans only), `counter` (per attribute handle), then `summary`.
/// Times are ISO 8601 UTC with milliseconds in JSON (`start`, `end`, `…At`, `firstSeen`, `lastSeen`; the same format as
/// `scan --json`) and seconds from the capture's start in text (`+12.345 s`). The text summary counts are singular
/// or plural as the count needs ("1 connection"); the JSON keys are always plural.
public enum StoryRenderer {
    /// Writes the story of `name` (the file name shown).
    public static func emit(_ story: CaptureStory, name: String, to output: OutputSink) {
        let start = story.firstTimestamp ?? 0
        let span = elapsed(story.lastTimestamp ?? start, since: start)
        output.emit("capture \(name): \(formatName(story.format)), \(count(story.recordCount, "records")) over \(seconds(span))",
                    json: ["type": "capture", "file": .string(name), "format": .string(formatName(story.format)),
                           "records": .integer(story.recordCount),
                           "start": story.firstTimestamp.map(time) ?? .null,
                           "end": story.lastTimestamp.map(time) ?? .null])
        if let error = story.readError {
            output.emit("  (reading stopped early: \(error))", json: ["type": "readError", "message": .string(error.description)])
        }

        output.note("")
        output.note("advertisers (\(story.advertisers.count)):")
        for advertiser in story.advertisers {
            var snapshot = advertiser.snapshot
            snapshot.address = advertiser.address.description
            let line = "  " + AdvertiserFormatter.line(snapshot) + "; \(advertiser.reportCount) report\(advertiser.reportCount == 1 ? "" : "s")"
                + (advertiser.isExtended ? ", extended" : "")
            let names = advertiser.names.count > 1 ? ["    names seen: " + advertiser.names.map { "\"\($0)\"" }.joined(separator: ", ")] : []
            output.emit(text: [line] + names, json: AdvertiserFormatter.json(snapshot, extra: [
                "names": .array(advertiser.names.map { .string($0) }), "reports": .integer(advertiser.reportCount),
                "extended": .bool(advertiser.isExtended), "firstSeen": time(advertiser.firstSeen), "lastSeen": time(advertiser.lastSeen),
            ]))
        }

        output.note("")
        output.note("connections (\(story.connections.count)):")
        for connection in story.connections {
            output.emit(text: ["  " + connectionLine(connection, start: start)] + connection.attErrors.map { "    " + errorLine($0) },
                        json: connectionJSON(connection))
        }

        for peer in story.peers {
            output.note("")
            output.note("GATT database of \(peer.key) (connection\(peer.connections.count == 1 ? "" : "s") "
                        + peer.connections.map { "#\($0)" }.joined(separator: ", ") + "):")
            let extra: [String: JSONValue] = ["peer": .string(peer.key)]
            if peer.services.isEmpty && peer.orphanCharacteristics.isEmpty && peer.orphanDescriptors.isEmpty {
                output.note("  (no discovery in the capture)")
            }
            GATTTreePrinter.emit(peer.services, to: output, indent: 2, extra: extra)
            for characteristic in peer.orphanCharacteristics {
                output.emit(text: ["  (outside known services) " + GATTTreePrinter.characteristicLine(characteristic)]
                                + characteristic.descriptors.map { "    " + GATTTreePrinter.descriptorLine($0) },
                            json: GATTTreePrinter.json(characteristic, service: nil, extra: extra))
            }
            for descriptor in peer.orphanDescriptors {
                output.emit("  (outside known characteristics) " + GATTTreePrinter.descriptorLine(descriptor),
                            json: ["type": "descriptor", "peer": .string(peer.key), "handle": .integer(descriptor.handle),
                                   "uuid": .string(descriptor.uuid.description), "name": .optional(AssignedNumbers.name(for: descriptor.uuid))])
            }
            if !peer.counters.isEmpty {
                output.note("  traffic:")
                for counter in peer.counters {
                    output.emit("    " + counterLine(counter, name: peer.attributeLabel(counter.handle)),
                                json: counterJSON(counter, peer: peer))
                }
            }
        }

        let summary = summarize(story)
        output.note("")
        output.emit("summary: " + summary.map { count($0.value, $0.key) }.joined(separator: ", "),
                    json: .object(Dictionary(uniqueKeysWithValues: summary.map { ($0.key, JSONValue.integer($0.value)) } + [("type", "summary")])))
        if !story.problems.isEmpty {
            output.emit("problems: " + story.problems.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", "),
                        json: ["type": "problems", "counts": .object(story.problems.mapValues { .integer($0) })])
        }
    }

    /// The summary counts, in display order.
    public static func summarize(_ story: CaptureStory) -> [(key: String, value: Int)] {
        let counters = story.peers.flatMap(\.counters)
        let characteristics = story.peers.flatMap(\.allCharacteristics)
        return [
            ("advertisers", story.advertisers.count),
            ("connections", story.connections.count),
            ("services", story.peers.reduce(0) { $0 + $1.services.count }),
            ("characteristics", characteristics.count),
            ("descriptors", characteristics.reduce(0) { $0 + $1.descriptors.count } + story.peers.reduce(0) { $0 + $1.orphanDescriptors.count }),
            ("reads", counters.reduce(0) { $0 + $1.reads }),
            ("writes", counters.reduce(0) { $0 + $1.writes }),
            ("notifications", counters.reduce(0) { $0 + $1.notifications }),
            ("indications", counters.reduce(0) { $0 + $1.indications }),
        ]
    }

    static func connectionLine(_ connection: StoryConnection, start: Int64) -> String {
        var line = "#\(connection.number) handle \(GATTText.handle(connection.handle.rawValue))"
        if let peer = connection.peerAddress {
            line += " peer \(peer)" + (connection.peerAddressType.map { " (\($0))" } ?? "")
        } else {
            line += " peer unknown (no connection event in the capture)"
        }
        if let central = connection.isCentral { line += central ? ", we are central" : ", we are peripheral" }
        line += ", " + (connection.isAnnounced ? "connected" : "first seen") + " at +" + seconds(elapsed(connection.connectedAt, since: start))
        if let end = connection.disconnectedAt {
            line += ", disconnected at +" + seconds(elapsed(end, since: start))
            if let reason = connection.reason { line += " (\(reason))" }
        } else {
            line += ", still connected at the end"
        }
        return line + ", \(connection.attPDUCount) ATT PDUs" + (connection.attMTU.map { ", ATT_MTU \($0)" } ?? "")
            + (connection.attErrors.isEmpty ? "" : ", \(count(connection.attErrors.reduce(0) { $0 + $1.count }, "ATT errors")):")
    }

    /// "received 3× ATT_READ_BY_TYPE_REQ on 0x0001: Attribute Not Found (0x0A)" (Core v5.4 Vol 3 Part F §3.4.1.1).
    static func errorLine(_ error: StoryATTError) -> String {
        "\(error.direction == .received ? "received" : "sent") \(error.count)× \(error.requestOpcode.name) on "
            + GATTText.handle(error.handle.rawValue) + ": \(error.error) (0x" + Hex.uppercase(error.error.rawValue, digits: 2) + ")"
    }

    /// The opcode counts as JSON: {"0x0a": 3, ...}, keys the opcode byte in lower-case hex as tshark prints it.
    static func opcodesJSON(_ counts: [UInt8: Int]) -> JSONValue {
        .object(Dictionary(uniqueKeysWithValues: counts.map { ("0x" + Hex.string([$0.key]), .integer($0.value)) }))
    }

    static func connectionJSON(_ connection: StoryConnection) -> JSONValue {
        ["type": "connection", "number": .integer(connection.number), "handle": .integer(connection.handle.rawValue),
         "peer": .optional(connection.peerAddress?.description), "peerAddressType": .optional(connection.peerAddressType?.description),
         "role": .optional(connection.isCentral.map { $0 ? "central" : "peripheral" }),
         "connectedAt": time(connection.connectedAt), "disconnectedAt": connection.disconnectedAt.map(time) ?? .null,
         "reason": connection.reason.map { .integer($0.rawValue) } ?? .null, "reasonName": .optional(connection.reason?.name),
         "announced": .bool(connection.isAnnounced), "attPDUs": .integer(connection.attPDUCount),
         "attMTU": connection.attMTU.map { .integer($0) } ?? .null, "mtuExchanges": .array(connection.mtuExchanges.map { .integer($0) }),
         "opcodes": ["sent": opcodesJSON(connection.sentOpcodes), "received": opcodesJSON(connection.receivedOpcodes)],
         "attErrors": .array(connection.attErrors.map { error in
             ["direction": .string(error.direction == .received ? "received" : "sent"), "requestOpcode": .integer(error.requestOpcode.rawValue),
              "handle": .integer(error.handle), "error": .integer(error.error.rawValue), "errorName": .string(error.error.description),
              "count": .integer(error.count)]
         })]
    }

    static func counterLine(_ counter: AttributeCounter, name: String?) -> String {
        var parts: [String] = []
        if counter.reads > 0 { parts.append(count(counter.reads, "reads")) }
        if counter.readBlobs > 0 { parts.append(count(counter.readBlobs, "read blobs")) }
        if counter.writes > 0 {
            parts.append(count(counter.writes, "writes") + " (\(counter.writeRequests) with response, \(counter.writeCommands) without"
                         + (counter.queuedWrites > 0 ? ", \(counter.queuedWrites) queued)" : ")"))
        }
        if counter.notifications > 0 { parts.append(count(counter.notifications, "notifications")) }
        if counter.indications > 0 { parts.append(count(counter.indications, "indications")) }
        return GATTText.handle(counter.handle) + (name.map { " " + $0 } ?? "") + ": " + parts.joined(separator: ", ")
    }

    static func counterJSON(_ counter: AttributeCounter, peer: StoryPeer) -> JSONValue {
        ["type": "counter", "peer": .string(peer.key), "handle": .integer(counter.handle), "name": .optional(peer.attributeName(counter.handle)),
         "reads": .integer(counter.reads), "readBlobs": .integer(counter.readBlobs), "writeRequests": .integer(counter.writeRequests),
         "writeCommands": .integer(counter.writeCommands), "queuedWrites": .integer(counter.queuedWrites), "writes": .integer(counter.writes),
         "notifications": .integer(counter.notifications), "indications": .integer(counter.indications)]
    }

    static func count(_ value: Int, _ plural: String) -> String { GATTText.count(value, plural) }

    /// A capture time (microseconds since 1970) as JSON: an ISO 8601 string, see ``ISOTime``.
    static func time(_ microseconds: Int64) -> JSONValue { .string(ISOTime.string(microsecondsSince1970: microseconds)) }

    static func formatName(_ format: CaptureFormat) -> String {
        switch format {
        case let .btsnoop(datalink): "btsnoop \(datalink)"
        case let .pcap(linkType, _, _): "pcap link type \(linkType)"
        case .pcapng: "pcapng"
        }
    }

    static func seconds(_ value: Double) -> String { String(format6: value).dropLast(3) + " s" }

    /// Seconds from `start` to `time` (microseconds from a capture file: any Int64, so the difference is taken in Double).
    static func elapsed(_ time: Int64, since start: Int64) -> Double { (Double(time) - Double(start)) / 1_000_000 }
}
