// `cbtool read ADDRESS UUID|HANDLE`: read one characteristic or descriptor and print it decoded.

import OCBCore
import OCBToolKit
import CoreBluetooth
import Foundation

/// `cbtool read ADDRESS UUID|HANDLE`.
///
/// Text: `0x0017 2A19 Battery Level = 100 %` (decoded where the SIG format is known, with a characteristic's
/// Presentation Format descriptor read first when it has one; all of its hex otherwise, with the text when printable).
/// JSON: `{"type":"value","address":…,"handle":23,"uuid":"2A19","name":"Battery Level","value":"64","decoded":"100 %"}`.
enum ReadCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        let (session, device) = try LiveCommandSupport.connectedDevice(invocation)
        defer { session.close() }
        let peripheral = device.peripheral
        let address = CentralSession.name(peripheral)
        let database = try session.discoverDatabase(of: peripheral, readValues: false)
        guard let target = AttributeTarget(invocation.operand(1)) else {
            throw .usage("\"\(invocation.operand(1))\" is not a UUID or a handle", usage: "usage: " + invocation.command.usage)
        }
        let handle: UInt16, uuid: BluetoothUUID, bytes: [UInt8]
        var format: PresentationFormat?
        switch try database.find(target, address: address) {
        case .characteristic(let characteristic):
            if let descriptor = characteristic.descriptors?.first(where: { $0.uuid.bluetoothUUID == BluetoothUUID(0x2904) }) {
                format = (try? session.read(descriptor, on: peripheral)).flatMap(PresentationFormat.init(bytes:))
            }
            handle = characteristic.valueAttributeHandle
            uuid = characteristic.uuid.bluetoothUUID
            bytes = try session.read(characteristic, on: peripheral)
        case .descriptor(let descriptor):
            handle = descriptor.attributeHandle
            uuid = descriptor.uuid.bluetoothUUID
            bytes = try session.read(descriptor, on: peripheral)
        }
        CentralSession.progress("disconnecting…")
        session.disconnect(peripheral)
        output.emit("\(GATTText.handle(handle)) \(GATTText.uuid(uuid)) = " + GATTValueDecoder.text(bytes, uuid: uuid, format: format, limit: nil),
                    json: ["type": "value", "address": .string(address), "handle": .integer(handle), "uuid": .string(uuid.description),
                           "name": .optional(AssignedNumbers.name(for: uuid)), "value": .string(Hex.string(bytes)),
                           "decoded": .optional(GATTValueDecoder.describe(bytes, uuid: uuid, format: format))])
    }
}
