// The gatt-client fuzz target: a link's ATT side (LinkATT: GATT client and bearer) running procedures against arbitrary peer PDUs.

import OCBATT
import OCBCore
import OCBGATT
import OCBHCI
import OCBHost

/// The input encoding of the gatt-client target (also used to write its seeds).
///
/// Byte 0 configures the link: bits 0-1 our receive MTU (23, 64, 185, 517), bit 2 the client subscribes to Service
/// Changed after a database discovery, bit 3 a signing key is present (bit 4: it gives a signature of the wrong
/// length). Then records, each a control byte:
/// - 0x00...0xDF: an ATT PDU from the peer of that many bytes (fewer when the input ends first);
/// - 0xE0...0xEF: start procedure `control & 0x0F` (``GATTClientRun/start(_:flags:_:_:)``) with 5 parameter bytes:
///   flags, then two 16-bit little-endian values `a` and `b` (missing bytes are zero);
/// - 0xF0...0xFE: injected time moves on by `(control - 0xF0) * 3` seconds and the link is ticked;
/// - 0xFF: a raw ATT request of the host API (``LinkATT/request(_:now:_:)``): a length byte, then the PDU.
///
/// At the end the link is ticked past the 30 s transaction timeout.
enum GATTClientInput {
    /// The longest peer PDU one record carries.
    static let maximumPDULength = 0xDF
    /// The first procedure control byte.
    static let procedureBase: UInt8 = 0xE0
    /// The first time control byte.
    static let tickBase: UInt8 = 0xF0
    /// The raw request control byte.
    static let rawRequest: UInt8 = 0xFF

    /// The record of a peer PDU (cut at ``maximumPDULength``).
    static func pdu(_ bytes: [UInt8]) -> [UInt8] {
        let kept = bytes.prefix(maximumPDULength)
        return [UInt8(kept.count)] + kept
    }

    /// The record starting procedure `kind` (0...15).
    static func procedure(_ kind: UInt8, flags: UInt8 = 0, _ a: UInt16 = 0, _ b: UInt16 = 0) -> [UInt8] {
        [procedureBase | (kind & 0x0F), flags, UInt8(truncatingIfNeeded: a), UInt8(truncatingIfNeeded: a >> 8),
         UInt8(truncatingIfNeeded: b), UInt8(truncatingIfNeeded: b >> 8)]
    }

    /// The record moving time on by `3 * steps` seconds (0...14 steps).
    static func tick(_ steps: UInt8) -> [UInt8] { [tickBase + min(steps, 14)] }

    /// The record of a raw request PDU.
    static func raw(_ bytes: [UInt8]) -> [UInt8] {
        let kept = bytes.prefix(255)
        return [rawRequest, UInt8(kept.count)] + kept
    }

    /// The `count` value bytes the write procedures send (`seed`: the handle).
    static func value(_ count: Int, seed: UInt16) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    /// Little-endian 16 bits.
    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }

    /// ATT_ERROR_RSP for `request` at `handle` with `code` (Core v5.4 Vol 3 Part F §3.4.1.1).
    static func error(_ request: UInt8, _ handle: UInt16, _ code: UInt8 = 0x0A) -> [UInt8] { [0x01, request] + le16(handle) + [code] }

    /// Hand-made valid sessions: a small database (GAP 0x0001-0x0007, GATT with Service Changed 0x0008-0x000B,
    /// Battery 0x000C-0x000F) discovered whole and subscribed to, then reads, writes and a Service Changed.
    static var handMadeSeeds: [[UInt8]] {
        var discovery: [UInt8] = [0x04]  // ATT_MTU 23, subscribe to Service Changed
        discovery += procedure(6, 0x0001, 0xFFFF)
        for response: [UInt8] in [
            [0x11, 0x06, 0x01, 0x00, 0x07, 0x00, 0x00, 0x18, 0x08, 0x00, 0x0B, 0x00, 0x01, 0x18, 0x0C, 0x00, 0x0F, 0x00, 0x0F, 0x18],
            error(0x10, 0x0010),
            error(0x08, 0x0001),
            [0x09, 0x07, 0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A, 0x04, 0x00, 0x02, 0x05, 0x00, 0x01, 0x2A],
            error(0x08, 0x0005),
            error(0x04, 0x0006),
            error(0x08, 0x0008),
            [0x09, 0x07, 0x09, 0x00, 0x20, 0x0A, 0x00, 0x05, 0x2A],
            error(0x08, 0x000A),
            [0x05, 0x01, 0x0B, 0x00, 0x02, 0x29],
            error(0x08, 0x000C),
            [0x09, 0x07, 0x0D, 0x00, 0x12, 0x0E, 0x00, 0x19, 0x2A],
            error(0x08, 0x000E),
            [0x05, 0x01, 0x0F, 0x00, 0x02, 0x29],
            [0x13],  // the Service Changed CCCD write
        ] { discovery += pdu(response) }
        var subscribed = discovery
        subscribed += procedure(14, flags: 0x00, 3)  // subscribe to the fourth characteristic found (Battery Level)
        subscribed += pdu([0x13]) + pdu([0x1B, 0x0E, 0x00, 0x55]) + pdu([0x1D, 0x0E, 0x00, 0x56])
        subscribed += procedure(7, 0x000E) + pdu([0x0B, 0x64])
        // Service Changed for the Battery service: rediscovered in 0x000C-0x000F.
        subscribed += pdu([0x1D, 0x0A, 0x00, 0x0C, 0x00, 0x0F, 0x00])
        for response: [UInt8] in [
            [0x11, 0x06, 0x0C, 0x00, 0x0F, 0x00, 0x0F, 0x18],
            error(0x08, 0x000C),
            [0x09, 0x07, 0x0D, 0x00, 0x12, 0x0E, 0x00, 0x19, 0x2A],
            error(0x08, 0x000E),
            [0x05, 0x01, 0x0F, 0x00, 0x02, 0x29],
        ] { subscribed += pdu(response) }
        subscribed += procedure(14, flags: 0x01, 3) + pdu([0x13])

        // Exchange MTU to 64, a long read, a write, a long write and a reliable write of two values, Read Multiple
        // (Variable), Read Using Characteristic UUID, a raw read; then a request left unanswered (timeout).
        var values: [UInt8] = [0x03]
        values += procedure(0, 64) + pdu([0x03, 0x40, 0x00])
        values += procedure(7, flags: 0x01, 0x0003) + pdu([0x0B] + (0..<63).map { UInt8($0) }) + pdu([0x0D, 0x40, 0x41])
        values += procedure(11, flags: 0x00, 0x0003, 4) + pdu([0x13])
        let long = value(80, seed: 0x0003)
        values += procedure(12, 0x0003, 80)
        values += pdu([0x17, 0x03, 0x00, 0x00, 0x00] + long.prefix(59))
        values += pdu([0x17, 0x03, 0x00, 0x3B, 0x00] + long.dropFirst(59))
        values += pdu([0x19])
        values += procedure(9, flags: 0x04, 0x0003, 2) + pdu([0x0F, 0x01, 0x02, 0x03])
        values += procedure(10, flags: 0x04, 0x0003, 2) + pdu([0x21, 0x01, 0x00, 0xAA, 0x02, 0x00, 0xBB, 0xCC])
        values += procedure(8, flags: 0x19, 0x0001, 0xFFFF) + pdu([0x09, 0x03, 0x0E, 0x00, 0x64])
        values += raw([0x0A, 0x03, 0x00]) + pdu([0x0B, 0x01])
        // Two values of 20 and 21 bytes to 0x0003 and 0x0005; the second echo differs, so the queue is cancelled.
        values += procedure(13, flags: 0x04, 0x0003, 0x0142)
        values += pdu([0x17, 0x03, 0x00, 0x00, 0x00] + value(20, seed: 0x0003))
        values += pdu([0x17, 0x05, 0x00, 0x00, 0x00] + value(20, seed: 0x0005)) + pdu([0x19])
        values += procedure(1) + tick(11)
        return [discovery, subscribed, values]
    }
}

/// Counts how often each started procedure or raw request completed.
final class GATTClientLedger {
    private(set) var completions: [Int] = []

    /// A new operation; call ``complete(_:)`` with the id from its completion.
    func start() -> Int {
        completions.append(0)
        return completions.count - 1
    }

    /// Operation `id` completed: traps when it did already.
    func complete(_ id: Int) {
        completions[id] += 1
        FuzzTarget.check(completions[id] == 1, "a procedure completed twice")
    }

    /// True when every operation completed.
    var allComplete: Bool { completions.allSatisfy { $0 == 1 } }
}

/// One run of the gatt-client target: the link, injected time, and what was started.
final class GATTClientRun {
    let att: LinkATT
    var now: ContinuousClock.Instant
    let ledger = GATTClientLedger()
    /// True once the cache may hold results that no longer match its services: a procedure on one service or
    /// characteristic (made up, or cached and replaced by a discovery that ends before it), Service Changed
    /// indications enabled by their chain of procedures, or a value that may be a Service Changed. Whole-database
    /// results are then checked for their services only.
    var cacheMixed = false

    /// The instant every run's time starts at (read once; runs only add to it).
    static let origin = ContinuousClock.now
    /// The most operations one input starts.
    static let maximumOperations = 24

    init(configuration: UInt8) {
        let receiveMTU: UInt16 = [23, 64, 185, 517][Int(configuration & 0b11)]
        att = LinkATT(handle: 0x0040, receiveMTU: receiveMTU)
        now = Self.origin
        att.client.subscribesToServiceChanged = configuration & 0b100 != 0
        if configuration & 0b1000 != 0 {
            let length = configuration & 0b1_0000 != 0 ? 11 : 12
            att.client.signer = { bytes in (0..<length).map { UInt8(truncatingIfNeeded: bytes.count &+ $0) } }
        }
    }

    /// Carries out an output as the host would, checking the bearer's sends: none after the bearer closed, none above
    /// ATT_MTU (the larger of before and after the call, as the output does not say where in it ATT_MTU changed);
    /// ATT_MTU stays within 23 and our receive MTU, and a closed bearer's does not change.
    func apply(_ output: LinkATT.Output, mtuBefore: Int, closedBefore: Bool) {
        let limit = max(mtuBefore, att.mtu)
        FuzzTarget.check(!closedBefore || output.send.isEmpty, "the bearer sent after it closed")
        FuzzTarget.check(!closedBefore || (att.mtu == mtuBefore && output.mtu == nil), "ATT_MTU changed after the bearer closed")
        for pdu in output.send {
            FuzzTarget.check(!pdu.isEmpty && pdu.count <= limit, "the bearer sent \(pdu.count) bytes above ATT_MTU \(limit)")
        }
        FuzzTarget.check(att.mtu >= 23 && att.mtu <= max(23, att.client.bearer.receiveMTU),
                         "ATT_MTU \(att.mtu) outside 23...\(att.client.bearer.receiveMTU), our receive MTU")
        if let mtu = output.mtu { FuzzTarget.check(Int(mtu) == att.mtu, "the reported ATT_MTU is not the bearer's") }
        if output.transactionTimedOut {
            FuzzTarget.check(att.isClosed, "a transaction timeout left the bearer open")
            // The host disconnects; the link's end closes the client.
            att.close(.attTimeout(att.handle), now: now)
            FuzzTarget.check(!att.client.isBusy, "a procedure runs on after the link ended")
        }
    }

    /// Runs `call` on the link and applies its output.
    func step(_ call: () -> LinkATT.Output) {
        let mtuBefore = att.mtu
        let closedBefore = att.isClosed
        apply(call(), mtuBefore: mtuBefore, closedBefore: closedBefore)
    }

    /// Feeds the records after the configuration byte, then ticks past the transaction timeout and checks that every
    /// procedure and raw request completed.
    func run(_ bytes: ArraySlice<UInt8>) {
        var offset = bytes.startIndex
        func take(_ count: Int) -> [UInt8] {
            let end = min(bytes.endIndex, offset + count)
            defer { offset = end }
            return Array(bytes[offset..<end])
        }
        while offset < bytes.endIndex {
            let control = bytes[offset]
            offset += 1
            switch control {
            case 0...UInt8(GATTClientInput.maximumPDULength):
                let pdu = take(Int(control))
                noteServiceChange(pdu)
                step { att.receive(pdu, now: now) }
            case GATTClientInput.procedureBase..<GATTClientInput.tickBase:
                var parameters = take(5)
                parameters += [UInt8](repeating: 0, count: 5 - parameters.count)
                guard ledger.completions.count < Self.maximumOperations else { continue }
                start(control & 0x0F, flags: parameters[0], UInt16(parameters[1]) | UInt16(parameters[2]) << 8,
                      UInt16(parameters[3]) | UInt16(parameters[4]) << 8)
            case GATTClientInput.rawRequest:
                let length = take(1).first ?? 0
                let pdu = take(Int(length))
                guard ledger.completions.count < Self.maximumOperations else { continue }
                let id = ledger.start()
                let ledger = ledger
                step { att.request(pdu, now: now) { _ in ledger.complete(id) } }
            default:
                now += .seconds(3 * Int(control - GATTClientInput.tickBase))
                step { att.tick(now: now) }
            }
        }
        now += ATTBearer.defaultTransactionTimeout + .seconds(1)
        step { att.tick(now: now) }
        FuzzTarget.check(!att.client.isBusy, "a procedure still runs past the transaction timeout")
        FuzzTarget.check(att.nextDeadline == nil, "a request is still outstanding past the transaction timeout")
        FuzzTarget.check(ledger.allComplete, "a started procedure or raw request never completed")
        att.close(.attTimeout(att.handle), now: now)
    }

    /// A notification or indication may be a Service Changed value once the client knows the characteristic.
    private func noteServiceChange(_ pdu: [UInt8]) {
        guard let opcode = pdu.first, [0x1B, 0x1D, 0x23].contains(opcode), att.client.serviceChangedCharacteristic != nil else { return }
        cacheMixed = true
    }

    /// The service procedure parameters name: one in the cache (`a` picks it) unless flag bit 7 or none is known,
    /// else the made-up service `max(1, a)...max(a, b)`. Either mixes the cache (``cacheMixed``).
    private func service(_ flags: UInt8, _ a: UInt16, _ b: UInt16) -> GATTService {
        let known = att.client.cache.services
        cacheMixed = true
        if flags & 0x80 == 0, !known.isEmpty { return known[Int(a) % known.count] }
        let start = max(1, a)
        return GATTService(uuid: BluetoothUUID(0x180F), isPrimary: true, startHandle: AttributeHandle(rawValue: start),
                           endHandle: AttributeHandle(rawValue: max(start, b)))
    }

    /// The characteristic procedure parameters name: one in the cache (`a` picks it) unless flag bit 7 or none is
    /// known, else a made-up one declared at `max(1, a)` (at most 0xFFFE), its value next, ending at `b` or its value.
    /// Either mixes the cache (``cacheMixed``).
    private func characteristic(_ flags: UInt8, _ a: UInt16, _ b: UInt16) -> GATTCharacteristic {
        let cache = att.client.cache
        let known = cache.characteristics.keys.sorted().flatMap { cache.characteristics[$0] ?? [] }
        cacheMixed = true
        if flags & 0x80 == 0, !known.isEmpty { return known[Int(a) % known.count] }
        let declaration = min(0xFFFE, max(1, a))
        return GATTCharacteristic(declarationHandle: AttributeHandle(rawValue: declaration),
                                  valueHandle: AttributeHandle(rawValue: declaration + 1),
                                  endHandle: AttributeHandle(rawValue: max(declaration + 1, b)),
                                  properties: GATTCharacteristicProperties(rawValue: flags & 0x7F), uuid: BluetoothUUID(0x2A19))
    }

    /// `count` handles from `a`, `stride` apart (wrapping; 0x0000 may be among them).
    private func handles(count: Int, from a: UInt16, stride: UInt16) -> [AttributeHandle] {
        (0..<count).map { AttributeHandle(rawValue: a &+ UInt16($0) &* stride) }
    }

    /// The range `a...b` in either order.
    private func range(_ a: UInt16, _ b: UInt16) -> ClosedRange<AttributeHandle> {
        AttributeHandle(rawValue: min(a, b))...AttributeHandle(rawValue: max(a, b))
    }

    /// Starts one GATT procedure through the client's public calls, its completion counted and its result checked:
    /// 0 Exchange MTU (offer `a`), 1 Discover All Primary Services, 2 Discover Primary Service by UUID (16-bit `a`,
    /// flag bit 0: 128-bit), 3 Find Included Services, 4 Discover Characteristics (flag bit 0: by UUID 0x2A00 | `b`
    /// low byte), 5 Discover Descriptors, 6 whole-database discovery of `a...b`, 7 Read (flag bit 0: long) of `a`,
    /// 8 Read Using Characteristic UUID 0x2A00 | flags in `a...b`, 9 Read Multiple and 10 Read Multiple Variable of
    /// `(flags >> 1) & 7` handles from `a`, `b & 0xF` apart, 11 Write (flags & 3: 1 without response, 2 signed)
    /// of `b % 530` bytes to `a`, 12 Write Long of `b % 600` bytes to `a`, 13 Reliable Writes of as many values as
    /// Read Multiple's handles, 14 subscribe (flag bit 0: unsubscribe), 15 enable Service Changed indications
    /// (flags & 3: 1 a raw Exchange MTU offering `a`, 2 the link ends).
    func start(_ kind: UInt8, flags: UInt8, _ a: UInt16, _ b: UInt16) {
        let client = att.client
        let ledger = ledger
        let id = ledger.start()
        let handleCount = Int((flags >> 1) & 7)
        switch kind {
        case 0:
            client.exchangeMTU(clientRxMTU: a) { result in
                ledger.complete(id)
                if case .success(let mtu) = result { FuzzTarget.check((23...517).contains(mtu), "Exchange MTU gave ATT_MTU \(mtu)") }
            }
        case 1:
            client.discoverAllPrimaryServices { result in
                ledger.complete(id)
                if case .success(let services) = result { Self.checkServices(services, in: 0x0001...0xFFFF) }
            }
        case 2:
            let uuid = flags & 1 == 0 ? BluetoothUUID(a) : BluetoothUUID(high: UInt64(a) << 48 | 0x1000, low: UInt64(b))
            client.discoverPrimaryServices(uuid: uuid) { result in
                ledger.complete(id)
                guard case .success(let services) = result else { return }
                Self.checkServices(services, in: 0x0001...0xFFFF)
                FuzzTarget.check(services.allSatisfy { $0.uuid == uuid }, "a service of another UUID found by UUID")
            }
        case 3:
            let service = service(flags, a, b)
            client.findIncludedServices(of: service) { result in
                ledger.complete(id)
                guard case .success(let includes) = result else { return }
                Self.checkIncreasing(includes.map(\.declarationHandle), in: service.handles, "include declaration")
                for include in includes {
                    FuzzTarget.check(include.startHandle.rawValue != 0 && include.startHandle <= include.endHandle,
                                     "an include names no handle range")
                }
            }
        case 4:
            let service = service(flags, a, b)
            let uuid = flags & 1 == 0 ? nil : BluetoothUUID(0x2A00 | UInt16(b & 0xFF))
            client.discoverCharacteristics(of: service, uuid: uuid) { result in
                ledger.complete(id)
                guard case .success(let characteristics) = result else { return }
                Self.checkCharacteristics(characteristics, of: service)
                FuzzTarget.check(uuid == nil || characteristics.allSatisfy { $0.uuid == uuid }, "a characteristic of another UUID found by UUID")
            }
        case 5:
            let characteristic = characteristic(flags, a, b)
            client.discoverDescriptors(of: characteristic) { result in
                ledger.complete(id)
                if case .success(let descriptors) = result { Self.checkDescriptors(descriptors, of: characteristic) }
            }
        case 6:
            let requested = range(a, b)
            client.discoverDatabase(range: requested) { [weak self] result in
                ledger.complete(id)
                guard case .success(let cache) = result else { return }
                let within = max(1, requested.lowerBound.rawValue)...max(1, requested.upperBound.rawValue)
                Self.checkCache(cache, contentsIn: self?.cacheMixed == false ? within : nil)
            }
        case 7:
            client.read(AttributeHandle(rawValue: a), long: flags & 1 != 0) { _ in ledger.complete(id) }
        case 8:
            let requested = range(a, b)
            client.readUsingCharacteristicUUID(BluetoothUUID(0x2A00 | UInt16(flags)), in: requested) { result in
                ledger.complete(id)
                guard case .success(let values) = result else { return }
                FuzzTarget.check(values.allSatisfy { requested.contains($0.handle) }, "a value read from outside the range")
            }
        case 9:
            client.readMultiple(handles(count: handleCount, from: a, stride: b & 0xF)) { _ in ledger.complete(id) }
        case 10:
            let asked = handles(count: handleCount, from: a, stride: b & 0xF)
            client.readMultipleVariable(asked) { result in
                ledger.complete(id)
                guard case .success(let values) = result else { return }
                FuzzTarget.check(values.map(\.handle) == asked, "Read Multiple Variable values are not the handles asked for")
            }
        case 11:
            let bytes = GATTClientInput.value(Int(b % 530), seed: a)
            switch flags & 3 {
            case 0: client.write(bytes, to: AttributeHandle(rawValue: a)) { _ in ledger.complete(id) }
            case 1:
                step {
                    _ = try? client.writeWithoutResponse(bytes, to: AttributeHandle(rawValue: a))
                    return att.run(now: now)
                }
                ledger.complete(id)
            default:
                step {
                    _ = try? client.signedWriteWithoutResponse(bytes, to: AttributeHandle(rawValue: a))
                    return att.run(now: now)
                }
                ledger.complete(id)
            }
        case 12:
            client.writeLong(GATTClientInput.value(Int(b % 600), seed: a), to: AttributeHandle(rawValue: a)) { _ in ledger.complete(id) }
        case 13:
            let writes = handles(count: handleCount, from: a, stride: b & 0xF).enumerated().map {
                GATTHandleValue(handle: $0.element, value: GATTClientInput.value(Int(b >> 4) % 80 + $0.offset, seed: $0.element.rawValue))
            }
            client.reliableWrite(writes) { _ in ledger.complete(id) }
        case 14:
            let characteristic = characteristic(flags, a, b)
            if flags & 1 == 0 {
                client.subscribe(to: characteristic, handler: { _ in }) { _ in ledger.complete(id) }
            } else {
                client.unsubscribe(from: characteristic) { _ in ledger.complete(id) }
            }
        default:
            switch flags & 3 {
            case 1:
                step { att.exchangeMTU(a, now: now) { _ in ledger.complete(id) } }
                return
            case 2:
                ledger.complete(id)
                att.close(.disconnected(att.handle, .remoteUserTerminatedConnection), now: now)
                FuzzTarget.check(!att.client.isBusy && ledger.allComplete, "a procedure runs on after the link ended")
                return
            default:
                cacheMixed = true
                client.enableServiceChangedIndications { _ in ledger.complete(id) }
            }
        }
        step { att.run(now: now) }
    }

    /// Services of a discovery: each a handle range, in increasing order without overlap, starting inside `range`.
    static func checkServices(_ services: [GATTService], in range: ClosedRange<UInt16>) {
        var next: UInt32 = UInt32(range.lowerBound)
        for service in services {
            FuzzTarget.check(service.startHandle.rawValue != 0 && service.startHandle <= service.endHandle, "a service is no handle range")
            FuzzTarget.check(UInt32(service.startHandle.rawValue) >= next && service.startHandle.rawValue <= range.upperBound,
                             "service at \(service.startHandle) out of order or outside the range")
            next = UInt32(service.endHandle.rawValue) + 1
        }
    }

    /// Handles strictly increasing and inside `range`.
    static func checkIncreasing(_ handles: [AttributeHandle], in range: ClosedRange<AttributeHandle>, _ what: String) {
        var previous: AttributeHandle?
        for handle in handles {
            FuzzTarget.check(range.contains(handle), "\(what) at \(handle) outside \(range)")
            FuzzTarget.check(previous.map { $0 < handle } ?? true, "\(what) handles do not increase")
            previous = handle
        }
    }

    /// Characteristics of `service`: declarations increasing inside it, each value after its declaration and inside
    /// the characteristic, which ends inside the service.
    static func checkCharacteristics(_ characteristics: [GATTCharacteristic], of service: GATTService) {
        checkIncreasing(characteristics.map(\.declarationHandle), in: service.handles, "characteristic declaration")
        for characteristic in characteristics {
            FuzzTarget.check(characteristic.declarationHandle < characteristic.valueHandle, "a value handle not after its declaration")
            FuzzTarget.check(characteristic.valueHandle <= characteristic.endHandle && characteristic.endHandle <= service.endHandle,
                             "\(characteristic) is not inside itself and \(service)")
        }
    }

    /// Descriptors of `characteristic`: increasing, inside its descriptor range.
    static func checkDescriptors(_ descriptors: [GATTDescriptor], of characteristic: GATTCharacteristic) {
        guard let room = characteristic.descriptorHandles else {
            return FuzzTarget.check(descriptors.isEmpty, "descriptors of a characteristic with no room for any")
        }
        checkIncreasing(descriptors.map(\.handle), in: room, "descriptor")
    }

    /// A discovered database: services sorted, without overlap; with `contentsIn`, the characteristics and
    /// descriptors of every service starting in that range as ``checkCharacteristics(_:of:)`` and
    /// ``checkDescriptors(_:of:)`` require.
    static func checkCache(_ cache: GATTAttributeCache, contentsIn range: ClosedRange<UInt16>?) {
        checkServices(cache.services, in: 0x0001...0xFFFF)
        guard let range else { return }
        for service in cache.services where range.contains(service.startHandle.rawValue) {
            let characteristics = cache.characteristics[service.startHandle] ?? []
            checkCharacteristics(characteristics, of: service)
            for characteristic in characteristics {
                checkDescriptors(cache.descriptors[characteristic.declarationHandle] ?? [], of: characteristic)
            }
        }
    }
}

extension FuzzTarget {
    /// The GATT client over a link's ATT bearer (LinkATT, Core v5.4 Vol 3 Part F §3.3, Part G §4) fed the procedures
    /// and peer PDUs of ``GATTClientInput``: no trap, nothing sent above ATT_MTU or after the bearer closed, every
    /// procedure and raw request completes exactly once by the transaction timeout, discovery results in order and
    /// inside what was asked.
    static func gattClient(_ bytes: [UInt8]) {
        guard let configuration = bytes.first else { return }
        GATTClientRun(configuration: configuration).run(bytes.dropFirst())
    }
}
