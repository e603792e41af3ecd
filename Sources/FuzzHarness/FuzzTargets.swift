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

    /// Traps with a message: the fuzzer's signal that an invariant broke.
    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("fuzz invariant: \(message())") }
    }
}
