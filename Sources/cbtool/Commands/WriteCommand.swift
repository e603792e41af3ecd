// `cbtool write ADDRESS UUID|HANDLE VALUE`: write a characteristic (with or without response) or a descriptor.

import OCBCore
import OCBGATT
import OCBToolKit
import CoreBluetooth
import Foundation

/// `cbtool write ADDRESS UUID|HANDLE VALUE [--without-response] [--hex|--text]`.
///
/// VALUE is hex bytes (default, `--hex`) or UTF-8 text (`--text`). With response: Write Request (prepared writes
/// when longer than ATT_MTU-3; Core v5.4 Vol 3 Part G §4.9.3/§4.9.4), the peer's answer is awaited. Without
/// response: Write Command (§4.9.1), checked against the characteristic's properties and ATT_MTU-3 first.
/// Text: `wrote 2 bytes to 0x0031 0CB10004 (write request)`.
/// JSON: `{"type":"write","address":…,"handle":49,"uuid":"0CB10004-…","value":"0102","withResponse":true}`.
enum WriteCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        let usage = "usage: " + invocation.command.usage
        guard let target = AttributeTarget(invocation.operand(1)) else {
            throw .usage("\"\(invocation.operand(1))\" is not a UUID or a handle", usage: usage)
        }
        guard let bytes = WriteValue.bytes(invocation.operand(2), encoding: invocation.valueEncoding) else {
            throw .usage("\"\(invocation.operand(2))\" is not hex bytes like 01ff (use --text for text)", usage: usage)
        }
        let (session, device) = try LiveCommandSupport.connectedDevice(invocation)
        defer { session.close() }
        let peripheral = device.peripheral
        let address = CentralSession.name(peripheral)
        let database = try session.discoverDatabase(of: peripheral, readValues: false)
        let handle: UInt16, uuid: BluetoothUUID
        switch try database.find(target, address: address) {
        case .characteristic(let characteristic):
            handle = characteristic.valueAttributeHandle
            uuid = characteristic.uuid.bluetoothUUID
            if invocation.withoutResponse {
                try writeCommand(bytes, to: characteristic, on: peripheral, session: session)
            } else {
                try session.write(bytes, to: characteristic, on: peripheral)
            }
        case .descriptor(let descriptor):
            guard !invocation.withoutResponse else {
                throw .usage("descriptors are written with a response: drop --without-response", usage: usage)
            }
            if descriptor.uuid.bluetoothUUID == BluetoothUUID(0x2902) {
                throw .failure("the Client Characteristic Configuration is written by subscribing: use `cbtool notify \(address) ...`")
            }
            handle = descriptor.attributeHandle
            uuid = descriptor.uuid.bluetoothUUID
            try session.write(bytes, to: descriptor, on: peripheral)
        }
        CentralSession.progress("disconnecting…")
        session.disconnect(peripheral)
        let kind = invocation.withoutResponse ? "write command" : "write request"
        output.emit("wrote \(bytes.count) byte\(bytes.count == 1 ? "" : "s") to \(GATTText.handle(handle)) \(GATTText.uuid(uuid)) (\(kind))",
                    json: ["type": "write", "address": .string(address), "handle": .integer(handle), "uuid": .string(uuid.description),
                           "name": .optional(AssignedNumbers.name(for: uuid)), "value": .string(Hex.string(bytes)),
                           "withResponse": .bool(!invocation.withoutResponse)])
    }

    /// A Write Command: refused here when the characteristic lacks Write Without Response (and Authenticated Signed
    /// Writes, with which CoreBluetooth sends a Signed Write Command, or a plain one on an encrypted link) or the value
    /// is longer than ATT_MTU-3 (ATT_MTU-15 signed; CoreBluetooth would drop it with only a warning). Followed by a Read RSSI round trip so the command
    /// has reached the controller before the link is closed (its outcome is not needed).
    private static func writeCommand(_ bytes: [UInt8], to characteristic: CBCharacteristic, on peripheral: CBPeripheral,
                                     session: CentralSession) throws(ToolError) {
        let signed = !characteristic.properties.contains(.writeWithoutResponse)
        guard !signed || characteristic.properties.contains(.authenticatedSignedWrites) else {
            throw .failure("\(AttributeText.name(characteristic)) does not allow write without response "
                           + "(properties: \(characteristic.attribute.properties.names.joined(separator: ", ")))")
        }
        let limit = peripheral.maximumWriteValueLength(for: .withoutResponse) - (signed ? 12 : 0)
        guard bytes.count <= limit else {
            throw .failure("\(bytes.count) bytes do not fit one write without response (at most \(limit) with this ATT MTU): drop --without-response")
        }
        peripheral.writeValue(Data(bytes), for: characteristic, type: .withoutResponse)
        _ = try? session.readRSSI(peripheral)
    }
}
