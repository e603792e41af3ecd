// The golden central session: one fixed script through the CoreBluetooth API, its callbacks as a transcript.
@testable import CoreBluetooth
import Foundation
import Testing

/// A session against the peer's "OCB Alpha" (Tests/Peer/README.md) covering what issue #14 asks a golden recording to
/// hold: scan, connect, whole discovery (services, characteristics, descriptors), reads (a long read of 512 bytes),
/// writes (with response, to a descriptor), notifications and indications (the peer's burst control), ATT errors (Read
/// Not Permitted 0x02, Write Not Permitted 0x03, Insufficient Authentication 0x05), disconnect; then a second
/// connection at ATT_MTU 23 with a long write (Prepare Write / Execute Write) read back by a long read. Reliable writes
/// are not in it: CoreBluetooth's API has none (Apple's framework never exposes Reliable Writes).
///
/// The transcript is the recorder's log with discoveries of other advertisers left out (which of them arrive before
/// `stopScan` depends on the delegate queue's timing, not on the wire).
enum GoldenSession {
    /// The recording and the transcript the tests replay (`scripts/fixtures/record-golden` makes them).
    static let recording = "Fixtures/golden/alpha-session.btsnoop"
    static let transcript = "Fixtures/golden/alpha-session.transcript"

    /// Runs the script on `central` (waiting at most `seconds` per step); returns the transcript, or nil when a step
    /// got no answer (the transcript so far is in `central.recorder.log`). `setMTU`, live only, has the peer answer
    /// the next Exchange MTU with its argument (the second connection's 23 makes a 100-byte write a long write: Prepare
    /// Write Requests and an Execute Write Request, Core v5.4 Vol 3 Part G §4.9.4); a replay has it in the recording.
    static func run(_ central: LiveCentral, within seconds: Double = 10, setMTU: ((Int) -> Void)? = nil) -> [String]? {
        guard central.wait(within: seconds, { $0 == "state poweredOn" }) != nil else { return nil }
        let mark = central.recorder.log.count
        central.manager.scanForPeripherals(withServices: nil, options: nil)
        guard central.wait(from: mark, within: seconds, { $0.hasPrefix("discover OCB Alpha") }) != nil,
              let alpha = central.queue.sync(execute: { central.recorder.discovered.first { $0.0.name == "OCB Alpha" }?.0 }) else { return nil }
        central.manager.stopScan()
        func step(_ prefix: String, _ action: () -> Void) -> Bool { central.request(prefix, within: seconds, action) != nil }
        guard step("connect", { central.manager.connect(alpha, options: nil) }),
              step("services ", { alpha.discoverServices(nil) }) else { return nil }
        for service in alpha.services ?? [] {
            guard step("characteristics \(service.uuid.uuidString)", { alpha.discoverCharacteristics(nil, for: service) }) else { return nil }
        }
        let characteristics = (alpha.services ?? []).flatMap { $0.characteristics ?? [] }
        for characteristic in characteristics {
            guard step("descriptors \(characteristic.uuid.uuidString)", { alpha.discoverDescriptors(for: characteristic) }) else { return nil }
        }
        // Every characteristic that says it can be read (the write-only 000A is read too, for its ATT error).
        for characteristic in characteristics where characteristic.properties.contains(.read) || characteristic.uuid.uuidString == alphaUUID("000A") {
            guard step("value \(characteristic.uuid.uuidString)", { alpha.readValue(for: characteristic) }) else { return nil }
        }
        func find(_ short: String) -> CBCharacteristic? { characteristics.first { $0.uuid.uuidString == alphaUUID(short) } }
        guard let writable = find("0004"), let readOnly = find("000B"), let notifyBurst = find("0007"),
              let indicateBurst = find("0008"), let control = find("0009"),
              let description = find("0005")?.descriptors?.first(where: { $0.uuid == CBUUID(string: "2901") }) else { return nil }
        guard step("wrote \(writable.uuid.uuidString)", { alpha.writeValue(Data([0x0C, 0xB1, 0x07]), for: writable, type: .withResponse) }),
              step("value \(writable.uuid.uuidString)", { alpha.readValue(for: writable) }),
              step("wrote \(readOnly.uuid.uuidString)", { alpha.writeValue(Data([0x01]), for: readOnly, type: .withResponse) }),
              step("wroteDescriptor ", { alpha.writeValue(Data("Golden".utf8), for: description) }),
              step("descriptorValue ", { alpha.readValue(for: description) }),
              // Three notifications, then two indications (each confirmed), from the burst control (01/02 N).
              step("notifying \(notifyBurst.uuid.uuidString) true", { alpha.setNotifyValue(true, for: notifyBurst) }),
              step("wrote \(control.uuid.uuidString)", { alpha.writeValue(Data([0x01, 0x03, 0x00]), for: control, type: .withResponse) }),
              central.wait(from: mark, within: seconds, { $0 == "value \(notifyBurst.uuid.uuidString) [2, 0, 3, 0]" }) != nil,
              step("notifying \(notifyBurst.uuid.uuidString) false", { alpha.setNotifyValue(false, for: notifyBurst) }),
              step("notifying \(indicateBurst.uuid.uuidString) true", { alpha.setNotifyValue(true, for: indicateBurst) }),
              step("wrote \(control.uuid.uuidString)", { alpha.writeValue(Data([0x02, 0x02, 0x00]), for: control, type: .withResponse) }),
              central.wait(from: mark, within: seconds, { $0 == "value \(indicateBurst.uuid.uuidString) [1, 0, 2, 0]" }) != nil,
              step("notifying \(indicateBurst.uuid.uuidString) false", { alpha.setNotifyValue(false, for: indicateBurst) }),
              step("disconnect", { central.manager.cancelPeripheralConnection(alpha) }) else { return nil }
        // Second connection at ATT_MTU 23: a long write (100 bytes, 5 Prepare Writes and an Execute), read back with a
        // long read (Read Blob Requests).
        setMTU?(23)
        defer { setMTU?(0) }
        let long = Data((0..<100).map { UInt8($0) })
        guard step("connect", { central.manager.connect(alpha, options: nil) }),
              step("services ", { alpha.discoverServices([CBUUID(string: alphaUUID("0001"))]) }),
              let test = alpha.services?.first,
              step("characteristics \(test.uuid.uuidString)", { alpha.discoverCharacteristics([CBUUID(string: alphaUUID("0004"))], for: test) }),
              let target = test.characteristics?.first,
              step("wrote \(target.uuid.uuidString)", { alpha.writeValue(long, for: target, type: .withResponse) }),
              step("value \(target.uuid.uuidString)", { alpha.readValue(for: target) }),
              step("disconnect", { central.manager.cancelPeripheralConnection(alpha) }) else { return nil }
        return transcript(central.recorder.log)
    }

    /// The log without other advertisers' discoveries (and only Alpha's first).
    static func transcript(_ log: [String]) -> [String] {
        var seenAlpha = false
        return log.filter { entry in
            guard entry.hasPrefix("discover ") else { return true }
            guard entry.hasPrefix("discover OCB Alpha"), !seenAlpha else { return false }
            seenAlpha = true
            return true
        }
    }
}
