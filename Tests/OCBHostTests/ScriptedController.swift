// Test support: an in-process HCI transport that answers every command like a minimal extended-capable controller and lets a test inject events.

import Dispatch
import Foundation
import OCBHCI
import OCBHost

/// A fake controller behind the ``HCITransport`` interface: each command gets a Command Complete (Core v5.4 Vol 4
/// Part E §7.7.14) with success and the return parameters bring-up reads (and Read RSSI); ACL data is dropped, so an ATT
/// request stays pending; tests push further events with ``inject(_:)``.
///
/// It lists LE Set Scan Parameters/Enable, LE Create Connection/Cancel (§6.27 octet 26 bits 2-5) and LE Set Extended
/// Scan Parameters/Enable and LE Extended Create Connection (octet 37 bits 5-7), LE Extended Advertising
/// (LE features bit 12), LE ACL buffers 27 × 8, BD_ADDR 0C:B0:00:00:00:0F.
final class ScriptedController: HCITransport, @unchecked Sendable {
    private let lock = NSLock()
    private var queue: DispatchQueue?
    private var onPackets: (@Sendable (HCIPacketWalk) -> Void)?
    private var onClose: (@Sendable (HCITransportError?) -> Void)?
    private var sent: [UInt16] = []
    private var acl = 0
    private var order: [SentPacket] = []

    /// One packet the host sent, as ``sentInOrder`` lists it.
    enum SentPacket: Equatable {
        /// A command, by opcode.
        case command(UInt16)
        /// An ACL data packet.
        case acl
    }

    /// What ``isBehind`` says: true plays a transport with bytes waiting beyond the read being handled (a flood).
    var behind: Bool {
        get { lock.withLock { behindFlag } }
        set { lock.withLock { behindFlag = newValue } }
    }
    private var behindFlag = false
    var isBehind: Bool { behind }

    /// Opcodes of the commands received, in order.
    var sentOpcodes: [UInt16] { lock.withLock { sent } }
    /// How many ACL data packets the host sent (they are dropped).
    var sentACLPackets: Int { lock.withLock { acl } }
    /// The commands and ACL data packets the host sent, in the order sent.
    var sentInOrder: [SentPacket] { lock.withLock { order } }

    func open(queue: DispatchQueue, onPacket: @escaping @Sendable (HCIPacket) -> Void,
              onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        try open(queue: queue, onPackets: { walk in _ = walk { type, bytes in onPacket(HCIPacket(type: type, bytes: Array(bytes))); return .next } },
                 onClose: onClose)
    }

    /// Hands the host each injection as one read (``HCIPacketWalk``), as an H4 stream does.
    func open(queue: DispatchQueue, onPackets: @escaping @Sendable (HCIPacketWalk) -> Void,
              onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        lock.withLock {
            self.queue = queue
            self.onPackets = onPackets
            self.onClose = onClose
        }
    }

    func send(_ packet: HCIPacket) throws(HCITransportError) {
        if packet.type == .acl { lock.withLock { acl += 1; order.append(.acl) } }
        guard let answer = Self.commandComplete(answering: packet) else { return }
        lock.withLock { sent.append(answer.opcode); order.append(.command(answer.opcode)) }
        inject(answer.event)
    }

    /// The Command Complete event (§7.7.14; code, length, parameters) this controller answers a command `packet` with,
    /// and the command's opcode; nil for any other packet.
    static func commandComplete(answering packet: HCIPacket) -> (opcode: UInt16, event: [UInt8])? {
        guard packet.type == .command, packet.bytes.count >= 3 else { return nil }
        let opcode = UInt16(packet.bytes[0]) | UInt16(packet.bytes[1]) << 8
        let parameters = [0x01, UInt8(opcode & 0xFF), UInt8(opcode >> 8)] + returnParameters(opcode, Array(packet.bytes.dropFirst(3)))
        return (opcode, [0x0E, UInt8(parameters.count)] + parameters)
    }

    func close() {
        let (queue, onClose) = lock.withLock {
            defer { self.onPackets = nil; self.onClose = nil }
            return (self.queue, self.onClose)
        }
        if let queue, let onClose { queue.async { onClose(nil) } }
    }

    /// Delivers one event (code, length, parameters) to the host, after everything delivered before it.
    /// Hands `event` to the host at once, on the caller's thread: call it on the host's queue (a read being handled).
    func injectInPlace(_ event: [UInt8]) {
        lock.withLock { onPackets }? { body in _ = body(.event, event[...]); return 0 }
    }

    /// Delivers `packets` (type, bytes without the H4 indicator) to the host as one read, after everything delivered
    /// before it: what an H4 stream hands over when one read holds several packets.
    func injectRead(_ packets: [(HCIPacketType, [UInt8])]) {
        let (queue, onPackets) = lock.withLock { (self.queue, self.onPackets) }
        guard let queue, let onPackets else { return }
        queue.async {
            onPackets { body in Self.walk(packets) { type, bytes, _ in body(type, bytes) } }
        }
    }

    /// ``injectRead(_:)`` inside `around` (a test wraps the read in a reader's turn), calling `between` with each
    /// packet's index once the host has handled it, or the emulated framer has passed it over unseen.
    func injectRead(_ packets: [(HCIPacketType, [UInt8])], around: @escaping @Sendable (() -> Void) -> Void,
                    between: @escaping @Sendable (Int) -> Void) {
        let (queue, onPackets) = lock.withLock { (self.queue, self.onPackets) }
        guard let queue, let onPackets else { return }
        queue.async {
            around {
                onPackets { body in
                    Self.walk(packets, passed: between) { type, bytes, index in
                        defer { between(index) }
                        return body(type, bytes)
                    }
                }
            }
        }
    }

    /// Walks `packets` as an H4 stream's framer does (``HCI/H4Decoder/frames(in:passingOver:stepping:)``): each to `body` with its
    /// index, except that after a ``HCI/H4FrameStep/skipLegacyAdvertisingReports`` the legacy advertising report
    /// events that follow are passed over and counted (each index to `passed`, as `between` of ``injectRead(_:around:between:)``
    /// is told of them: the host never sees them) while the step's predicate allows; stops at ``HCI/H4FrameStep/stop``.
    /// Returns the count passed over.
    private static func walk(_ packets: [(HCIPacketType, [UInt8])], passed: (Int) -> Void = { _ in },
                             _ body: (HCIPacketType, ArraySlice<UInt8>, Int) -> H4FrameStep) -> Int {
        var passedOver = 0
        var skipping: (() -> Bool)?
        for (index, (type, bytes)) in packets.enumerated() {
            // The predicate asked before each report passed over (the framer asks every 16th: a test's read is short).
            if let keepPassing = skipping, type == .event, HCIEvent.isLegacyAdvertisingReport(bytes), keepPassing() {
                passedOver += 1
                passed(index)
                continue
            }
            switch body(type, bytes[...], index) {
            case .stop: return passedOver
            case .next: skipping = nil
            case .skipLegacyAdvertisingReports(let keepPassing): skipping = keepPassing
            }
        }
        return passedOver
    }

    func inject(_ event: [UInt8]) {
        injectRead([(.event, event)])
    }

    /// Status 0x00 followed by what the command returns (§7.4.1, §7.4.2, §7.4.3, §7.4.6, §7.8.2, §7.8.3; Read RSSI
    /// §7.5.4: the handle asked and −45 dBm).
    private static func returnParameters(_ opcode: UInt16, _ parameters: [UInt8]) -> [UInt8] {
        switch opcode {
        case 0x1405: return [0x00] + parameters.prefix(2) + [0xD3]
        case 0x1001: return [0x00, 0x0D, 0x00, 0x00, 0x0D, 0xFF, 0xFF, 0x00, 0x00]  // HCI 5.4, company 0xFFFF
        case 0x1002:
            var commands = [UInt8](repeating: 0, count: 64)
            commands[26] = 0b0011_1100
            commands[37] = 0b1110_0000
            return [0x00] + commands
        case 0x1003: return [0x00] + [UInt8](repeating: 0, count: 8)
        case 0x2003: return [0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        case 0x1009: return [0x00, 0x0F, 0x00, 0x00, 0x00, 0xB0, 0x0C]
        case 0x2002: return [0x00, 27, 0x00, 8]
        default: return [0x00]
        }
    }

    /// An LE Extended Advertising Report (§7.7.65.13) with one report: a non-legacy, non-connectable PDU from
    /// random address C1:E7:00:00:00:05, SID 5, LE 1M/LE 1M, TX power and RSSI unavailable/−55, Data_Status `status`.
    static func extendedReport(dataStatus status: UInt8, data: [UInt8]) -> [UInt8] {
        let report: [UInt8] = [0x01, status << 5, 0x00, 0x01, 0x05, 0x00, 0x00, 0x00, 0xE7, 0xC1,
                               0x01, 0x01, 0x05, 0x7F, 0xC9, 0x00, 0x00, 0x00] + [UInt8](repeating: 0, count: 6)
            + [UInt8(data.count)] + data
        return [0x3E, UInt8(report.count + 1), 0x0D] + report
    }
}

/// An LE Advertising Report event (Core v5.4 Vol 4 Part E §7.7.65.2): one report, ADV_NONCONN_IND, random address
/// C0:00:00:00:00:`last`, Flags 0x06, RSSI −60 dBm (one report of a flood, for the tests that read behind one).
func legacyReport(_ last: UInt8) -> [UInt8] {
    [0x3E, 0x0F, 0x02, 0x01, 0x03, 0x01, last, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x03, 0x02, 0x01, 0x06, 0xC4]
}

/// Polls `condition` every 5 ms for up to 5 s (what it reads changes on the host's queue without an event).
func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<1_000 {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}
