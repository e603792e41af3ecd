// Seeded fuzz test of the host runtime fed hostile controller traffic: mutated capture events and ACL, duplicate
// connection events, random ATT on live links; every ATT request made must still complete exactly once.

import Dispatch
import Foundation
import Testing
import OCBCore
import OCBHCI
@testable import OCBHost
import FuzzSupport

/// A controller that answers every command with a successful Command Complete and lets the test inject packets.
final class HostileController: HCITransport, @unchecked Sendable {
    private let lock = NSLock()
    private var queue: DispatchQueue?
    private var onPacket: (@Sendable (HCIPacket) -> Void)?
    private var sentACL: [HCIACLDataPacket] = []

    /// LE_ACL_Data_Packet_Length announced to the host.
    static let bufferLength = 27

    func open(queue: DispatchQueue, onPacket: @escaping @Sendable (HCIPacket) -> Void,
              onClose: @escaping @Sendable (HCITransportError?) -> Void) throws(HCITransportError) {
        lock.lock()
        defer { lock.unlock() }
        self.queue = queue
        self.onPacket = onPacket
    }

    func send(_ packet: HCIPacket) throws(HCITransportError) {
        if packet.type == .acl, let acl = try? HCIACLDataPacket(bytes: packet.bytes) {
            lock.lock()
            sentACL.append(acl)
            lock.unlock()
        }
        guard packet.type == .command, packet.bytes.count >= 2 else { return }
        let opcode = UInt16(packet.bytes[0]) | UInt16(packet.bytes[1]) << 8
        // LE Read Buffer Size v1/v2: 27-byte packets, 4 of them; everything else: status 0 and 0xFF octets.
        let returned: [UInt8] = opcode == 0x2002 || opcode == 0x2060
            ? [0x00, UInt8(Self.bufferLength), 0x00, 0x04, 0x00, 0x00, 0x00]
            : [0x00] + [UInt8](repeating: 0xFF, count: 64)
        inject(HCIPacket(type: .event, bytes: [0x0E, UInt8(3 + returned.count), 0x01, packet.bytes[0], packet.bytes[1]] + returned))
    }

    func close() {}

    /// Hands a packet to the host on its queue, as a transport's read path does.
    func inject(_ packet: HCIPacket) {
        lock.lock()
        let queue = self.queue
        let onPacket = self.onPacket
        lock.unlock()
        queue?.async { onPacket?(packet) }
    }

    var acl: [HCIACLDataPacket] {
        lock.lock()
        defer { lock.unlock() }
        return sentACL
    }
}

/// Counts completions per request number.
final class CompletionLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int: Int] = [:]
    private var answered = 0

    func complete(_ request: Int, answered byPeer: Bool) {
        lock.lock()
        counts[request, default: 0] += 1
        if byPeer { answered += 1 }
        lock.unlock()
    }

    var answeredCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return answered
    }

    var snapshot: [Int: Int] {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }
}

@Suite struct HostFuzzTests {
    /// Received events and ACL packets of two fixture captures.
    static let traffic: [HCIPacket] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return ["wristband-read-blob-acl-fragments-smp.btsnoop", "lock-legacy-adv-discovery-indications.btsnoop"].flatMap { name in
            let path = root.appendingPathComponent("Fixtures/captures").appendingPathComponent(name).path
            return ((try? CaptureFile.read(path: path))?.records ?? []).compactMap { record in
                record.direction == .received && (record.packet?.type == .event || record.packet?.type == .acl) ? record.packet : nil
            }
        }
    }()

    static func connectionComplete(handle: ConnectionHandle, role: UInt8 = 0) -> HCIPacket {
        HCIPacket(type: .event, bytes: [0x3E, 0x13, 0x01, 0x00, UInt8(handle.rawValue & 0xFF), UInt8(handle.rawValue >> 8), role, 0x01,
                                         0x01, 0x00, 0x00, 0x00, 0xA0, 0xC1, 0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00])
    }

    static func attFrame(handle: ConnectionHandle, _ pdu: [UInt8]) -> HCIPacket {
        let data = [UInt8(pdu.count & 0xFF), UInt8(pdu.count >> 8), 0x04, 0x00] + pdu
        return HCIPacket(type: .acl, bytes: HCIACLDataPacket(handle: handle, packetBoundary: .firstFlushable, data: data).bytes)
    }

    @Test(arguments: 0..<2)
    func hostileControllerTraffic(seed: UInt64) throws {
        var random = FuzzRandom(seed: 0x4057 + seed)
        let controller = HostileController()
        let host = HostController(configuration: HostConfiguration(makeTransport: { controller }, ownAddress: .public))
        let started = DispatchSemaphore(value: 0)
        let outcome = CompletionLedger()
        host.start { result in
            outcome.complete(0, answered: (try? result.get()) != nil)
            started.signal()
        }
        #expect(started.wait(timeout: .now() + 10) == .success)
        #expect(outcome.answeredCount == 1, "bring-up against the scripted controller failed")
        let ledger = CompletionLedger()
        var requests = 0
        let traffic = Self.traffic
        let handles: [ConnectionHandle] = [0x0040, 0x0041]
        for handle in handles { controller.inject(Self.connectionComplete(handle: handle)) }
        for _ in 0..<1500 {
            let handle = handles[random.int(0...1)]
            switch random.int(0...9) {
            case 0, 1:
                // A raw ATT request on a link: Read Request of a random handle. Asked on the host's queue, where it
                // runs in place, so it falls between the packets injected before and after it as drawn (asked from
                // this thread, an app's request would overtake every packet still queued).
                let number = requests
                requests += 1
                let attribute = random.byte()
                host.queue.async {
                    host.sendATTRequest([0x0A, attribute, 0x00], on: handle) { result in
                        ledger.complete(number, answered: (try? result.get()) != nil)
                    }
                }
            case 2, 3:
                // An ATT PDU from the peer: a response to whatever is pending, or anything.
                let pdu = random.chance(50) ? [0x0B] + random.bytes(random.int(0...22)) : random.mutate([0x01, 0x0A, 0x03, 0x00, 0x0A])
                controller.inject(Self.attFrame(handle: handle, pdu))
            case 4:
                // The controller repeats a connection event for a live handle, or reports one as peripheral.
                controller.inject(Self.connectionComplete(handle: handle, role: random.chance(80) ? 0 : 1))
            case 5:
                // Disconnection Complete (status 0, reason 0x13), then the link comes back.
                controller.inject(HCIPacket(type: .event, bytes: [0x05, 0x04, 0x00, UInt8(handle.rawValue & 0xFF), 0x00, 0x13]))
                controller.inject(Self.connectionComplete(handle: handle))
            case 6:
                controller.inject(HCIPacket(type: .event, bytes: [0x13, 0x05, 0x01, UInt8(handle.rawValue & 0xFF), 0x00, random.byte(), random.byte()]))
            default:
                let packet = traffic[random.int(0...(traffic.count - 1))]
                controller.inject(HCIPacket(type: packet.type, bytes: random.chance(70) ? random.mutate(packet.bytes) : packet.bytes))
            }
        }
        host.stop()
        // Stopping ends every link: each request made is answered exactly once (a response, an error or the stop).
        let deadline = Date().addingTimeInterval(10)
        while ledger.snapshot.count < requests, Date() < deadline { usleep(10_000) }
        let counts = ledger.snapshot
        #expect(counts.count == requests, "\(requests - counts.count) of \(requests) ATT requests never completed")
        #expect(counts.values.allSatisfy { $0 == 1 })
        #expect(ledger.answeredCount > 10, "too few requests reached a live link and got an answer")
        // Under any traffic the host keeps to the controller's buffer size (Vol 4 Part E §7.8.2).
        #expect(controller.acl.allSatisfy { $0.data.count <= HostileController.bufferLength })
    }
}
