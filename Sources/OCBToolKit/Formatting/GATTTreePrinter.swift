// Prints a GATT database tree as indented text lines and as JSON objects.

import OCBCore

/// Renders ``GATTTreeService`` values for `cbtool gatt` and `cbtool decode`.
///
/// Text shape (two spaces per level):
/// ```
/// service 0x0001-0x0005 1800 Generic Access (primary)
///   include 0x0006 → 0x0010-0x0014 180F Battery Service
///   characteristic 0x0002 value 0x0003 2A00 Device Name [read] = "Polar H10"
///     descriptor 0x0004 2902 Client Characteristic Configuration = notifications on, indications off
/// ```
public enum GATTTreePrinter {
    /// The tree as text lines, `indent` spaces before the service lines.
    public static func lines(_ services: [GATTTreeService], indent: Int = 0) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        for service in services {
            lines.append(pad + serviceLine(service))
            for include in service.includes {
                lines.append(pad + "  " + includeLine(include))
            }
            for characteristic in service.characteristics {
                lines.append(pad + "  " + characteristicLine(characteristic))
                for descriptor in characteristic.descriptors {
                    lines.append(pad + "    " + descriptorLine(descriptor))
                }
            }
        }
        return lines
    }

    /// "service 0x0001-0x0005 1800 Generic Access (primary)".
    public static func serviceLine(_ service: GATTTreeService) -> String {
        "service \(GATTText.handle(service.startHandle))-\(GATTText.handle(service.endHandle)) "
            + "\(GATTText.uuid(service.uuid)) (\(service.isPrimary ? "primary" : "secondary"))"
    }

    /// "include 0x0006 → 0x0010-0x0014 180F Battery Service" (no UUID when it is not known).
    public static func includeLine(_ include: GATTTreeInclude) -> String {
        "include \(GATTText.handle(include.handle)) "
            + "→ \(GATTText.handle(include.startHandle))-\(GATTText.handle(include.endHandle))"
            + (include.uuid.map { " " + GATTText.uuid($0) } ?? "")
    }

    /// "characteristic 0x0002 value 0x0003 2A00 Device Name [read] = \"Polar H10\"".
    public static func characteristicLine(_ characteristic: GATTTreeCharacteristic) -> String {
        var line = "characteristic \(GATTText.handle(characteristic.declarationHandle)) value \(GATTText.handle(characteristic.valueHandle)) "
            + GATTText.uuid(characteristic.uuid) + " [\(characteristic.properties.names.joined(separator: ", "))]"
        if let value = characteristic.value {
            line += " = " + GATTValueDecoder.text(value, uuid: characteristic.uuid, format: characteristic.presentationFormat)
        }
        return line
    }

    /// "descriptor 0x0004 2902 Client Characteristic Configuration = notifications on, indications off".
    public static func descriptorLine(_ descriptor: GATTTreeDescriptor) -> String {
        var line = "descriptor \(GATTText.handle(descriptor.handle)) " + GATTText.uuid(descriptor.uuid)
        if let value = descriptor.value { line += " = " + GATTValueDecoder.text(value, uuid: descriptor.uuid) }
        return line
    }

    /// One JSON object for a service: `{"type":"service","start":1,"end":5,"uuid":"1800","name":…,"primary":true}`
    /// plus `extra` members (e.g. the peer).
    public static func json(_ service: GATTTreeService, extra: [String: JSONValue] = [:]) -> JSONValue {
        var object = extra
        object["type"] = "service"
        object["start"] = .integer(service.startHandle)
        object["end"] = .integer(service.endHandle)
        object["uuid"] = .string(service.uuid.description)
        object["name"] = .optional(AssignedNumbers.name(for: service.uuid))
        object["primary"] = .bool(service.isPrimary)
        object["includes"] = .array(service.includes.map { include in
            ["handle": .integer(include.handle), "start": .integer(include.startHandle), "end": .integer(include.endHandle),
             "uuid": .optional(include.uuid?.description)]
        })
        return .object(object)
    }

    /// One JSON object for a characteristic with its descriptors inside:
    /// `{"type":"characteristic","handle":2,"valueHandle":3,"uuid":"2A00","properties":["read"],"value":"…hex","decoded":…}`.
    public static func json(_ characteristic: GATTTreeCharacteristic, service: GATTTreeService?, extra: [String: JSONValue] = [:]) -> JSONValue {
        var object = extra
        object["type"] = "characteristic"
        object["handle"] = .integer(characteristic.declarationHandle)
        object["valueHandle"] = .integer(characteristic.valueHandle)
        object["uuid"] = .string(characteristic.uuid.description)
        object["name"] = .optional(AssignedNumbers.name(for: characteristic.uuid))
        object["properties"] = .array(characteristic.properties.names.map { .string($0) })
        object["service"] = .optional(service?.uuid.description)
        object["value"] = .optional(characteristic.value.map { Hex.string($0) })
        object["decoded"] = .optional(characteristic.value.flatMap {
            GATTValueDecoder.describe($0, uuid: characteristic.uuid, format: characteristic.presentationFormat)
        })
        object["descriptors"] = .array(characteristic.descriptors.map { descriptor in
            ["handle": .integer(descriptor.handle), "uuid": .string(descriptor.uuid.description),
             "name": .optional(AssignedNumbers.name(for: descriptor.uuid)),
             "value": .optional(descriptor.value.map { Hex.string($0) }),
             "decoded": .optional(descriptor.value.flatMap { GATTValueDecoder.describe($0, uuid: descriptor.uuid) })]
        })
        return .object(object)
    }

    /// Writes the whole tree to `output`: a line per node in text mode, an object per service and characteristic in
    /// JSON mode (each with `extra` members).
    public static func emit(_ services: [GATTTreeService], to output: OutputSink, indent: Int = 0, extra: [String: JSONValue] = [:]) {
        let pad = String(repeating: " ", count: indent)
        for service in services {
            output.emit(text: [pad + serviceLine(service)] + service.includes.map { pad + "  " + includeLine($0) },
                        json: json(service, extra: extra))
            for characteristic in service.characteristics {
                output.emit(text: [pad + "  " + characteristicLine(characteristic)]
                                + characteristic.descriptors.map { pad + "    " + descriptorLine($0) },
                            json: json(characteristic, service: service, extra: extra))
            }
        }
    }
}
