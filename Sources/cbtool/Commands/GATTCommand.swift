// `cbtool gatt ADDRESS`: connect, discover the whole database, read every readable value, print the tree.

import OCBCore
import OCBToolKit
import CoreBluetooth
import Foundation

/// `cbtool gatt ADDRESS`.
///
/// Text: a device line (`C1:A0:00:00:00:01 (random) "OCB Alpha" -45 dBm`), the tree (``GATTTreePrinter``: services
/// in handle order, secondary ones included, with includes, characteristics, descriptors, values decoded), lines
/// `not discovered: …` for a part of discovery that failed with the link up (a malformed response, an ATT error: the
/// rest of the tree is still shown), `not readable: …` for reads the peer refused, and
/// `summary: 8 services (2 secondary), 31 characteristics, 23 descriptors, 40 values read, 3 not readable` (with
/// `, 1 part not discovered` when a part failed; then, after the whole tree, exit 1 with
/// `cbtool: error: 1 part of the database could not be discovered (see "not discovered:")`).
/// JSON: `{"type":"device",…}`, a `service` object per service and a `characteristic` object per characteristic
/// (each with `"address"`), then `{"type":"summary",…,"readErrors":[{"handle":…,"error":…}]}`.
/// Progress (`scanning for …`, `connecting to …`, `discovering services…`, `reading values…`, `disconnecting…`) goes to stderr.
enum GATTCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        let (session, device) = try LiveCommandSupport.connectedDevice(invocation)
        defer { session.close() }
        let peripheral = device.peripheral
        let address = CentralSession.name(peripheral)
        let database = try session.discoverDatabase(of: peripheral, readValues: true)
        CentralSession.progress("disconnecting…")
        session.disconnect(peripheral)

        let name = device.advertisement[CBAdvertisementDataLocalNameKey] as? String ?? peripheral.name
        var head = address
        if let type = peripheral.addressType { head += " (\(type))" }
        if let name { head += " \"\(name)\"" }
        head += " \(device.rssi) dBm"
        output.emit(head, json: ["type": "device", "address": .string(address), "addressType": .optional(peripheral.addressType),
                                 "name": .optional(name), "rssi": .integer(device.rssi)])
        let tree = database.tree
        GATTTreePrinter.emit(tree, to: output, extra: ["address": .string(address)])

        for message in database.discoveryErrors { output.note("not discovered: " + message) }
        let errors = database.readErrors.sorted { $0.key < $1.key }
        for (_, message) in errors { output.note("not readable: " + message) }
        let secondary = tree.filter { !$0.isPrimary }.count
        let characteristics = tree.reduce(0) { $0 + $1.characteristics.count }
        let descriptors = tree.reduce(0) { $0 + $1.characteristics.reduce(0) { $0 + $1.descriptors.count } }
        output.emit("summary: \(GATTText.count(tree.count, "services")) (\(secondary) secondary), "
                    + "\(GATTText.count(characteristics, "characteristics")), \(GATTText.count(descriptors, "descriptors")), "
                    + "\(GATTText.count(database.values.count, "values")) read, \(errors.count) not readable"
                    + (database.discoveryErrors.isEmpty ? "" : ", \(GATTText.count(database.discoveryErrors.count, "parts")) not discovered"),
                    json: ["type": "summary", "address": .string(address), "services": .integer(tree.count),
                           "secondaryServices": .integer(secondary), "characteristics": .integer(characteristics),
                           "descriptors": .integer(descriptors), "valuesRead": .integer(database.values.count),
                           "readErrors": .array(errors.map { ["handle": .integer($0.key), "error": .string($0.value)] }),
                           "discoveryErrors": .array(database.discoveryErrors.map { .string($0) })])
        if !database.discoveryErrors.isEmpty {
            throw .failure("\(GATTText.count(database.discoveryErrors.count, "parts")) of the database could not be discovered "
                           + "(see \"not discovered:\"); the device's responses were malformed or refused")
        }
    }
}
