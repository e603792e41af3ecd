// Formats an advertiser as one readable line and as one JSON object, decoding beacons and naming numbers.

import OCBAdvertising
import OCBCore

/// Text and JSON for an ``AdvertiserSnapshot``.
///
/// Line shape: `C4:7C:8D:6A:3F:21 (random) -67 dBm "Polar H10" connectable; services 180D Heart Rate;
/// Apple, Inc. (0x004C) iBeacon E2C56DB5-… major 1 minor 2 power -59 dBm`. Names come from the assigned numbers
/// (company identifiers, service UUIDs, appearance); iBeacon (Apple manufacturer data 02 15) and Eddystone
/// (service data 0xFEAA: UID, URL, TLM) are decoded; other data is shown as hex.
public enum AdvertiserFormatter {
    /// The decoded advertising data, one item per piece: "flags 0x06 (LE General Discoverable, BR/EDR Not Supported)",
    /// "services 180D Heart Rate", "Apple, Inc. (0x004C) iBeacon …", "tx power 4 dBm".
    public static func items(_ snapshot: AdvertiserSnapshot) -> [String] {
        var items: [String] = []
        if let flags = snapshot.flags { items.append(flagsText(flags)) }
        if !snapshot.serviceUUIDs.isEmpty {
            items.append("services " + snapshot.serviceUUIDs.map(GATTText.uuid).joined(separator: ", "))
        }
        if !snapshot.solicitedServiceUUIDs.isEmpty {
            items.append("solicits " + snapshot.solicitedServiceUUIDs.map(GATTText.uuid).joined(separator: ", "))
        }
        for data in snapshot.serviceData {
            if data.uuid == Eddystone.serviceUUID, let frame = Eddystone(serviceData: data.data) {
                items.append(eddystoneText(frame))
            } else {
                items.append("service data \(GATTText.uuid(data.uuid)): \(GATTText.bytes(data.data))")
            }
        }
        for manufacturer in snapshot.manufacturerData {
            if let beacon = IBeacon(manufacturer) {
                items.append("\(GATTText.company(manufacturer.companyID)) iBeacon \(beacon.proximityUUID.uuidString128) "
                             + "major \(beacon.major) minor \(beacon.minor) power \(beacon.measuredPower) dBm")
            } else {
                items.append("\(GATTText.company(manufacturer.companyID)): \(GATTText.bytes(manufacturer.payload))")
            }
        }
        if let power = snapshot.txPowerLevel { items.append("tx power \(power) dBm") }
        if let appearance = snapshot.appearance {
            items.append("appearance " + (AssignedNumbers.appearanceName(appearance) ?? GATTText.handle(appearance)))
        }
        return items
    }

    /// The whole line (see the type's description).
    public static func line(_ snapshot: AdvertiserSnapshot) -> String {
        var head = snapshot.address
        if let type = snapshot.addressType { head += " (\(type))" }
        if let rssi = snapshot.rssi { head += " \(rssi) dBm" }
        if let name = snapshot.name { head += " \"\(name)\"" }
        if let connectable = snapshot.isConnectable { head += connectable ? " connectable" : " non-connectable" }
        if snapshot.isTruncated { head += " (truncated: the controller received only part of it)" }
        return ([head] + items(snapshot)).joined(separator: "; ")
    }

    /// The JSON object: `{"type":"advertiser","address":…,"addressType":…,"rssi":…,"name":…,"connectable":…,
    /// "services":["180D"],"manufacturerData":[{"company":76,"companyName":"Apple, Inc.","data":"0215…"}],
    /// "serviceData":[{"uuid":"FEAA","data":"…"}],"iBeacon":{…},"eddystone":"…","txPower":…,"appearance":…,
    /// "decoded":[items]}` plus `extra` members; `"truncated":true` only for a truncated advertisement.
    public static func json(_ snapshot: AdvertiserSnapshot, extra: [String: JSONValue] = [:]) -> JSONValue {
        var object = extra
        object["type"] = "advertiser"
        object["address"] = .string(snapshot.address)
        object["addressType"] = .optional(snapshot.addressType)
        object["rssi"] = snapshot.rssi.map { .integer($0) } ?? .null
        object["name"] = .optional(snapshot.name)
        object["connectable"] = snapshot.isConnectable.map { .bool($0) } ?? .null
        if snapshot.isTruncated { object["truncated"] = .bool(true) }
        object["services"] = .array(snapshot.serviceUUIDs.map { .string($0.description) })
        object["manufacturerData"] = .array(snapshot.manufacturerData.map { data in
            ["company": .integer(data.companyID), "companyName": .optional(data.companyName), "data": .string(Hex.string(data.payload))]
        })
        object["serviceData"] = .array(snapshot.serviceData.map { data in
            ["uuid": .string(data.uuid.description), "data": .string(Hex.string(data.data))]
        })
        if let beacon = snapshot.manufacturerData.lazy.compactMap(IBeacon.init).first {
            object["iBeacon"] = ["uuid": .string(beacon.proximityUUID.uuidString128), "major": .integer(beacon.major),
                                 "minor": .integer(beacon.minor), "measuredPower": .integer(beacon.measuredPower)]
        }
        if let frame = snapshot.serviceData.lazy.filter({ $0.uuid == Eddystone.serviceUUID }).compactMap({ Eddystone(serviceData: $0.data) }).first {
            object["eddystone"] = .string(eddystoneText(frame))
        }
        object["txPower"] = snapshot.txPowerLevel.map { .integer($0) } ?? .null
        object["appearance"] = snapshot.appearance.map { .integer($0) } ?? .null
        object["decoded"] = .array(items(snapshot).map { .string($0) })
        return .object(object)
    }

    /// The text of ``json(_:extra:)`` with `"time": time`, written straight into bytes without building the object
    /// (`cbtool scan --json` writes one per advertisement): byte for byte the same line.
    public static func jsonLine(_ snapshot: AdvertiserSnapshot, time: String) -> String {
        var object = JSONObjectWriter()
        object.string("address", snapshot.address)
        object.string("addressType", snapshot.addressType)
        object.integer("appearance", snapshot.appearance)
        object.bool("connectable", snapshot.isConnectable)
        object.strings("decoded", items(snapshot))
        if let frame = snapshot.serviceData.lazy.filter({ $0.uuid == Eddystone.serviceUUID }).compactMap({ Eddystone(serviceData: $0.data) }).first {
            object.string("eddystone", eddystoneText(frame))
        }
        if let beacon = snapshot.manufacturerData.lazy.compactMap(IBeacon.init).first {
            object.object("iBeacon") { member in
                member.integer("major", beacon.major)
                member.integer("measuredPower", beacon.measuredPower)
                member.integer("minor", beacon.minor)
                member.string("uuid", beacon.proximityUUID.uuidString128)
            }
        }
        object.objects("manufacturerData", snapshot.manufacturerData) { member, data in
            member.integer("company", data.companyID)
            member.string("companyName", data.companyName)
            member.string("data", Hex.string(data.payload))
        }
        object.string("name", snapshot.name)
        object.integer("rssi", snapshot.rssi)
        object.objects("serviceData", snapshot.serviceData) { member, data in
            member.string("data", Hex.string(data.data))
            member.string("uuid", data.uuid.description)
        }
        object.strings("services", snapshot.serviceUUIDs.lazy.map(\.description))
        object.string("time", time)
        if snapshot.isTruncated { object.bool("truncated", true) }
        object.integer("txPower", snapshot.txPowerLevel)
        object.string("type", "advertiser")
        return object.finish()
    }

    /// "flags 0x06 (LE General Discoverable, BR/EDR Not Supported)" (Supplement Part A §1.3).
    public static func flagsText(_ flags: UInt8) -> String {
        let names = ["LE Limited Discoverable", "LE General Discoverable", "BR/EDR Not Supported",
                     "LE and BR/EDR Controller", "LE and BR/EDR Host"]
        let set = names.enumerated().filter { flags & (1 << $0.offset) != 0 }.map(\.element)
        let digits = String(flags, radix: 16, uppercase: true)
        return "flags 0x" + (digits.count == 1 ? "0" : "") + digits + (set.isEmpty ? "" : " (\(set.joined(separator: ", ")))")
    }

    /// "Eddystone-UID namespace … instance … ranging -20 dBm", "Eddystone-URL https://example.com tx -20 dBm",
    /// "Eddystone-TLM battery 3000 mV, 21.5 °C, 1000 frames, uptime 3600 s".
    public static func eddystoneText(_ frame: Eddystone) -> String {
        switch frame {
        case let .uid(ranging, namespace, instance):
            return "Eddystone-UID namespace \(Hex.string(namespace)) instance \(Hex.string(instance)) ranging \(ranging) dBm"
        case let .url(power, url):
            return "Eddystone-URL \(url) tx \(power) dBm"
        case let .tlm(tlm):
            var parts = ["battery \(tlm.batteryMillivolts) mV"]
            if let celsius = tlm.temperatureCelsius { parts.append("\(PresentationFormat.number(celsius)) °C") }
            parts.append("\(tlm.advertisingCount) frames")
            parts.append("uptime \(tlm.uptimeDeciseconds / 10) s")
            return "Eddystone-TLM " + parts.joined(separator: ", ")
        }
    }
}
