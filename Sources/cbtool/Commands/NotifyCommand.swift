// `cbtool notify ADDRESS UUID|HANDLE`: subscribe, stream timestamped values until Ctrl-C or --duration, unsubscribe, disconnect.

import OCBCore
import OCBGATT
import OCBToolKit
import CoreBluetooth
import Foundation

/// `cbtool notify ADDRESS UUID|HANDLE [--duration S]`.
///
/// Subscribes (CCCD 0x0001 notifications, or 0x0002 when the characteristic only indicates; Core v5.4 Vol 3 Part G
/// §3.3.3.3), then one line per value: `14:03:22.517 0x001B 2A37 Heart Rate Measurement = 60 bpm`;
/// JSON `{"type":"notification"|"indication","address":…,"handle":27,"uuid":"2A37","name":…,"value":"003c",
/// "decoded":"60 bpm","time":"2025-…Z","elapsed":0.102}`. Ends at `--duration` or the first Ctrl-C/SIGTERM
/// (exit 0), writes the CCCD back to 0x0000, disconnects, and prints
/// `summary: 30 notifications in 3.0 s from 0x001B 2A37 Heart Rate Measurement`. If the peer disconnects first,
/// the summary is printed and the command fails (exit 1).
enum NotifyCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        guard let target = AttributeTarget(invocation.operand(1)) else {
            throw .usage("\"\(invocation.operand(1))\" is not a UUID or a handle", usage: "usage: " + invocation.command.usage)
        }
        let (session, device) = try LiveCommandSupport.connectedDevice(invocation)
        defer { session.close() }
        let interrupt = InterruptSignal(inbox: session.inbox)
        defer { withExtendedLifetime(interrupt) {} }
        let peripheral = device.peripheral
        let address = CentralSession.name(peripheral)
        let database = try session.discoverDatabase(of: peripheral, readValues: false)
        guard case .characteristic(let characteristic) = try database.find(target, address: address) else {
            throw .failure("\(invocation.operand(1)) names a descriptor on \(address); notifications come from characteristics")
        }
        let properties = characteristic.properties
        guard properties.contains(.notify) || properties.contains(.indicate) else {
            throw .failure("\(AttributeText.name(characteristic)) can neither notify nor indicate (properties: "
                           + characteristic.attribute.properties.names.joined(separator: ", ") + ")")
        }
        let kind = properties.contains(.notify) ? "notification" : "indication"
        let uuid = characteristic.uuid.bluetoothUUID
        let handle = characteristic.valueAttributeHandle
        let format = characteristic.descriptors?.first { $0.uuid.bluetoothUUID == BluetoothUUID(0x2904) }
            .flatMap { try? session.read($0, on: peripheral) }.flatMap(PresentationFormat.init(bytes:))

        try session.setNotify(true, for: characteristic, on: peripheral)
        CentralSession.progress("receiving \(kind)s from \(AttributeText.name(characteristic))"
                                + (invocation.duration.map { " for \(CentralSession.seconds($0))…" } ?? ", Ctrl-C to stop…"))
        let start = ContinuousClock.now
        let deadline = invocation.duration.map { start + $0 }
        var count = 0
        var lost: ToolError?
        streaming: while let event = session.inbox.next(until: deadline) {
            switch event {
            case .characteristicValue(let updated, let value, nil) where updated === characteristic:
                count += 1
                let bytes = [UInt8](value ?? Data())
                let now = Date()
                output.emit("\(LiveCommandSupport.clockTime(now)) \(GATTText.handle(handle)) \(GATTText.uuid(uuid)) = "
                            + GATTValueDecoder.text(bytes, uuid: uuid, format: format),
                            json: ["type": .string(kind), "address": .string(address), "handle": .integer(handle),
                                   "uuid": .string(uuid.description), "name": .optional(AssignedNumbers.name(for: uuid)),
                                   "value": .string(Hex.string(bytes)),
                                   "decoded": .optional(GATTValueDecoder.describe(bytes, uuid: uuid, format: format)),
                                   "time": .string(LiveCommandSupport.isoTime(now)),
                                   "elapsed": LiveCommandSupport.secondsJSON(ContinuousClock.now - start)])
            case .disconnected(let gone, let error) where gone === peripheral:
                lost = .failure("\(address) disconnected" + (error.map { ": " + ErrorText.describe($0) } ?? ""))
                break streaming
            case .interrupted:
                break streaming
            default:
                continue
            }
        }
        let elapsed = ContinuousClock.now - start
        if lost == nil {
            CentralSession.progress("unsubscribing and disconnecting…")
            do {
                try session.setNotify(false, for: characteristic, on: peripheral)
            } catch {
                CentralSession.progress("cbtool: warning: " + error.message)
            }
            session.disconnect(peripheral)
        }
        output.emit("summary: \(count) \(kind)\(count == 1 ? "" : "s") in \(LiveCommandSupport.secondsText(elapsed)) s from \(AttributeText.name(characteristic))",
                    json: ["type": "summary", "address": .string(address), "handle": .integer(handle), "uuid": .string(uuid.description),
                           "kind": .string(kind), "count": .integer(count), "seconds": LiveCommandSupport.secondsJSON(elapsed)])
        if let lost { throw lost }
    }
}
