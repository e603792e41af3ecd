// The tolerant replay: answers what the stack sends by kind from a recording made by any stack.

import OCBCore
import OCBHCI
import OCBL2CAP

/// Plays a recording made by another stack (a phone's btsnoop, btmon, an older version of this one) to this one
/// (sans-I/O: packets in, packets out). Nothing is compared byte for byte; each packet is answered by kind:
///
/// - **Commands by opcode.** The recording's next command with the same opcode (or, past the last one, its first)
///   gives the answer: its Command Complete or Command Status. A command the recording never sent is answered as a
///   plain controller would (``ReplayDefaults``): success and typical values for the commands of bring-up, scanning
///   and connecting; Unknown HCI Command (0x01) for any other. Both are listed in ``unmatched``.
/// - **Consequences.** Enabling a scan plays every advertising report of the recording, in order (the app looks for
///   its device among all the other stack heard, whenever it scanned), and one made-up connectable report without
///   data for each peer the recording connected to but never heard advertise (the other stack knew it already). A connect plays the recording's connection complete for the
///   same peer address (made up when it has none, on the recording's first ACL handle). A disconnect plays its
///   Disconnection Complete (made up when it has none). These packets take the time of the last one played (the
///   other stack's timeline is not this one's). A connect being completed at once, cancelling one answers Command
///   Disallowed (0x0C), as a controller with no connect pending does (Core v5.4 Vol 4 Part E §7.8.13).
/// - **ATT requests by opcode and handle** (``attKey(_:)``): the answer is the peer's response to the same request in
///   the recording (its response opcode, or an Error Response naming it), then the notifications and indications the
///   peer sent until the recording's next request. A request the recording lacks is answered from the attributes the
///   recording reveals (``RecordedAttributes``: a discovery by UUID where the other stack discovered all, other
///   ranges, reads of values it read); failing that, with an Error Response: Attribute Not Found (0x0A) for
///   discovery, Unlikely Error (0x0E) for an attribute the recording shows without its value, Invalid Handle (0x01)
///   otherwise, listed in ``unmatched``.
/// - **Flow control.** Every ACL packet sent is completed at once (Number Of Completed Packets, §7.7.19); the
///   recording's own ones, and answers to commands not asked, are never played.
///
/// Connection handles are the recording's (the replay is the controller that chose them); an ATT answer is sent on the
/// handle the stack used. Bounds: ``unmatched`` keeps the first ``unmatchedLimit`` kinds, each with a count.
public struct TolerantReplay: Sendable {
    /// The most different unmatched kinds listed.
    public static let unmatchedLimit = 256

    private let records: [ReplayRecord]
    /// Host command record indices by opcode, in order.
    private var commandIndices: [UInt16: [Int]] = [:]
    /// Host ATT requests by key (``attKey(_:)``), in order: record index and connection handle.
    private var requestIndices: [[UInt8]: [(index: Int, handle: UInt16)]] = [:]
    /// The recording's ATT PDUs from the peer: record index, connection handle, PDU (whole, recombined).
    private var peerPDUs: [(index: Int, handle: UInt16, pdu: [UInt8])] = []
    /// Indices of host ATT requests per connection handle, in order (where a request's answer and notifications stop).
    private var requestOrder: [UInt16: [Int]] = [:]
    private var commandCursor = 0
    private var requestCursor = 0
    /// The capture time of the last packet played (made-up and re-timed packets take it).
    private var playedTimestamp: Int64
    private var hostRecombiner = ATTFrameJoiner()
    /// The peer's attributes as the recording reveals them, for requests the other stack never made.
    private var attributes = RecordedAttributes()
    private var unmatchedCounts: [String: Int] = [:]
    private var unmatchedOrder: [String] = []

    /// A replay of `records` (``ReplayRecord/records(of:)``).
    public init(records: [ReplayRecord]) {
        self.records = records
        playedTimestamp = records.first?.timestamp ?? 0
        var sentJoiner = ATTFrameJoiner(), receivedJoiner = ATTFrameJoiner()
        var pending: [UInt16: [UInt8]] = [:]  // the outstanding request per connection (one at a time, Vol 3 Part F §3.3.2)
        for (index, record) in records.enumerated() {
            switch (record.packet.type, record.direction) {
            case (.command, .sent):
                if let opcode = Self.commandOpcode(record.packet) { commandIndices[opcode, default: []].append(index) }
            case (.acl, .sent):
                for (handle, pdu) in sentJoiner.join(record.packet) {
                    guard let key = Self.attKey(pdu) else { continue }
                    requestIndices[key, default: []].append((index, handle))
                    requestOrder[handle, default: []].append(index)
                    pending[handle] = pdu
                }
            case (.acl, .received):
                for (handle, pdu) in receivedJoiner.join(record.packet) {
                    peerPDUs.append((index, handle, pdu))
                    if let request = pending[handle], Self.answers(pdu, request) {
                        attributes.learn(request: request, response: pdu)
                        pending[handle] = nil
                    }
                }
            default:
                continue
            }
        }
    }

    /// Nothing is played before the stack sends (a recording of another stack starts with that stack's bring-up).
    public mutating func opening() -> [ReplayRecord] { [] }

    /// What the recording could not answer, each kind once with how often: "command 0x2041 LE Set Extended Scan
    /// Parameters: answered as a plain controller would (×2)".
    public var unmatched: [String] {
        unmatchedOrder.map { kind in
            let count = unmatchedCounts[kind] ?? 1
            return count == 1 ? kind : kind + " (×\(count))"
        }
    }

    /// The capture time of the last packet played (the replay's "now").
    public var lastTimestamp: Int64 { playedTimestamp }

    /// The kinds of ``unmatched``, in the order met, without their counts.
    public var unmatchedKinds: [String] { unmatchedOrder }

    /// Always nil: the other stack's timeline says nothing of when this one sends (``ReplayTransport`` plays a
    /// tolerant replay's answers at once and lets the host's time move only while it waits).
    public var nextHostTimestamp: Int64? { nil }

    /// The packets that answer `packet` (never fails: what cannot be matched is answered by default and listed).
    public mutating func receive(_ packet: HCIPacket) -> [ReplayRecord] {
        switch packet.type {
        case .command: return answerCommand(packet)
        case .acl: return answerACL(packet)
        default: return []
        }
    }

    // MARK: Commands

    private mutating func answerCommand(_ packet: HCIPacket) -> [ReplayRecord] {
        guard let opcode = Self.commandOpcode(packet) else { return [] }
        let params = Array(packet.bytes.dropFirst(3))
        if opcode == 0x200E {
            // LE Create Connection Cancel: every connect was completed at once, so none is pending: Command Disallowed
            // (0x0C), whatever the other stack's controller answered to its own cancel.
            return [made(HCIPacket(type: .event, bytes: [0x0E, 0x04, 0x01, 0x0E, 0x20, 0x0C]))]
        }
        let found = matchingCommand(opcode, params: params)
        var out: [ReplayRecord] = []
        if let found, let answer = answerIndex(to: opcode, after: found) {
            commandCursor = max(commandCursor, found + 1)
            out.append(retimed(records[answer]))
        } else {
            let (event, known) = ReplayDefaults.answer(to: opcode, params: params)
            note("command \(HCIOpcode(rawValue: opcode)): " + (known ? "answered as a plain controller would" : "answered Unknown HCI Command (0x01)"))
            out.append(made(event))
        }
        out += consequences(of: opcode, params: params, recorded: found)
        return out
    }

    /// The recorded command that answers best: the next with the same opcode and parameters, else the next with the
    /// same opcode (from the cursor on, then from the start).
    private func matchingCommand(_ opcode: UInt16, params: [UInt8]) -> Int? {
        let indices = commandIndices[opcode] ?? []
        func same(_ index: Int) -> Bool { records[index].packet.bytes.dropFirst(3).elementsEqual(params) }
        return indices.first { $0 >= commandCursor && same($0) } ?? indices.first(where: same)
            ?? Self.next(in: indices, from: commandCursor)
    }

    /// The first Command Complete or Command Status for `opcode` after record `index`.
    private func answerIndex(to opcode: UInt16, after index: Int) -> Int? {
        var position = index + 1
        while position < records.count {
            let record = records[position]
            if record.direction == .received, Self.answeredOpcode(record.packet) == opcode { return position }
            position += 1
        }
        return nil
    }

    private mutating func consequences(of opcode: UInt16, params: [UInt8], recorded: Int?) -> [ReplayRecord] {
        switch opcode {
        case 0x200C, 0x2042:  // LE Set (Extended) Scan Enable: Enable is the first parameter
            guard params.first == 0x01 else { return [] }
            return advertisingReports()
        case 0x200D, 0x2043:  // LE (Extended) Create Connection: the peer address's offset in the parameters
            let offset = opcode == 0x200D ? 5 : 2
            guard params.count >= offset + 7 else { return [] }
            return [connectionComplete(peerType: params[offset], peer: Array(params[(offset + 1)...(offset + 6)]), after: recorded)]
        case 0x200E:  // LE Create Connection Cancel: every connect was completed at once, so none is pending
            return []
        case 0x0406:  // Disconnect: Connection_Handle, Reason
            guard params.count >= 2 else { return [] }
            return [disconnectionComplete(handle: UInt16(params[0]) | UInt16(params[1] & 0x0F) << 8, after: recorded)]
        default:
            return []
        }
    }

    /// Every advertising report of the recording, in order (whichever scans the other stack ran, and whenever: the
    /// app looks for its device among all it heard).
    private mutating func advertisingReports() -> [ReplayRecord] {
        var out = records.filter { $0.direction == .received && Self.isAdvertisingReport($0.packet) }.map(retimed)
        // A peer the recording connected to without hearing it advertise (the other stack knew it) is made to
        // advertise once, connectable and without data, so that an app can find it as it finds any device.
        var heard = Set(out.compactMap { Self.reportedAddress($0.packet) })
        for record in records where record.direction == .received {
            let bytes = record.packet.bytes
            // LE (Enhanced) Connection Complete: subevent, status, handle (2), role, peer address type, peer address (6).
            guard record.packet.type == .event, bytes.count >= 14, bytes[0] == 0x3E, [0x01, 0x0A, 0x29].contains(bytes[2]),
                  bytes[3] == 0x00 else { continue }
            let address = Array(bytes[8..<14])
            guard address != [0, 0, 0, 0, 0, 0], !heard.contains(address) else { continue }
            heard.insert(address)
            note("scan: \(Self.addressText(address)) never advertised in the recording; made it advertise (connectable, no data)")
            // LE Advertising Report (Vol 4 Part E §7.7.65.2): one report, ADV_IND, its address type, no data, −60 dBm.
            out.append(made(HCIPacket(type: .event, bytes: [0x3E, 0x0C, 0x02, 0x01, 0x00, bytes[7] & 0x01] + address + [0x00, 0xC4])))
        }
        if out.isEmpty { note("scan: the recording has no advertising reports") }
        return out
    }

    private mutating func connectionComplete(peerType: UInt8, peer: [UInt8], after recorded: Int?) -> ReplayRecord {
        let start = (recorded ?? -1) + 1
        let candidates = records.indices.lazy.filter { $0 >= start } + records.indices.lazy.filter { $0 < start }
        for position in candidates {
            let bytes = records[position].packet.bytes
            // Subevent, status, handle (2), role, peer address type, then the peer address at bytes 8-13 (§7.7.65.1, .10).
            guard records[position].direction == .received, records[position].packet.type == .event, bytes.count >= 14,
                  bytes[0] == 0x3E, [0x01, 0x0A, 0x29].contains(bytes[2]), bytes[3] == 0x00, Array(bytes[8..<14]) == peer else { continue }
            return retimed(records[position])
        }
        let handle = firstACLHandle ?? 0x0040
        note("connect: the recording has no connection to \(Self.addressText(peer)); made one up on handle 0x\(String(handle, radix: 16))")
        var event: [UInt8] = [0x3E, 19, 0x01, 0x00, UInt8(handle & 0xFF), UInt8(handle >> 8), 0x00, peerType]
        event += peer + [0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00]  // 30 ms, latency 0, 720 ms, 500 ppm
        return made(HCIPacket(type: .event, bytes: event))
    }

    private mutating func disconnectionComplete(handle: UInt16, after recorded: Int?) -> ReplayRecord {
        var position = (recorded ?? records.count) + 1
        while position < records.count {
            let bytes = records[position].packet.bytes
            if records[position].direction == .received, records[position].packet.type == .event, bytes.count >= 6, bytes[0] == 0x05,
               UInt16(bytes[3]) | UInt16(bytes[4] & 0x0F) << 8 == handle {
                return retimed(records[position])
            }
            position += 1
        }
        note("disconnect: the recording has no Disconnection Complete for handle 0x\(String(handle, radix: 16)); made one up")
        return made(HCIPacket(type: .event, bytes: [0x05, 4, 0x00, UInt8(handle & 0xFF), UInt8(handle >> 8), 0x16]))
    }

    private var firstACLHandle: UInt16? {
        records.lazy.filter { $0.packet.type == .acl && $0.packet.bytes.count >= 2 }
            .map { UInt16($0.packet.bytes[0]) | UInt16($0.packet.bytes[1] & 0x0F) << 8 }.first
    }

    // MARK: ACL and ATT

    private mutating func answerACL(_ packet: HCIPacket) -> [ReplayRecord] {
        guard packet.bytes.count >= 2 else { return [] }
        let handle = UInt16(packet.bytes[0]) | UInt16(packet.bytes[1] & 0x0F) << 8
        // Number Of Completed Packets: one handle, one packet.
        var out = [made(HCIPacket(type: .event, bytes: [0x13, 5, 1, UInt8(handle & 0xFF), UInt8(handle >> 8), 1, 0]))]
        for (_, pdu) in hostRecombiner.join(packet) {
            guard let key = Self.attKey(pdu) else { continue }
            out += answerRequest(pdu, key: key, on: handle)
        }
        return out
    }

    private mutating func answerRequest(_ pdu: [UInt8], key: [UInt8], on handle: UInt16) -> [ReplayRecord] {
        let opcode = pdu[0]  // attKey gave a key: the PDU is not empty
        if opcode == 0x16 {
            // Prepare Write: the server echoes the part it queued (Vol 3 Part F §3.4.6.2); the recorded echo would carry
            // the other stack's value and fail the client's check.
            return [made(Self.attPacket([0x17] + pdu.dropFirst(), on: handle))]
        }
        let candidates = requestIndices[key] ?? []
        let chosen = candidates.first { $0.index >= requestCursor } ?? candidates.first
        if let chosen, let (answer, stop) = recordedAnswer(to: pdu, at: chosen) {
            requestCursor = max(requestCursor, chosen.index + 1)
            var out: [ReplayRecord] = []
            for (offset, entry) in peerPDUs[answer...].enumerated() {
                guard entry.index < stop else { break }
                guard entry.handle == chosen.handle else { continue }
                let isValue = entry.pdu.first.map { [0x1B, 0x1D, 0x23].contains($0) } ?? false
                guard offset == 0 || isValue else { continue }
                out.append(ReplayRecord(number: records[entry.index].number, timestamp: playedTimestamp, direction: .received,
                                        packet: Self.attPacket(entry.pdu, on: handle)))
            }
            return out
        }
        if let response = attributes.answer(pdu) {
            return [made(Self.attPacket(response, on: handle))]
        }
        switch opcode {
        case 0x02:  // Exchange MTU: the server keeps the default, 23 (Vol 3 Part F §3.4.2.2)
            return [made(Self.attPacket([0x03, 0x17, 0x00], on: handle))]
        case 0x18:  // Execute Write: done (the parts were echoed)
            return [made(Self.attPacket([0x19], on: handle))]
        default:
            let attHandle: [UInt8] = pdu.count >= 3 ? [pdu[1], pdu[2]] : [0, 0]
            let handleValue = UInt16(attHandle[0]) | UInt16(attHandle[1]) << 8
            // Discovery past what the recording shows: Attribute Not Found (0x0A), as the end of a database is told. A
            // request on an attribute the recording shows but never read or wrote: Unlikely Error (0x0E), the value is
            // not known; on any other handle: Invalid Handle (0x01).
            let error: UInt8 = [0x04, 0x06, 0x08, 0x10].contains(opcode) ? 0x0A : attributes.knows(handleValue) ? 0x0E : 0x01
            note("ATT \(Self.attName(opcode)) " + (pdu.count >= 3 ? "handle 0x" + String(handleValue, radix: 16) : "")
                 + (error == 0x0E ? ": the recording never shows this value, answered Error Response 0x0e (Unlikely Error)"
                                  : ": not in the recording, answered Error Response 0x" + String(error, radix: 16)))
            return [made(Self.attPacket([0x01, opcode] + attHandle + [error], on: handle))]
        }
    }

    /// The position in ``peerPDUs`` of the peer's answer to the recorded request `chosen` (on its connection, before the
    /// next request there), and the record index where that request's notifications stop; nil when it was not answered.
    private func recordedAnswer(to pdu: [UInt8], at chosen: (index: Int, handle: UInt16)) -> (Int, stop: Int)? {
        let stop = requestOrder[chosen.handle]?.first { $0 > chosen.index } ?? records.count
        // peerPDUs is in record order: binary search for the first one after the request.
        var low = 0, high = peerPDUs.count
        while low < high {
            let middle = low + (high - low) / 2
            if peerPDUs[middle].index <= chosen.index { low = middle + 1 } else { high = middle }
        }
        var position = low
        while position < peerPDUs.count, peerPDUs[position].index < stop {
            let entry = peerPDUs[position]
            if entry.handle == chosen.handle, Self.answers(entry.pdu, pdu) { return (position, stop) }
            position += 1
        }
        return nil
    }

    // MARK: Helpers

    private mutating func note(_ kind: String) {
        if let count = unmatchedCounts[kind] {
            unmatchedCounts[kind] = count + 1
        } else if unmatchedOrder.count < Self.unmatchedLimit {
            unmatchedCounts[kind] = 1
            unmatchedOrder.append(kind)
        }
    }

    /// A recorded packet played out of its place, at the time of the last one played (it keeps its record number).
    private func retimed(_ record: ReplayRecord) -> ReplayRecord {
        var copy = record
        copy.timestamp = playedTimestamp
        return copy
    }

    /// A made-up packet, at the time of the last one played (record number 0: not from the file).
    private func made(_ packet: HCIPacket) -> ReplayRecord {
        ReplayRecord(number: 0, timestamp: playedTimestamp, direction: .received, packet: packet)
    }

    /// The first index in `indices` at or after `cursor`, else the first of all (the recording repeats itself).
    static func next(in indices: [Int], from cursor: Int) -> Int? {
        indices.first { $0 >= cursor } ?? indices.first
    }

    /// A command's opcode (its first two bytes, little-endian).
    static func commandOpcode(_ packet: HCIPacket) -> UInt16? {
        guard packet.type == .command, packet.bytes.count >= 3 else { return nil }
        return UInt16(packet.bytes[0]) | UInt16(packet.bytes[1]) << 8
    }

    /// The opcode a Command Complete (0x0E) or Command Status (0x0F) answers.
    static func answeredOpcode(_ packet: HCIPacket) -> UInt16? {
        let bytes = packet.bytes
        guard packet.type == .event, bytes.count >= 5 else { return nil }
        if bytes[0] == 0x0E { return UInt16(bytes[3]) | UInt16(bytes[4]) << 8 }
        if bytes[0] == 0x0F, bytes.count >= 6 { return UInt16(bytes[4]) | UInt16(bytes[5]) << 8 }
        return nil
    }

    /// The address of the first report of an LE Advertising Report (0x02: after subevent, count, event type, address
    /// type) or LE Extended Advertising Report (0x0D: after subevent, count, 2-byte event type, address type); nil else.
    static func reportedAddress(_ packet: HCIPacket) -> [UInt8]? {
        let bytes = packet.bytes
        guard packet.type == .event, bytes.count >= 3, bytes[0] == 0x3E else { return nil }
        let start = bytes[2] == 0x02 ? 6 : bytes[2] == 0x0D ? 7 : nil
        guard let start, bytes.count >= start + 6 else { return nil }
        return Array(bytes[start..<(start + 6)])
    }

    /// LE Advertising Report (0x02), LE Extended Advertising Report (0x0D) or LE Directed Advertising Report (0x0B).
    static func isAdvertisingReport(_ packet: HCIPacket) -> Bool {
        packet.type == .event && packet.bytes.count >= 3 && packet.bytes[0] == 0x3E && [0x02, 0x0B, 0x0D].contains(packet.bytes[2])
    }

    /// What identifies an ATT request for matching (Core v5.4 Vol 3 Part F §3.4): the opcode with its handles, offset and
    /// type, not the value written; nil for a PDU that is not a request (commands, confirmations, responses).
    public static func attKey(_ pdu: [UInt8]) -> [UInt8]? {
        guard let opcode = pdu.first else { return nil }
        switch opcode {
        case 0x02: return [opcode]  // Exchange MTU
        case 0x04, 0x06, 0x08, 0x0E, 0x10, 0x18, 0x20: return pdu  // ranges and types, handle lists, the execute flag
        case 0x0A, 0x12: return Array(pdu.prefix(3))  // Read, Write: the handle
        case 0x0C, 0x16: return Array(pdu.prefix(5))  // Read Blob, Prepare Write: handle and offset
        default: return nil
        }
    }

    /// True when `response` answers `request`: its response opcode (the request's + 1) or an Error Response naming it
    /// (Vol 3 Part F §3.4.1.1).
    static func answers(_ response: [UInt8], _ request: [UInt8]) -> Bool {
        guard let opcode = response.first, let asked = request.first else { return false }
        if opcode == 0x01 { return response.count >= 2 && response[1] == asked }
        return opcode == asked &+ 1
    }

    private static func attName(_ opcode: UInt8) -> String { "opcode 0x" + String(opcode, radix: 16) }

    private static func addressText(_ bytes: [UInt8]) -> String {
        BluetoothAddress(littleEndianBytes: bytes)?.description ?? Hex.string(bytes)
    }

    /// An ACL packet carrying `pdu` whole on the ATT channel (CID 0x0004) of `handle`, first flushable fragment.
    /// The PDUs played are whole ones the recombiner gave (at most 65,535 bytes) or made-up short ones, so the frame
    /// always fits; one that did not would be played empty.
    static func attPacket(_ pdu: [UInt8], on handle: UInt16) -> HCIPacket {
        let connection = ConnectionHandle(field: handle)
        let frame = (try? L2CAPBasicFrame(handle: connection, channelID: 0x0004, payload: pdu).bytes()) ?? []
        return HCIPacket(type: .acl, bytes: HCIACLDataPacket(handle: connection, packetBoundary: .firstFlushable, data: frame).bytes)
    }
}
