// The parsers the libFuzzer harness drives, each with the invariants a crash-free run must also keep.

import OCBAdvertising
import OCBATT
import OCBCore
import OCBHCI
import OCBL2CAP

/// One fuzz target: a name (OCB_FUZZ_TARGET) and a function that traps only on a real defect.
struct FuzzTarget: Sendable {
    let name: String
    let run: @Sendable ([UInt8]) -> Void

    /// Every target, in the order `seeds` and the replay mode list them.
    static let all: [FuzzTarget] = [
        FuzzTarget(name: "advertising", run: advertising),
        FuzzTarget(name: "hci-event", run: hciEvent),
        FuzzTarget(name: "att-pdu", run: attPDU),
        FuzzTarget(name: "capture", run: capture),
        FuzzTarget(name: "h4-stream", run: h4Stream),
        FuzzTarget(name: "l2cap", run: l2cap),
        FuzzTarget(name: "advertising-view", run: advertisingView),
        FuzzTarget(name: "gatt-client", run: gattClient),
    ]

    /// The targets named by OCB_FUZZ_TARGET (comma-separated), or all of them.
    static func selected(_ names: String?) -> [FuzzTarget] {
        guard let names, !names.isEmpty else { return all }
        let wanted = Set(names.split(separator: ",").map(String.init))
        return all.filter { wanted.contains($0.name) }
    }

    /// AdvertisingData (Core v5.4 Vol 3 Part C §11): lenient keeps what strict takes, and reports strict's fault first.
    static func advertising(_ bytes: [UInt8]) {
        let lenient = AdvertisingData(bytes: bytes)
        do {
            let strict = try AdvertisingData(bytes: bytes, mode: .strict)
            check(strict.structures == lenient.structures && lenient.diagnostics.isEmpty, "strict and lenient parses differ")
        } catch {
            check(lenient.diagnostics.first == error, "lenient mode's first fault is not strict mode's")
        }
        _ = (lenient.localName, lenient.serviceUUIDs, lenient.serviceData, lenient.manufacturerData, lenient.iBeacon, lenient.eddystone)
    }

    /// HCIEvent (Vol 4 Part E §5.4.4, §7.7) and, for extended reports, the reassembler; the bytes as H4 too.
    static func hciEvent(_ bytes: [UInt8]) {
        // The scan path's in-place reader: a view only of an event the decoder takes whole, with the same reports.
        if let view = LEAdvertisingReportView(eventPacket: bytes) {
            let viewed = view.map { [$0.eventType.rawValue, $0.addressType.rawValue] + $0.address.bytes + Array($0.data)
                + [UInt8(bitPattern: $0.rssi ?? 127), UInt8(bitPattern: $0.txPower ?? 127)] }
            let decoded: [[UInt8]]?
            switch try? HCIEvent(bytes: bytes) {
            case .leMeta(.advertisingReport(let event))? where event.diagnostic == nil:
                decoded = event.reports.map { [$0.eventType.rawValue, $0.addressType.rawValue] + $0.address.bytes + $0.data
                    + [UInt8(bitPattern: $0.rssi ?? 127), 127] }
            case .leMeta(.extendedAdvertisingReport(let event))? where event.diagnostic == nil:
                decoded = event.reports.map { [($0.eventType.legacyEventType ?? .other(0)).rawValue, $0.addressType.rawValue] + $0.address.bytes
                    + $0.data + [UInt8(bitPattern: $0.rssi ?? 127), UInt8(bitPattern: $0.txPower ?? 127)] }
            default:
                decoded = nil
            }
            check(decoded == viewed, "the advertising report view and the decoder disagree")
        }
        if let event = try? HCIEvent(bytes: bytes) {
            check(bytes.count >= 2 && bytes.count >= 2 + Int(bytes[1]), "an event decoded past its bytes")
            if case .leMeta(.extendedAdvertisingReport(let reports)) = event {
                var reassembler = ExtendedAdvertisingReassembler(maximumDataLength: 300, maximumPendingChains: 2)
                for _ in 0..<3 {
                    let output = reassembler.add(reports)
                    check(reassembler.pendingChainCount <= 2, "more chains pending than allowed")
                    for report in output.reports where report.kind == .extended {
                        check(report.data.count <= 300, "a reassembled report is over the limit")
                    }
                }
            }
        }
        var decoder = H4Decoder()
        let (packets, _) = decoder.decode(bytes)
        check(packets.reduce(0) { $0 + 1 + $1.bytes.count } <= bytes.count, "H4 packets hold more bytes than came in")
    }

    /// ATTPDU (Vol 3 Part F §3.4): re-encoding is stable; the bearer never sends above its MTU.
    static func attPDU(_ bytes: [UInt8]) {
        if let pdu = try? ATTPDU(bytes: bytes) {
            check(pdu.opcode.rawValue == bytes.first, "the decoded opcode is not the first byte")
            check((try? ATTPDU(bytes: pdu.bytes)) == pdu, "re-encoding changed the PDU")
        }
        var bearer = ATTBearer(receiveMTU: 64)
        let now = ContinuousClock.now
        bearer.exchangeMTU(now: now)
        bearer.receive([0x03, 0x40, 0x00], now: now)
        bearer.enqueue(ATTReadRequest(attributeHandle: 0x0003), now: now)
        bearer.receive(bytes, now: now)
        for case .send(let sent) in bearer.takeEvents() { check(sent.count <= bearer.mtu, "the bearer sent above its MTU") }
        // The same bytes as the payload of one L2CAP frame, fragmented into ACL packets.
        var recombiner = L2CAPRecombiner()
        let frame = [UInt8(truncatingIfNeeded: bytes.count), UInt8(truncatingIfNeeded: bytes.count >> 8), 0x04, 0x00] + bytes
        var start = 0
        repeat {
            let end = min(frame.count, start + 27)
            let packet = HCIACLDataPacket(handle: 0x0040, packetBoundary: start == 0 ? .firstNonFlushable : .continuing,
                                          data: Array(frame[start..<end]))
            for case .frame(let whole) in recombiner.receive(packet) { check(whole.payload == bytes, "recombination changed the payload") }
            start = end
        } while start < frame.count
    }

    /// CaptureFile (btsnoop, pcap, pcapng): records never outnumber what the bytes can hold.
    static func capture(_ bytes: [UInt8]) {
        guard let file = try? CaptureFile.read(bytes: bytes) else { return }
        check(file.records.count <= bytes.count / 12, "more records than the bytes can hold")
        for record in file.records { _ = record.isTruncated }
    }

    /// H4Decoder (Vol 4 Part A §2) on a byte stream cut into chunks whose sizes the input's first byte seeds: the
    /// packets and the error do not depend on where reads end, and nothing is decoded past the bytes. The in-place
    /// framer the H4 transport reads with (``HCI/H4Decoder/frames(in:_:)``) hands over the same packets and fails
    /// alike, also when its body stops it early once (the rest kept for the next read).
    static func h4Stream(_ bytes: [UInt8]) {
        guard let seed = bytes.first else { return }
        let stream = Array(bytes.dropFirst())
        var whole = H4Decoder()
        let (packets, error) = whole.decode(stream)
        var chunked = H4Decoder()
        var chunkedPackets: [HCIPacket] = []
        var chunkedError: H4Error?
        var start = 0
        var size = Int(seed % 7) + 1
        while start < stream.count {
            let end = min(stream.count, start + size)
            let (more, fault) = chunked.decode(stream[start..<end])
            chunkedPackets += more
            if chunkedError == nil { chunkedError = fault }
            start = end
            size = size % 13 + 1
        }
        check(chunkedPackets == packets, "the packets depend on the read boundaries")
        check((chunkedError == nil) == (error == nil), "an H4 fault depends on the read boundaries")
        check(packets.reduce(0) { $0 + 1 + $1.bytes.count } <= stream.count, "H4 packets hold more bytes than came in")

        var framer = H4Decoder()
        var framed: [HCIPacket] = []
        var framedError: H4Error?
        let stopAt = Int(seed >> 3)  // the packet after which the body stops the framing once
        start = 0
        size = Int(seed % 5) + 1
        // The reads, then an empty one that hands over what an early stop left in the buffer.
        var reads: [ArraySlice<UInt8>] = []
        while start < stream.count {
            let end = min(stream.count, start + size)
            reads.append(stream[start..<end])
            start = end
            size = size % 11 + 1
        }
        for read in reads + [[]] {
            do throws(H4Error) {
                try framer.frames(in: Array(read)) { type, packetBytes in
                    framed.append(HCIPacket(type: type, bytes: Array(packetBytes)))
                    return framed.count != stopAt
                }
            } catch {
                framedError = error
                break
            }
        }
        check(framed == packets, "the in-place framer hands over other packets than the decoder")
        check((framedError == nil) == (error == nil), "the in-place framer fails where the decoder does not, or not where it does")

        // Passing over at the body's request (a shedding host): after each legacy advertising report handed over
        // (when the seed's bit 2 is set, after every second one) the body asks the framer to pass over those that
        // follow; with bit 6 set its predicate ends every run at once (an app's request waiting throughout).
        var skipper = H4Decoder()
        var handed: [(packet: HCIPacket, skips: Bool)] = []
        var passedOver = 0
        var skipperError: H4Error?
        var reports = 0
        let stopsPassing = seed & 64 != 0
        // Reads of up to 320 bytes (several reports each, as a socket's reads hold during a flood).
        var skipperReads: [ArraySlice<UInt8>] = []
        start = 0
        size = Int(seed % 13) * 20 + 1
        while start < stream.count {
            let end = min(stream.count, start + size)
            skipperReads.append(stream[start..<end])
            start = end
            size = (size * 7 + 13) % 320 + 1
        }
        for read in skipperReads {
            do throws(H4Error) {
                try skipper.frames(in: Array(read), passingOver: &passedOver, stepping: { type, packetBytes in
                    let packet = HCIPacket(type: type, bytes: Array(packetBytes))
                    guard type == .event, HCIEvent.isLegacyAdvertisingReport(packetBytes) else {
                        handed.append((packet, false))
                        return .next
                    }
                    reports += 1
                    let skips = seed & 4 == 0 || reports % 2 == 0
                    handed.append((packet, skips))
                    return skips ? .skipLegacyAdvertisingReports(while: { !stopsPassing }) : .next
                })
            } catch {
                skipperError = error
                break
            }
        }
        // The model: a packet is passed over exactly when the one before it was passed over or answered with a skip,
        // it is a legacy report, it lies wholly in the read in which the one before it ended (a run never crosses a
        // read), and the predicate lets the run go on. Every other packet is handed over, in order.
        var readOf = [Int](repeating: 0, count: stream.count)
        for (index, read) in skipperReads.enumerated() { for offset in read.indices { readOf[offset] = index } }
        var position = 0, next = 0, expectedPassed = 0, previousSkips = false
        for packet in packets {
            let start = position, end = position + 1 + packet.bytes.count
            position = end
            let passes = previousSkips && !stopsPassing && start > 0 && end <= stream.count && readOf[start - 1] == readOf[end - 1]
                && packet.type == .event && HCIEvent.isLegacyAdvertisingReport(packet.bytes)
            if passes {
                expectedPassed += 1
                continue
            }
            check(next < handed.count && handed[next].packet == packet, "the framer passed over a packet it should have handed over, or handed over another")
            guard next < handed.count else { break }
            previousSkips = handed[next].skips
            next += 1
        }
        check(next == handed.count, "the framer handed over a packet the decoder did not frame")
        check(expectedPassed == passedOver, "the framer's count of reports passed over is not what it left out")
        check(skipperError == error, "passing over reports changes where or whether the stream fails")
    }

    /// L2CAPRecombiner (Vol 3 Part A §7.2) on ACL packets built from the input: per packet one byte (bits 0-1 the
    /// Packet_Boundary_Flag, bit 2 the handle 0x0040 or 0x0041, bits 3-7 the length up to 31), then that many bytes.
    /// A frame is whole (4 + Length bytes) and from the packets' own handle; faults drop only their PDU.
    static func l2cap(_ bytes: [UInt8]) {
        var recombiner = L2CAPRecombiner(maximumPayloadLength: 600)
        var offset = 0
        var fed = 0
        while offset < bytes.count {
            let control = bytes[offset]
            let length = min(Int(control >> 3), bytes.count - offset - 1)
            let data = Array(bytes[(offset + 1)..<(offset + 1 + length)])
            offset += 1 + length
            fed += data.count
            guard let boundary = HCIACLDataPacket.PacketBoundary(rawValue: control & 0b11) else { continue }
            let handle = ConnectionHandle(field: 0x0040 | UInt16((control >> 2) & 1))
            for output in recombiner.receive(HCIACLDataPacket(handle: handle, packetBoundary: boundary, data: data)) {
                if case .frame(let frame) = output {
                    check(frame.payload.count <= 600, "a frame above the maximum payload length")
                    check(frame.handle == handle, "a frame from another handle's fragments")
                    check(frame.payload.count + 4 <= fed, "a frame holds more bytes than came in")
                }
            }
        }
    }

    /// AdvertisingDataView (Vol 3 Part C §11): its one-pass fields and its lists and maps (service UUIDs, solicited
    /// UUIDs, service data, the first manufacturer data) agree with the full parse's accessors, and every range it
    /// gives lies inside the bytes.
    static func advertisingView(_ bytes: [UInt8]) {
        let view = AdvertisingDataView(bytes)
        let fields = view.fields()
        for structure in view { check(structure.value.upperBound <= bytes.count, "a structure's range runs past the bytes") }
        let parsed = AdvertisingData(bytes: bytes)
        check(fields.localName.map(view.string) == parsed.localName, "the view's name is not the parse's")
        check(view.serviceUUIDs == parsed.serviceUUIDs, "the view's service UUIDs are not the parse's")
        check(view.solicitedServiceUUIDs == parsed.solicitedServiceUUIDs, "the view's solicited UUIDs are not the parse's")
        check(view.serviceData == parsed.serviceData, "the view's service data is not the parse's")
        check(view.manufacturerData(fields) == parsed.manufacturerData.first, "the view's manufacturer data is not the parse's")
        check(fields.txPowerLevel == parsed.txPowerLevel, "the view's TX power is not the parse's")
        check(fields.flags == parsed.flags?.rawValue, "the view's flags are not the parse's")
        check(fields.isLocalNameComplete == parsed.isLocalNameComplete, "the view's name completeness is not the parse's")
        check(fields.manufacturerDataCount == parsed.manufacturerData.count, "the view counts other manufacturer data")
        // What the backend's in-place report relies on: no count where the parse has nothing, and the reverse.
        check((fields.serviceUUIDCount == 0) == parsed.serviceUUIDs.isEmpty, "the view's service UUID count disagrees with the parse")
        check((fields.solicitedServiceUUIDCount == 0) == parsed.solicitedServiceUUIDs.isEmpty,
              "the view's solicited UUID count disagrees with the parse")
        check((fields.serviceDataCount == 0) == parsed.serviceData.isEmpty, "the view's service data count disagrees with the parse")
        if let range = fields.manufacturerData, let first = parsed.manufacturerData.first {
            check(UInt16(bytes[range.lowerBound]) | UInt16(bytes[range.lowerBound + 1]) << 8 == first.companyID
                  && Array(bytes[(range.lowerBound + 2)..<range.upperBound]) == first.payload, "the view's manufacturer data is not the parse's")
        } else {
            check(fields.manufacturerData == nil && parsed.manufacturerData.isEmpty, "the view finds manufacturer data the parse does not")
        }
    }

    /// Traps with a message: the fuzzer's signal that an invariant broke.
    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("fuzz invariant: \(message())") }
    }
}
